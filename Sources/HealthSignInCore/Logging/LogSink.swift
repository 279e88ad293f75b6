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
    /// The operation the entry is about, such as `CreateSignInToken`, or nil for an entry about no single
    /// operation. The SDK's own name for it, never a server's.
    public let operation: String?
    /// Ties together the entries of one request: its `→` and `←` entries carry the same value, and no other
    /// request's do. Nil for an entry about no single request. Made by the SDK, never sent to a server.
    public let requestID: String?

    /// Creates a record.
    public init(
        level: Level, category: String, message: LogMessage, operation: String? = nil, requestID: String? = nil
    ) {
        self.level = level
        self.category = category
        self.content = message
        self.operation = operation
        self.requestID = requestID
    }

    /// A new value for ``requestID``: 16 hexadecimal digits, random.
    static func makeRequestID() -> String {
        let digits = String(UInt64.random(in: .min ... .max), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
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
    public func log(
        _ level: LogEntry.Level, _ category: String, _ message: @autoclosure () -> LogMessage,
        operation: String? = nil, requestID: String? = nil
    ) {
        guard let sink = self else { return }
        sink.log(
            LogEntry(level: level, category: category, message: message(), operation: operation, requestID: requestID))
    }
}
