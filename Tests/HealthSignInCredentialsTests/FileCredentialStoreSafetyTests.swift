import Foundation
import HealthSignInCore
import HealthSignInCredentials
import HealthSignInTestSupport
import XCTest

/// A file store under parents that others could change: every ancestor is checked, the directory is opened once and
/// every later read, write, removal and lock goes through that open directory, so no path swapped afterwards can
/// redirect it; and a value that is not a regular file is refused without blocking.
final class FileCredentialStoreSafetyTests: XCTestCase {
    private var base: URL!

    override func setUpWithError() throws {
        base = FileManager.default.temporaryDirectory.appendingPathComponent("store-safety-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: base, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: base)
    }

    private func directory(_ name: String, mode: mode_t) throws -> URL {
        let url = base.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        // chmod, not the creation attributes: the umask would clear the bits under test.
        XCTAssertEqual(chmod(url.path, mode), 0)
        return url
    }

    private func assertUnsafe(
        _ path: URL, _ problem: CredentialStoreError.LocationProblem, line: UInt = #line,
        _ body: () async throws -> Any?
    ) async {
        await XCTAssertThrowsErrorAsync(try await body(), line: line) { error in
            XCTAssertEqual(
                error as? CredentialStoreError, .unsafeLocation(path: path.path, problem: problem), line: line)
            XCTAssertEqual((error as? CredentialStoreError)?.recovery, .reconfigure, line: line)
        }
    }

    private func contents(_ url: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted()
    }

    // MARK: - Ancestors

    func testAParentOthersCanWriteWithoutTheStickyBitIsRefused() async throws {
        let shared = try directory("shared", mode: 0o777)
        await assertUnsafe(shared, .writableByOthers(mode: 0o777)) {
            try FileCredentialStore(directory: shared.appendingPathComponent("a/store"))
        }
        XCTAssertEqual(contents(shared), [], "nothing is created under a parent others can change")
        XCTAssertEqual(chmod(shared.path, 0o775), 0)
        await assertUnsafe(shared, .writableByOthers(mode: 0o775)) {
            try FileCredentialStore(directory: shared.appendingPathComponent("store"))
        }
        XCTAssertEqual(chmod(shared.path, 0o755), 0)
        XCTAssertNoThrow(try FileCredentialStore(directory: shared.appendingPathComponent("store")))
    }

    func testAParentWithTheStickyBitIsAccepted() async throws {
        let sticky = try directory("sticky", mode: 0o1777)
        let store = try FileCredentialStore(directory: sticky.appendingPathComponent("store"))
        try await store.write(Data("value".utf8), for: "k")
        await XCTAssertEqualAsync(try await store.read("k"), Data("value".utf8))
    }

    func testAnAncestorOfAnotherUserIsRefused() async throws {
        try XCTSkipUnless(geteuid() == 0, "only root can give a directory to another user")
        let foreign = try directory("foreign", mode: 0o755)
        XCTAssertEqual(chown(foreign.path, 4242, 4242), 0)
        await assertUnsafe(foreign, .ownedByAnotherUser(uid: 4242)) {
            try FileCredentialStore(directory: foreign.appendingPathComponent("store"))
        }
        XCTAssertEqual(contents(foreign), [])
    }

    func testParentsTheStoreCreatesArePrivateToo() throws {
        let store = base.appendingPathComponent("one/two/store")
        _ = try FileCredentialStore(directory: store)
        for path in ["one", "one/two", "one/two/store"] {
            let attributes = try FileManager.default.attributesOfItem(atPath: base.appendingPathComponent(path).path)
            XCTAssertEqual((attributes[.posixPermissions] as? NSNumber)?.intValue, 0o700, path)
        }
    }

    func testALinkAmongTheParentsIsFollowedOnlyWhenNoOtherUserCouldHaveMadeIt() async throws {
        let real = try directory("real", mode: 0o700)
        let link = base.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
        let store = try FileCredentialStore(directory: link.appendingPathComponent("store"))
        try await store.write(Data("value".utf8), for: "k")
        XCTAssertEqual(contents(real.appendingPathComponent("store")), ["k.credential"])

        try XCTSkipUnless(geteuid() == 0, "only root can give a link to another user")
        XCTAssertEqual(lchown(link.path, 4242, 4242), 0)
        await assertUnsafe(link, .symbolicLink) {
            try FileCredentialStore(directory: link.appendingPathComponent("store"))
        }
    }

    func testALoopOfLinksEndsWithAnError() throws {
        let loop = base.appendingPathComponent("loop")
        try FileManager.default.createSymbolicLink(atPath: loop.path, withDestinationPath: "loop")
        XCTAssertThrowsError(try FileCredentialStore(directory: loop.appendingPathComponent("store"))) { error in
            XCTAssertEqual(
                error as? CredentialStoreError,
                .systemError(key: loop.path, operation: "follow the links of", code: ELOOP))
        }
    }

    func testALockDirectoryUnderAParentOthersCanWriteIsRefused() async throws {
        let shared = try directory("shared", mode: 0o777)
        await XCTAssertThrowsErrorAsync(try await LockDirectory(shared.appendingPathComponent("locks")).lock("k")) {
            error in
            XCTAssertEqual(
                error as? CredentialStoreError,
                .unsafeLocation(path: shared.path, problem: .writableByOthers(mode: 0o777)))
        }
        XCTAssertEqual(contents(shared), [], "no lock directory or lock file is made")
    }

    // MARK: - Swaps after the checks

    /// Moves the store's directory away and puts a link to `other` in its place, as someone who could write the
    /// parent could do after the store checked it.
    private func swap(_ directory: URL, for other: URL) throws -> URL {
        let moved = base.appendingPathComponent("moved")
        try FileManager.default.moveItem(at: directory, to: moved)
        try FileManager.default.createSymbolicLink(at: directory, withDestinationURL: other)
        return moved
    }

    func testAStoreKeepsItsDirectoryWhenThePathIsSwappedForALink() async throws {
        let directory = base.appendingPathComponent("store")
        let store = try FileCredentialStore(directory: directory)
        try await store.write(Data("mine".utf8), for: "k")
        try await store.write(Data("gone soon".utf8), for: "removed")
        let other = try self.directory("other", mode: 0o700)
        try Data("planted".utf8).write(to: other.appendingPathComponent("k.credential"))
        try Data("planted".utf8).write(to: other.appendingPathComponent("removed.credential"))
        let moved = try swap(directory, for: other)

        await XCTAssertEqualAsync(try await store.read("k"), Data("mine".utf8), "the planted value is never read")
        try await store.write(Data("secret".utf8), for: "token")
        await XCTAssertTrueAsync(try await store.replace(Data("mine".utf8), with: Data("swapped".utf8), for: "k"))
        try await store.remove("removed")
        XCTAssertEqual(contents(moved), ["k.credential", "token.credential"])
        XCTAssertEqual(try Data(contentsOf: moved.appendingPathComponent("token.credential")), Data("secret".utf8))
        XCTAssertEqual(try Data(contentsOf: moved.appendingPathComponent("k.credential")), Data("swapped".utf8))
        XCTAssertEqual(contents(other), ["k.credential", "removed.credential"], "no secret lands elsewhere")
        XCTAssertEqual(try Data(contentsOf: other.appendingPathComponent("k.credential")), Data("planted".utf8))
    }

    func testALockAfterASwapIsTakenInTheOriginalDirectory() async throws {
        let directory = base.appendingPathComponent("store")
        let store = try FileCredentialStore(directory: directory, lockTimeout: 0.2)
        let other = try self.directory("other", mode: 0o700)
        let moved = try swap(directory, for: other)

        let lock = try await store.lock("k")
        XCTAssertEqual(contents(moved), [".k.credential.lock"])
        XCTAssertEqual(contents(other), [], "no lock file lands elsewhere")
        await XCTAssertThrowsErrorAsync(try await store.lock("k")) { error in
            XCTAssertEqual(error as? CredentialStoreError, .lockTimedOut(key: ".k.credential.lock", seconds: 0.2))
        }
        lock?.release()
        XCTAssertEqual(contents(moved), [], "the lock file goes with the lock")
    }

    // MARK: - Values that are not regular files

    func testAFIFOPlantedAsAValueIsRefusedWithoutBlocking() async throws {
        let store = try FileCredentialStore(directory: base.appendingPathComponent("store"))
        let fifo = store.fileURL(for: "k").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        defer {
            // Lets a read that blocked on the FIFO go on, so no thread is left waiting.
            let writer = open(fifo, O_WRONLY | O_NONBLOCK)
            if writer >= 0 { close(writer) }
        }
        let reading = Task { try await store.read("k") }
        guard let result = await outcome(of: reading, within: 2) else {
            return XCTFail("reading a FIFO blocked for more than 2 s")
        }
        XCTAssertThrowsError(try result.get()) { error in
            XCTAssertEqual(error as? CredentialStoreError, .unsafeLocation(path: fifo, problem: .notARegularFile))
        }
    }
}

/// A value one thread sets and another reads after waiting for it.
private final class LockedBox<Value>: @unchecked Sendable {
    // @unchecked: `value` is only touched while `lock` is held.
    private let lock = NSLock()
    private var value: Value?

    func set(_ newValue: Value) { lock.withLock { value = newValue } }
    func get() -> Value? { lock.withLock { value } }
}
