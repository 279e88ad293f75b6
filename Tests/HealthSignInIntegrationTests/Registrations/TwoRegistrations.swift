import Foundation
import HealthSignInCore
import HealthSignInCredentials
import HealthSignInTestSupport
import XCTest

/// What the tests of two registrations sharing one store vary: the store, and whether the clients leave the key to
/// the SDK or were given one key by mistake.
struct TwoRegistrationsCase: CustomStringConvertible, Sendable {
    /// The kinds of store the cases run on.
    enum StoreKind: String, CaseIterable, Sendable {
        /// ``InMemoryCredentialStore``.
        case memory
        /// ``FileCredentialStore`` in a fresh directory.
        case file
    }

    /// The store's kind.
    let store: StoreKind
    /// The key both clients were given, or nil for the derived ones.
    let sharedKey: String?

    /// Every store with the derived keys, and with one key given to both clients.
    static func all(sharedKey: String) -> [TwoRegistrationsCase] {
        StoreKind.allCases.flatMap { kind in [nil, sharedKey].map { TwoRegistrationsCase(store: kind, sharedKey: $0) } }
    }

    /// A new, empty store of the case's kind.
    func makeStore() throws -> any CredentialStore {
        switch store {
        case .memory: return InMemoryCredentialStore()
        case .file:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("two-\(UUID().uuidString)")
            return try FileCredentialStore(directory: directory)
        }
    }

    /// `file store, one key for both`.
    var description: String {
        "\(store) store, " + (sharedKey.map { "both given the key \($0)" } ?? "derived keys")
    }
}

/// Checks on what two servers received from clients that shared one store.
enum TwoRegistrations {
    /// The bearer tokens the requests in `ledger` carried.
    static func bearerTokens<Operation>(in ledger: TestServerLedger<Operation>) -> Set<String> {
        Set(
            ledger.entries.compactMap { entry in
                entry.request.headers["Authorization"].flatMap { $0.hasPrefix("Bearer ") ? $0 : nil }
            })
    }

    /// The requests in `ledger` that carried a credential (an `Authorization` header, or a form: a token request)
    /// and were refused. A discovery request that finds nothing (a 404 for a SMART configuration the server does not
    /// publish) carries none.
    static func refusedCredentials<Operation>(in ledger: TestServerLedger<Operation>) -> [String] {
        ledger.entries.filter { entry in
            entry.wasRefused && (entry.request.headers["Authorization"] != nil || entry.request.body?.isEmpty == false)
        }.map(\.description)
    }

    /// Fails when either server refused a request that carried a credential, or a bearer token reached both: each
    /// server must have seen only tokens it issued. `bearer` says whether the family's calls carry bearer tokens.
    static func assertEachServerSawOnlyItsOwn<A, B>(
        _ first: TestServerLedger<A>, _ second: TestServerLedger<B>, bearer: Bool = true, _ context: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        for (name, refused) in [("first", refusedCredentials(in: first)), ("second", refusedCredentials(in: second))] {
            XCTAssertEqual(refused, [], "\(context): the \(name) server refused requests", file: file, line: line)
        }
        guard bearer else { return }
        let (tokensA, tokensB) = (bearerTokens(in: first), bearerTokens(in: second))
        XCTAssertFalse(tokensA.isEmpty || tokensB.isEmpty, "\(context): no token was sent", file: file, line: line)
        XCTAssertTrue(
            tokensA.isDisjoint(with: tokensB), "\(context): a token reached both servers", file: file, line: line)
    }
}
