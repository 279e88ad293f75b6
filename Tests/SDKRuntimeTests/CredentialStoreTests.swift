import Foundation
@testable import SDKRuntime
import XCTest

final class CredentialStoreTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)/nested")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory.deletingLastPathComponent())
    }

    private func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testFileStoreRoundTripsWithOwnerOnlyPermissions() throws {
        let store = try FileCredentialStore(directory: directory)
        XCTAssertNil(try store.read("session"))
        try store.write(Data("one".utf8), for: "session")
        try store.write(Data("two".utf8), for: "session")
        XCTAssertEqual(try store.read("session"), Data("two".utf8))
        XCTAssertEqual(try mode(store.fileURL(for: "session").path), 0o600)
        XCTAssertEqual(try mode(directory.path), 0o700)
        try store.remove("session")
        try store.remove("session")
        XCTAssertNil(try store.read("session"))
    }

    func testACrashBeforeTheRenameLeavesTheOldValue() throws {
        let store = try FileCredentialStore(directory: directory)
        try store.write(Data("old".utf8), for: "k")
        struct Crash: Error {}
        let crashing = try FileCredentialStore(directory: directory) { temporary in
            // The new bytes are fully on disk in the temporary file when the process "dies".
            XCTAssertEqual(try? Data(contentsOf: temporary), Data("new".utf8))
            throw Crash()
        }
        XCTAssertThrowsError(try crashing.write(Data("new".utf8), for: "k"))
        XCTAssertEqual(try store.read("k"), Data("old".utf8), "the old value is intact")
        // The leftover temporary file is never mistaken for a value, and the next write succeeds.
        try store.write(Data("next".utf8), for: "k")
        XCTAssertEqual(try store.read("k"), Data("next".utf8))
    }

    func testKeysBecomeSafeFileNames() throws {
        XCTAssertEqual(FileCredentialStore.fileName(for: "vital.jwt"), "vital.jwt.credential")
        XCTAssertEqual(FileCredentialStore.fileName(for: "../etc/passwd"), "%2E.%2Fetc%2Fpasswd.credential")
        let store = try FileCredentialStore(directory: directory)
        try store.write(Data("x".utf8), for: "../escape")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["%2E.%2Fescape.credential"])
    }

    func testConcurrentWritersNeverTearAValue() async throws {
        let store = try FileCredentialStore(directory: directory)
        let values = (0..<20).map { Data(String(repeating: Character(UnicodeScalar(65 + $0)!), count: 4096).utf8) }
        await withTaskGroup(of: Void.self) { group in
            for value in values { group.addTask { try? store.write(value, for: "k") } }
        }
        let final = try XCTUnwrap(store.read("k"))
        XCTAssertTrue(values.contains(final))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), ["k.credential"], "no temporary files left")
    }

    func testTypedValuesAndUnreadableBytes() throws {
        let store = InMemoryCredentialStore()
        try store.writeValue(["a": 1], for: "k")
        XCTAssertEqual(try store.readValue([String: Int].self, for: "k"), ["a": 1])
        try store.write(Data("not json".utf8), for: "k")
        XCTAssertThrowsError(try store.readValue([String: Int].self, for: "k")) { error in
            XCTAssertEqual(error as? CredentialStoreError, .unreadable(key: "k"))
        }
        XCTAssertEqual(store.keys, ["k"], "an unreadable value is left for the caller to decide about")
    }
}
