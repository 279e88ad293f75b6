import Foundation
import HealthSignInCredentials
import HealthSignInOAuth
import HealthSignInSMART
import NIOSSL
import PostgresNIO
import XCTest

@testable import HealthSignInPostgres

/// The store against a real PostgreSQL server: what every `CredentialStore` promises, the swap and the lock across
/// store instances (as across hosts), the tables made and migrated on first use, and typed errors when the server
/// cannot be reached.
final class PostgresCredentialStoreTests: XCTestCase {
    /// Every time the store converts to milliseconds or a `Duration`, or adds, is checked when the store is made: NaN,
    /// infinite, negative or absurd values are `ConfigurationError.invalidSetting`, before anything is sent (they
    /// stopped the process at the first statement or lock).
    func testATimeOutsideItsRangeIsRefusedWhenTheStoreIsMade() throws {
        let connection = try TestDatabase.connection()
        for value in [TimeInterval.nan, .infinity, -.infinity, -1, 1e300] {
            let configurations: [(String, PostgresCredentialStore.Configuration)] = [
                ("timeout", .init(connection: connection, timeout: value)),
                ("outageTolerance", .init(connection: connection, outageTolerance: value)),
                ("lockLease", .init(connection: connection, lockLease: value, lockTimeout: 10)),
                ("lockTimeout", .init(connection: connection, lockTimeout: value)),
            ]
            for (name, configuration) in configurations {
                XCTAssertThrowsError(try PostgresCredentialStore(configuration: configuration), "\(name) \(value)") {
                    guard case .invalidSetting(name, _, _)? = $0 as? ConfigurationError else {
                        return XCTFail("\(name) \(value): \($0)")
                    }
                }
            }
        }
    }

    func testValuesAreWrittenReadAndRemovedWithANewVersionEachWrite() async throws {
        let store = try TestDatabase.store()
        await XCTAssertNilAsync(try await store.read("a"))
        await XCTAssertFalseAsync(try await store.contains("a"))
        await XCTAssertNilAsync(try await store.version(of: "a"))
        try await store.write(Data("one".utf8), for: "a")
        let first = try await XCTUnwrapAsync(try await store.version(of: "a"))
        await XCTAssertEqualAsync(try await store.read("a"), Data("one".utf8))
        await XCTAssertTrueAsync(try await store.contains("a"))
        try await store.write(Data("one".utf8), for: "a")
        let second = try await store.version(of: "a")
        XCTAssertNotEqual(second, first, "a write is a new version, even of the same bytes")
        try await store.remove("a")
        try await store.remove("a")
        await XCTAssertNilAsync(try await store.read("a"))
        try await store.write(Data([0, 255, 0]), for: "a")
        await XCTAssertEqualAsync(try await store.read("a"), Data([0, 255, 0]), "bytes are kept as they are")
        let third = try await store.version(of: "a")
        XCTAssertNotEqual(third, first, "versions are never reused after a removal")
    }

    func testReplaceChangesTheValueOnlyWhileItHoldsWhatTheCallerSaw() async throws {
        let store = try TestDatabase.store()
        let (a, b) = (Data("a".utf8), Data("b".utf8))
        await XCTAssertTrueAsync(try await store.replace(nil, with: nil, for: "k"))
        await XCTAssertFalseAsync(try await store.replace(a, with: b, for: "k"))
        await XCTAssertTrueAsync(try await store.replace(nil, with: a, for: "k"))
        await XCTAssertFalseAsync(try await store.replace(nil, with: b, for: "k"))
        await XCTAssertFalseAsync(try await store.replace(nil, with: nil, for: "k"))
        await XCTAssertFalseAsync(try await store.replace(b, with: a, for: "k"))
        await XCTAssertTrueAsync(try await store.replace(a, with: b, for: "k"))
        await XCTAssertEqualAsync(try await store.read("k"), b)
        await XCTAssertFalseAsync(try await store.replace(a, with: nil, for: "k"))
        await XCTAssertTrueAsync(try await store.replace(b, with: nil, for: "k"))
        await XCTAssertNilAsync(try await store.read("k"))
    }

    /// Two store instances (two hosts) increment one counter by swaps from 8 tasks: no increment is lost.
    func testConcurrentSwapsFromTwoStoresLoseNoUpdate() async throws {
        let table = TestDatabase.freshTable()
        let stores = [try TestDatabase.store(table: table), try TestDatabase.store(table: table)]
        try await stores[0].write(Data("0".utf8), for: "counter")
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                let store = stores[worker % 2]
                group.addTask {
                    for _ in 0..<25 {
                        while true {
                            guard let seen = try? await store.read("counter"),
                                let value = Int(String(decoding: seen, as: UTF8.self))
                            else { continue }
                            let next = Data(String(value + 1).utf8)
                            if (try? await store.replace(seen, with: next, for: "counter")) == true { break }
                        }
                    }
                }
            }
        }
        await XCTAssertEqualAsync(try await stores[1].read("counter"), Data("200".utf8))
    }

    func testTheLockKeepsOtherStoresWaitingUntilItIsReleased() async throws {
        let table = TestDatabase.freshTable()
        let first = try TestDatabase.store(table: table)
        let second = try TestDatabase.store(table: table, lockTimeout: 0.3)
        let held = try await first.lock("k")
        await XCTAssertThrowsErrorAsync(try await second.lock("k")) {
            XCTAssertEqual($0 as? CredentialStoreError, .lockTimedOut(key: "k", seconds: 0.3))
        }
        let other = try await second.lock("another key")
        other?.release()
        let waiting = Task { try await TestDatabase.store(table: table).lock("k") }
        try await Task.sleep(for: .milliseconds(200))
        held?.release()
        let taken = try await waiting.value
        XCTAssertNotNil(taken)
        taken?.release()
    }

    /// A holder that died (its row left behind, never renewed) holds the lock until its lease ends.
    func testALockWhoseHolderDiedEndsWithItsLease() async throws {
        let table = TestDatabase.freshTable()
        let store = try TestDatabase.store(table: table, lockTimeout: 10)
        await XCTAssertNilAsync(try await store.read("warm up: the tables exist"))
        try await TestDatabase.execute(
            "INSERT INTO \(table)_locks (key, holder, expires_at) VALUES ('k', 'gone', now() + interval '1 second')")
        let started = Date()
        let lock = try await store.lock("k")
        let waited = Date().timeIntervalSince(started)
        XCTAssertGreaterThan(waited, 0.5, "the lock was taken from a holder whose lease had not ended")
        XCTAssertLessThan(waited, 5)
        lock?.release()
    }

    /// A held lock is renewed: a lease shorter than the time it is held does not let anybody else in.
    func testAHeldLockIsRenewed() async throws {
        let table = TestDatabase.freshTable()
        let holder = try TestDatabase.store(table: table, lockLease: 0.6)
        let other = try TestDatabase.store(table: table, lockTimeout: 1.5)
        let held = try await holder.lock("k")
        await XCTAssertThrowsErrorAsync(try await other.lock("k")) {
            XCTAssertEqual($0 as? CredentialStoreError, .lockTimedOut(key: "k", seconds: 1.5))
        }
        held?.release()
        try await Task.sleep(for: .milliseconds(100))
        let taken = try await other.lock("k")
        taken?.release()
    }

    func testTheTablesAreMadeOnFirstUseOnceForInstancesStartingTogether() async throws {
        let table = TestDatabase.freshTable()
        let stores = try (0..<6).map { _ in try TestDatabase.store(table: table) }
        let failures = LockedErrors()
        await withTaskGroup(of: Void.self) { group in
            for (index, store) in stores.enumerated() {
                group.addTask {
                    do { try await store.write(Data([UInt8(index)]), for: "k\(index)") } catch {
                        failures.append(error)
                    }
                }
            }
        }
        XCTAssertEqual(failures.all.map { "\($0)" }, [])
        await XCTAssertEqualAsync(try await stores[0].read("k5"), Data([5]))
    }

    /// A table at the first version (no `updated_at`) is brought to the latest, its values kept.
    func testAnOlderTableIsMigratedWithItsValues() async throws {
        let table = TestDatabase.freshTable()
        let store = try TestDatabase.store(table: table)
        let connection = try await PostgresConnection.connect(
            configuration: try TestDatabase.connection(), id: 1, logger: Logger(label: "test"))
        let before = try await store.schema.migrate(on: connection, upTo: 1).get()
        XCTAssertEqual(before, 0)
        try await connection.query(
            PostgresQuery(
                unsafeSQL:
                    "INSERT INTO \(table) (key, value, version) VALUES ('kept', '\\x6f6c64', nextval('\(table)_version'))"
            ),
            logger: Logger(label: "test"))
        try await connection.close()

        await XCTAssertEqualAsync(try await store.read("kept"), Data("old".utf8))
        try await store.write(Data("new".utf8), for: "kept")
        let rows = try await PostgresConnection.connect(
            configuration: try TestDatabase.connection(), id: 2, logger: Logger(label: "test"))
        defer { Task { try? await rows.close() } }
        let versions = try await rows.query(
            PostgresQuery(unsafeSQL: "SELECT version FROM healthsignin_schema_versions WHERE name = '\(table)'"),
            logger: Logger(label: "test"))
        var found: [Int] = []
        for try await version in versions.decode(Int.self) { found.append(version) }
        XCTAssertEqual(found, [3])
        let written = try await rows.query(
            PostgresQuery(unsafeSQL: "SELECT updated_at > now() - interval '1 minute' FROM \(table)"),
            logger: Logger(label: "test"))
        var recent: [Bool] = []
        for try await value in written.decode(Bool.self) { recent.append(value) }
        XCTAssertEqual(recent, [true])
    }

    func testATableMigratedByANewerVersionIsLeftAlone() async throws {
        let table = TestDatabase.freshTable()
        await XCTAssertNilAsync(try await TestDatabase.store(table: table).read("k"))
        try await TestDatabase.execute("UPDATE healthsignin_schema_versions SET version = 99 WHERE name = '\(table)'")
        await XCTAssertThrowsErrorAsync(try await TestDatabase.store(table: table).read("k")) {
            XCTAssertEqual($0 as? PostgresCredentialStoreError, .newerSchema(table: table, found: 99, supported: 3))
            XCTAssertEqual(($0 as? PostgresCredentialStoreError)?.recovery, .reconfigure)
        }
    }

    func testATableNameThatIsNotAPlainIdentifierIsRefused() throws {
        for name in ["", "Credentials", "a;drop table x", "1abc", String(repeating: "a", count: 41), "a\"b"] {
            XCTAssertThrowsError(try TestDatabase.store(table: name), name) {
                XCTAssertEqual($0 as? PostgresCredentialStoreError, .invalidTableName(name))
            }
        }
    }

    /// Nothing listens: a read fails at once, a write after its tolerance, both with the typed transient error.
    func testAServerThatCannotBeReachedIsATypedTransientError() async throws {
        let closed = try closedPort()
        let store = try PostgresCredentialStore(
            configuration: .init(connection: try TestDatabase.connection(port: closed), outageTolerance: 0.5))
        let started = Date()
        await XCTAssertThrowsErrorAsync(try await store.read("k")) { error in
            guard case .unavailable(let key, let operation, _)? = error as? PostgresCredentialStoreError else {
                return XCTFail("\(error)")
            }
            XCTAssertEqual([key, operation], ["k", "read"])
            XCTAssertEqual((error as? PostgresCredentialStoreError)?.recovery, .retryLater)
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 1.5)
        await XCTAssertThrowsErrorAsync(try await store.write(Data("v".utf8), for: "k")) {
            XCTAssertEqual(($0 as? PostgresCredentialStoreError)?.recovery, .retryLater, "\($0)")
        }
        XCTAssertGreaterThan(Date().timeIntervalSince(started), 0.5, "the write kept trying for its tolerance")
        await XCTAssertThrowsErrorAsync(try await store.lock("k")) {
            XCTAssertEqual(($0 as? PostgresCredentialStoreError)?.recovery, .retryLater, "\($0)")
        }
    }

    /// The documentation's example: a store on a server reached over TLS, holding a backend service's token.
    func testTheDocumentedStoreKeepsABackendServicesToken() throws {
        let password = "secret"
        let fhirBaseURL = URL(fileURLWithPath: "/")
        let signer = try ClientAssertionSigner(key: JSONWebKey(json: Data(Self.serviceKey.utf8)), algorithm: .es384)
        // snippet doc-postgres-credential-store
        let store = try PostgresCredentialStore(
            configuration: .init(
                connection: .init(
                    host: "db.internal", username: "backend", password: password, database: "backend",
                    tls: .require(try NIOSSLContext(configuration: .makeClientConfiguration())))))
        let service = SMARTBackendClient(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: fhirBaseURL, client: OAuthClientCredentials(clientID: "my-service", signer: signer)),
                scope: "system/Observation.rs",
                session: OAuthSessionSettings(store: store)))
        // end snippet
        XCTAssertTrue(service.configuration.session.store is PostgresCredentialStore)
        XCTAssertEqual(store.configuration.table, "healthsignin_credentials")
    }

    /// A P-384 key for the example's signer.
    static let serviceKey = """
        {"kty": "EC", "crv": "P-384",
         "x": "wcE8O55ro6aOuTf5Ty1k_IG4mTcuLiVercHouge1G5Ri-leevhev4uJzlHpi3U8r",
         "y": "mLRgz8Giu6XA_AqG8bywqbygShmd8jowflrdx0KQtM5X4s4aqDeCRfcpexykp3aI",
         "d": "WcrTiYk8jbI-Sd1sKNpqGmELWGG08bf_y9SSlnC4cpAl5GRdHHN9gKYlPvMFqiJ5",
         "kid": "afb27c284f2d93959c18fa0320e32060", "alg": "ES384"}
        """

    /// A port on 127.0.0.1 nothing listens on.
    private func closedPort() throws -> Int {
        let socket = try ServerSocket()
        defer { socket.close() }
        return socket.port
    }
}

/// Errors collected from several threads.
final class LockedErrors: @unchecked Sendable {
    // @unchecked: `errors` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var errors: [any Error] = []

    func append(_ error: any Error) { lock.withLock { errors.append(error) } }
    var all: [any Error] { lock.withLock { errors } }
}

/// A bound socket that does not listen, so connecting to its port is refused.
struct ServerSocket {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw TestDatabase.Missing(variable: "a free port") }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() { _ = Glibc.close(descriptor) }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Asserts that `expression` throws, and passes the error to `check`.
func XCTAssertThrowsErrorAsync<T>(
    _ expression: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line,
    _ check: (any Error) -> Void = { _ in }
) async {
    do {
        _ = try await expression()
        XCTFail("no error was thrown", file: file, line: line)
    } catch {
        check(error)
    }
}
