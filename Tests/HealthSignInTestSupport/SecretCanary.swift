import Foundation
import HealthSignInCore
import XCTest

/// A recognisable secret planted in credentials, tokens and stored state, and the checks that it never shows.
public enum SecretCanary {
    /// The canary; variants add a suffix so that each planted secret is distinct.
    public static let value = "canary-secret"

    /// `canary-secret-<name>`.
    public static func named(_ name: String) -> String { value + "-" + name }

    /// Fails for each value whose description, debug description, reflection, `dump` or (for errors) localized
    /// description contains the canary or one of `secrets` (for secrets that cannot contain it, such as Base64 keys).
    public static func assertHidden(
        _ values: [Any], also secrets: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) {
        for value in values {
            var dumped = ""
            dump(value, to: &dumped)
            var texts = [String(describing: value), String(reflecting: value), dumped]
            if let error = value as? any Error { texts.append(error.localizedDescription) }
            for text in texts where ([Self.value] + secrets).contains(where: text.contains) {
                XCTFail("\(type(of: value)) shows a secret: \(text)", file: file, line: line)
            }
        }
    }

    /// Fails when a log message contains the canary.
    public static func assertHidden(
        in log: LogCapture, also secrets: [String] = [], file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertFalse(log.records.isEmpty, "the flow logged nothing, so nothing was checked", file: file, line: line)
        for record in log.records where ([Self.value] + secrets).contains(where: record.message.contains) {
            XCTFail("a log record shows a secret: [\(record.category)] \(record.message)", file: file, line: line)
        }
    }

    /// Checks a credential store file: readable by its owner only, and the canary only under `keys` (the JSON keys
    /// whose values are the secrets the store exists to keep).
    public static func assertStoredOnlyUnder(
        _ keys: Set<String>, in file: URL, also secrets: [String] = [], file testFile: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        XCTAssertEqual(
            (attributes[.posixPermissions] as? NSNumber)?.intValue, 0o600,
            "\(file.lastPathComponent) is readable by others", file: testFile, line: line)
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: file))
        var found = 0
        func walk(_ node: Any, key: String?) {
            switch node {
            case let object as [String: Any]: for (name, value) in object { walk(value, key: name) }
            case let array as [Any]: for value in array { walk(value, key: key) }
            case let string as String where ([Self.value] + secrets).contains(where: string.contains):
                found += 1
                if !keys.contains(key ?? "") {
                    XCTFail("a secret is stored under \"\(key ?? "")\"", file: testFile, line: line)
                }
            default: break
            }
        }
        walk(json, key: nil)
        XCTAssertGreaterThan(
            found, 0, "no planted secret was stored, so nothing was checked", file: testFile, line: line)
    }
}

/// A log sink that keeps every record, for tests.
public final class LogCapture: LogSink, @unchecked Sendable {
    // @unchecked: `stored` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var stored: [LogEntry] = []

    /// Creates an empty capture.
    public init() {}

    /// Keeps `record`.
    public func log(_ record: LogEntry) {
        lock.lock()
        defer { lock.unlock() }
        stored.append(record)
    }

    /// Every record so far.
    public var records: [LogEntry] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }
}
