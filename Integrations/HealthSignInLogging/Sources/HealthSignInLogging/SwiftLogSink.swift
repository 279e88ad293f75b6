import HealthSignInCore
import Logging

/// Writes the SDK's log entries to a swift-log `Logger`, with what each is about as structured metadata:
/// `healthsignin.family` (the entry's category, such as `Vital`), `healthsignin.operation` (such as
/// `CreateSignInToken`) and `healthsignin.request_id` (the same on a request's `→` and `←` entries). The keys carry
/// a prefix so that they never replace the app's own, such as Vapor's `request-id`.
///
/// Entries hold no secrets: the SDK redacts tokens, keys, codes and bodies before anything is logged. What a message
/// may still hold is a value from outside the SDK's own wording (a host, a status or a user's id), which could
/// identify a person; by default each such value is written as `<private>` (``PrivateValues/redacted``).
///
/// ```swift
/// let backend = VitalBackend(
///     configuration: .init(
///         apiKey: APIKey(apiKey), environment: .sandboxUS,
///         logger: SwiftLogSink(Logger(label: "sign-in"))))
/// ```
///
/// **The request's logger.** While a server handles a request, its framework's logger carries the request's id
/// (Hummingbird's `hb.request.id`, Vapor's `request-id`). Run the handler within ``withRequestLogger(_:_:)``, or use
/// the adapters' middleware that does, and the SDK's entries of that request go to that logger, with its level and
/// metadata, instead of the sink's own.
public struct SwiftLogSink: LogSink {
    /// What happens to values in a message that are not the SDK's own (`LogMessage/isPublic`).
    public enum PrivateValues: Sendable, Hashable {
        /// Each is written as `<private>`: `CreateSignInToken ← HTTP <private>`.
        case redacted
        /// They are written as they are, for logs kept as safe as the health data itself.
        case included
    }

    /// The metadata keys the sink writes.
    public enum MetadataKey {
        /// The family, or the subsystem, that logged the entry.
        public static let family = "healthsignin.family"
        /// The operation the entry is about.
        public static let operation = "healthsignin.operation"
        /// The id the entries of one request share.
        public static let requestID = "healthsignin.request_id"
    }

    /// Where entries go.
    public let logger: Logger
    /// Whether values that are not the SDK's own are written.
    public let privateValues: PrivateValues

    /// A sink writing to `logger`.
    public init(_ logger: Logger, privateValues: PrivateValues = .redacted) {
        self.logger = logger
        self.privateValues = privateValues
    }

    /// The logger of the request in progress, set by ``withRequestLogger(_:_:)``.
    @TaskLocal public static var requestLogger: Logger?

    /// Runs `body` with `logger` as the logger of every entry the SDK writes through a `SwiftLogSink` meanwhile, in
    /// this task and the tasks it starts.
    ///
    /// - Parameters:
    ///   - logger: the request's logger.
    ///   - body: the request's handling.
    public static func withRequestLogger<Result>(
        _ logger: Logger, _ body: () async throws -> Result
    ) async rethrows -> Result {
        try await $requestLogger.withValue(logger, operation: body)
    }

    /// Writes `record` at its level, with its metadata, to the request's logger when there is one.
    public func log(_ record: LogEntry) {
        let logger = Self.requestLogger ?? logger
        let level = Self.level(record.level)
        guard logger.logLevel <= level else { return }
        var metadata: Logger.Metadata = [MetadataKey.family: .string(record.category)]
        if let operation = record.operation { metadata[MetadataKey.operation] = .string(operation) }
        if let requestID = record.requestID { metadata[MetadataKey.requestID] = .string(requestID) }
        let text = privateValues == .included ? record.content.text : record.content.redactedText
        logger.log(level: level, "\(text)", metadata: metadata, source: "HealthSignIn")
    }

    /// The swift-log level of an SDK level.
    static func level(_ level: LogEntry.Level) -> Logger.Level {
        switch level {
        case .debug: return .debug
        case .info: return .info
        case .warning: return .warning
        case .error: return .error
        }
    }
}
