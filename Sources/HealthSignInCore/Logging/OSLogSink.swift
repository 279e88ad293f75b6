#if canImport(os)
    import os

    /// Sends the SDK's log records to Apple's unified logging system, one `Logger` category per SDK subsystem.
    ///
    /// ```swift
    /// let vital = VitalSession(configuration: .init(store: store, logger: OSLogSink(subsystem: "com.example.app")))
    /// ```
    ///
    /// Records are already redacted. A record's text is logged as public only when it is the SDK's fixed wording with
    /// only its own values in it (``LogEntry/isPublic``); anything else, such as a host, an identifier or a server's
    /// message, is logged as private, which the unified log hides unless the device is set to show it.
    public struct OSLogSink: LogSink {
        /// The subsystem the records are filed under, usually the app's bundle identifier.
        public let subsystem: String

        /// Creates a sink for `subsystem`.
        public init(subsystem: String) { self.subsystem = subsystem }

        /// Logs `record` at the matching level: debug, info, default (for warnings) or error.
        public func log(_ record: LogEntry) {
            let logger = Logger(subsystem: subsystem, category: record.category)
            let type: OSLogType
            switch record.level {
            case .debug: type = .debug
            case .info: type = .info
            case .warning: type = .default
            case .error: type = .error
            }
            if record.isPublic {
                logger.log(level: type, "\(record.message, privacy: .public)")
            } else {
                logger.log(level: type, "\(record.message, privacy: .private)")
            }
        }
    }
#endif
