/// One log message. Everything in it is already redacted: no tokens, secrets, codes or bodies.
public struct LogEntry: Sendable, Hashable {
    /// How important an entry is.
    public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable {
        /// Step-by-step detail (requests sent, statuses received).
        case debug
        /// Normal lifecycle events (a session was created, a token refreshed).
        case info
        /// Something unexpected that the SDK recovered from.
        case warning
        /// A failure surfaced to the caller.
        case error

        /// Orders levels by importance.
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// The importance.
    public let level: Level
    /// The subsystem that logged it, e.g. `HealthVault`.
    public let category: String
    /// The message's text.
    public var message: String { content.text }
    /// True when the message is the SDK's fixed wording with only its own values in it (see ``LogMessage``); a sink
    /// that distinguishes public from private text should treat anything else as private.
    public var isPublic: Bool { content.isPublic }
    /// The message, with its privacy.
    public let content: LogMessage

    /// Creates a record.
    public init(level: Level, category: String, message: LogMessage) {
        self.level = level
        self.category = category
        self.content = message
    }
}

/// Receives the SDK's log records; route them to `os.Logger`, swift-log or `print`.
///
/// ```swift
/// let sink = ClosureLogSink { record in print("[\(record.category)] \(record.message)") }
/// ```
public protocol LogSink: Sendable {
    /// Handles one record.
    func log(_ record: LogEntry)
}

/// A log sink that calls a closure.
public struct ClosureLogSink: LogSink {
    private let handler: @Sendable (LogEntry) -> Void

    /// Creates a sink that passes each record to `handler`.
    public init(_ handler: @escaping @Sendable (LogEntry) -> Void) { self.handler = handler }

    /// Passes `record` to the closure.
    public func log(_ record: LogEntry) { handler(record) }
}

extension Optional where Wrapped == any LogSink {
    /// Logs through the sink when there is one.
    public func log(_ level: LogEntry.Level, _ category: String, _ message: @autoclosure () -> LogMessage) {
        guard let sink = self else { return }
        sink.log(LogEntry(level: level, category: category, message: message()))
    }
}
