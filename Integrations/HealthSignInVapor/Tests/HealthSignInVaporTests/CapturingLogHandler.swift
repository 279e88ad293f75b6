import Foundation
import Logging

/// One line a ``CapturingLogHandler`` received.
struct CapturedLine: Sendable {
    let level: Logger.Level
    let message: String
    let metadata: [String: String]
    let source: String
}

/// A swift-log handler that keeps what it receives, with the logger's metadata merged into each line's.
struct CapturingLogHandler: LogHandler {
    final class Store: @unchecked Sendable {
        // @unchecked: `stored` is only read or written while `lock` is held.
        private let lock = NSLock()
        private var stored: [CapturedLine] = []

        func append(_ line: CapturedLine) { lock.withLock { stored.append(line) } }
        var lines: [CapturedLine] { lock.withLock { stored } }
    }

    let store: Store
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        store.append(
            CapturedLine(
                level: event.level, message: "\(event.message)", metadata: merged.mapValues { "\($0)" },
                source: event.source))
    }
}
