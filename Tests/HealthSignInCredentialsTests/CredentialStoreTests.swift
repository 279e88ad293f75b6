import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInCredentials

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

    func testFileStoreRoundTripsWithOwnerOnlyPermissions() async throws {
        let store = try FileCredentialStore(directory: directory)
        await XCTAssertNilAsync(try await store.read("session"))
        try await store.write(Data("one".utf8), for: "session")
        try await store.write(Data("two".utf8), for: "session")
        await XCTAssertEqualAsync(try await store.read("session"), Data("two".utf8))
        XCTAssertEqual(try mode(store.fileURL(for: "session").path), 0o600)
        XCTAssertEqual(try mode(directory.path), 0o700)
        try await store.remove("session")
        try await store.remove("session")
        await XCTAssertNilAsync(try await store.read("session"))
    }

    private func assertUnsafe(
        _ expected: CredentialStoreError.LocationProblem, _ body: () async throws -> Any?, line: UInt = #line
    ) async {
        await XCTAssertThrowsErrorAsync(try await body(), line: line) { error in
            guard case .unsafeLocation(_, let problem) = error as? CredentialStoreError else {
                return XCTFail("expected an unsafe location, got \(error)", line: line)
            }
            XCTAssertEqual(problem, expected, line: line)
        }
    }

    func testTheDirectoryIsCreatedPrivateWhateverTheUmask() throws {
        let previous = umask(0)
        defer { umask(previous) }
        _ = try FileCredentialStore(directory: directory)
        XCTAssertEqual(try mode(directory.path), 0o700)
    }

    func testAnExistingDirectoryOthersCanChangeIsRefused() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(directory.path, 0o777), 0)
        await assertUnsafe(.writableByOthers(mode: 0o777)) { try FileCredentialStore(directory: self.directory) }
        XCTAssertEqual(chmod(directory.path, 0o770), 0)
        await assertUnsafe(.writableByOthers(mode: 0o770)) { try FileCredentialStore(directory: self.directory) }
        XCTAssertEqual(chmod(directory.path, 0o755), 0)
        XCTAssertNoThrow(try FileCredentialStore(directory: directory))
    }

    func testADirectoryOfAnotherUserIsRefused() async throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        if geteuid() == 0 {
            XCTAssertEqual(chown(directory.path, 4242, 4242), 0)
            await assertUnsafe(.ownedByAnotherUser(uid: 4242)) { try FileCredentialStore(directory: self.directory) }
        } else {
            // Without the right to give a directory away, use one that root owns.
            await assertUnsafe(.ownedByAnotherUser(uid: 0)) {
                try FileCredentialStore(directory: URL(fileURLWithPath: "/"))
            }
        }
    }

    func testSymbolicLinksAreRefusedNotFollowed() async throws {
        let parent = directory.deletingLastPathComponent()
        let real = parent.appendingPathComponent("real")
        try FileManager.default.createDirectory(
            at: real, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.createSymbolicLink(at: directory, withDestinationURL: real)
        await assertUnsafe(.symbolicLink) { try FileCredentialStore(directory: self.directory) }

        let store = try FileCredentialStore(directory: real)
        let elsewhere = parent.appendingPathComponent("elsewhere")
        try Data("someone else's file".utf8).write(to: elsewhere)
        try FileManager.default.createSymbolicLink(at: store.fileURL(for: "session"), withDestinationURL: elsewhere)
        await assertUnsafe(.symbolicLink) { try await store.read("session") }
        // A write replaces the link itself and leaves its target alone.
        try await store.write(Data("mine".utf8), for: "session")
        await XCTAssertEqualAsync(try await store.read("session"), Data("mine".utf8))
        XCTAssertEqual(try Data(contentsOf: elsewhere), Data("someone else's file".utf8))

        try FileManager.default.createDirectory(at: store.fileURL(for: "folder"), withIntermediateDirectories: false)
        await assertUnsafe(.notARegularFile) { try await store.read("folder") }
        try Data().write(to: parent.appendingPathComponent("file"))
        await assertUnsafe(.notADirectory) { try FileCredentialStore(directory: parent.appendingPathComponent("file")) }
    }

    func testTheSecureStoreOnLinuxIsAPrivateDirectoryUnderXDGDataHome() throws {
        #if canImport(Security)
            XCTAssertTrue(
                try CredentialStores.secure(service: "s", accessGroup: "ABCDE12345.g") is KeychainCredentialStore)
        #else
            let previous = ProcessInfo.processInfo.environment["XDG_DATA_HOME"]
            setenv("XDG_DATA_HOME", directory.path, 1)
            defer { if let previous { setenv("XDG_DATA_HOME", previous, 1) } else { unsetenv("XDG_DATA_HOME") } }
            let store = try XCTUnwrap(
                try CredentialStores.secure(service: "com.example.vital", accessGroup: "ABCDE12345.g")
                    as? FileCredentialStore)
            XCTAssertEqual(
                store.fileURL(for: "k").deletingLastPathComponent().path,
                directory.appendingPathComponent("com.example.vital").path)
            XCTAssertEqual(try mode(directory.appendingPathComponent("com.example.vital").path), 0o700)
        #endif
    }

    func testACrashBeforeTheRenameLeavesTheOldValue() async throws {
        let store = try FileCredentialStore(directory: directory)
        try await store.write(Data("old".utf8), for: "k")
        struct Crash: Error {}
        let crashing = try FileCredentialStore(directory: directory) { temporary in
            // The new bytes are fully on disk in the temporary file when the process "dies".
            XCTAssertEqual(try? Data(contentsOf: temporary), Data("new".utf8))
            throw Crash()
        }
        await XCTAssertThrowsErrorAsync(try await crashing.write(Data("new".utf8), for: "k"))
        await XCTAssertEqualAsync(try await store.read("k"), Data("old".utf8), "the old value is intact")
        // The leftover temporary file is never mistaken for a value, and the next write succeeds.
        try await store.write(Data("next".utf8), for: "k")
        await XCTAssertEqualAsync(try await store.read("k"), Data("next".utf8))
    }

    func testKeysBecomeSafeFileNames() async throws {
        XCTAssertEqual(FileCredentialStore.fileName(for: "vital.jwt"), "vital.jwt.credential")
        XCTAssertEqual(FileCredentialStore.fileName(for: "../etc/passwd"), "%2E.%2Fetc%2Fpasswd.credential")
        let store = try FileCredentialStore(directory: directory)
        try await store.write(Data("x".utf8), for: "../escape")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path), ["%2E.%2Fescape.credential"])
    }

    func testConcurrentWritersNeverTearAValue() async throws {
        let store = try FileCredentialStore(directory: directory)
        let values = (0..<20).map { Data(String(repeating: Character(UnicodeScalar(65 + $0)!), count: 4096).utf8) }
        await withTaskGroup(of: Void.self) { group in
            for value in values { group.addTask { try? await store.write(value, for: "k") } }
        }
        let final = try await XCTUnwrapAsync(await store.read("k"))
        XCTAssertTrue(values.contains(final))
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: directory.path), ["k.credential"],
            "no temporary files left")
    }

    func testTypedValuesAndUnreadableBytes() async throws {
        let store = InMemoryCredentialStore()
        try await store.writeValue(["a": 1], for: "k")
        await XCTAssertEqualAsync(try await store.readValue([String: Int].self, for: "k"), ["a": 1])
        try await store.write(Data("not json".utf8), for: "k")
        await XCTAssertThrowsErrorAsync(try await store.readValue([String: Int].self, for: "k")) { error in
            XCTAssertEqual(error as? CredentialStoreError, .unreadable(key: "k"))
        }
        XCTAssertEqual(store.keys, ["k"], "an unreadable value is left for the caller to decide about")
    }

    func testAValueThatCannotBeEncodedIsATypedErrorAndNothingIsStored() async throws {
        var deep = JSONValue.null
        for _ in 0...JSONValue.writableDepth { deep = .array([deep]) }
        let stores: [any CredentialStore] = [InMemoryCredentialStore(), try FileCredentialStore(directory: directory)]
        for store in stores {
            try await store.writeValue(["kept": 1.5], for: "k")
            for value: any Encodable in [["x": Double.nan], ["x": -Double.infinity], deep] {
                await XCTAssertThrowsErrorAsync(try await store.writeValue(value, for: "k"), "\(type(of: store))") {
                    error in
                    XCTAssertEqual(error as? CredentialStoreError, .unencodable(key: "k"))
                    XCTAssertEqual((error as? CredentialStoreError)?.recovery, .fixRequest)
                    XCTAssertEqual(
                        "\(error)", "The value for 'k' could not be encoded for storage; nothing was written")
                }
            }
            await XCTAssertEqualAsync(try await store.readValue([String: Double].self, for: "k"), ["kept": 1.5])
        }
    }

    // MARK: - Compare-and-swap, lock directories, bounded lock waits

    func testReplaceWritesOnlyOverTheExpectedBytesInEveryStore() async throws {
        let stores: [any CredentialStore] = [
            InMemoryCredentialStore(), try FileCredentialStore(directory: directory), LocklessStore(),
        ]
        for store in stores {
            let name = "\(type(of: store))"
            await XCTAssertFalseAsync(try await store.replace(Data("x".utf8), with: Data("a".utf8), for: "k"), name)
            await XCTAssertNilAsync(try await store.read("k"), name)
            await XCTAssertTrueAsync(try await store.replace(nil, with: Data("a".utf8), for: "k"), name)
            await XCTAssertFalseAsync(
                try await store.replace(nil, with: Data("b".utf8), for: "k"), "something is stored: \(name)")
            await XCTAssertFalseAsync(try await store.replace(Data("b".utf8), with: nil, for: "k"), name)
            await XCTAssertEqualAsync(try await store.read("k"), Data("a".utf8), name)
            await XCTAssertTrueAsync(try await store.replace(Data("a".utf8), with: Data("b".utf8), for: "k"), name)
            await XCTAssertTrueAsync(try await store.replace(Data("b".utf8), with: nil, for: "k"), name)
            await XCTAssertNilAsync(try await store.read("k"), name)
        }
    }

    func testALockDirectoryIsCheckedLikeAFileStoresDirectory() async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        XCTAssertEqual(chmod(directory.path, 0o777), 0)
        await XCTAssertThrowsErrorAsync(try await LockDirectory(directory).lock("k")) { error in
            XCTAssertEqual(
                error as? CredentialStoreError,
                .unsafeLocation(path: self.directory.path, problem: .writableByOthers(mode: 0o777)))
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [], "no lock file made")
        XCTAssertEqual(chmod(directory.path, 0o700), 0)
        let lock = try await LockDirectory(directory).lock("k")
        lock.release()
        let link = directory.deletingLastPathComponent().appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: directory)
        await XCTAssertThrowsErrorAsync(try await LockDirectory(link).lock("k")) { error in
            guard case .unsafeLocation(_, .symbolicLink)? = error as? CredentialStoreError else {
                return XCTFail("\(error)")
            }
        }
    }

    func testWaitingForAHeldLockEndsWithATypedErrorAfterTheTimeout() async throws {
        let store = try FileCredentialStore(directory: directory, lockTimeout: 0.3)
        let held = try await store.lock("k")
        let started = ContinuousClock.now
        await XCTAssertThrowsErrorAsync(try await store.lock("k")) { error in
            XCTAssertEqual(error as? CredentialStoreError, .lockTimedOut(key: ".k.credential.lock", seconds: 0.3))
            XCTAssertEqual((error as? CredentialStoreError)?.recovery, .retryLater)
        }
        XCTAssertGreaterThanOrEqual(ContinuousClock.now - started, .milliseconds(300))
        held?.release()
        let next = try await store.lock("k")
        next?.release()
        let shared = try await LockDirectory(directory).lock("shared")
        await XCTAssertThrowsErrorAsync(try await LockDirectory(directory, timeout: 0.1).lock("shared")) { error in
            guard case .lockTimedOut? = error as? CredentialStoreError else { return XCTFail("\(error)") }
        }
        shared.release()
    }
}
