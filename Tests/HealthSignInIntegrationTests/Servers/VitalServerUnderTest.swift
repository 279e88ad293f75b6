import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import HealthSignInVital
import XCTest

/// The Junction server a journey runs against, the emulator or the in-process one, behind the controls the journeys
/// use.
final class VitalServerUnderTest: Sendable {
    let kind: ServerKind
    private let emulator: Emulator?
    private let box: LockedValue<VitalTestServer?>
    private var kit: VitalTestServer? { box.current }

    /// The shared emulator, reset, or a new in-process server.
    init(_ kind: ServerKind) async throws {
        self.kind = kind
        switch kind {
        case .emulator:
            let emulator = try Emulator.shared.get()
            try await emulator.control("reset")
            self.emulator = emulator
            box = LockedValue(nil)
        case .inProcess:
            emulator = nil
            box = LockedValue(VitalTestServer())
        }
    }

    var hosts: VitalHostMap {
        if let kit { return .all(VitalHosts(api: kit.apiURL, auth: kit.authURL)) }
        return .all(VitalHosts(api: url("/vital/api"), auth: url("/vital/auth")))
    }

    private func url(_ path: String) -> URL { emulator?.url(path) ?? URL(string: "https://unused.test")! }

    var tokenURL: URL { kit?.tokenURL ?? url("/vital/auth/v1/token") }
    /// A sandbox team key for the US region.
    var teamKey: APIKey { APIKey(kit == nil ? "sk_us_emulator" : VitalTestServer.sandboxUSKey) }
    var urlPolicy: URLPolicy { URLPolicy(allowsInsecureLoopback: kind == .emulator) }

    func transport(timeout: TimeInterval = 5) -> any HTTPTransport {
        kit.map { $0.transport(timeout: timeout) } ?? DefaultHTTPTransport(timeout: timeout)
    }

    /// Changes settings by the emulator's names.
    func configure(_ settings: [String: any Sendable]) async throws {
        if let emulator { return try await emulator.control("vital", settings).void }
        guard let kit else { return }
        var changed = kit.settings
        for (name, value) in settings {
            switch (name, value) {
            case ("access_ttl", let value as Int): changed.accessTokenLifetime = value
            case ("sign_in_token_ttl", let value as Int): changed.signInTokenLifetime = value
            case ("expires_in_as_string", let value as Bool): changed.expiresInAsString = value
            default: throw EmulatorError.control("vital", "the in-process server has no setting \(name)")
            }
        }
        kit.settings = changed
    }

    func expireTokens() async throws {
        if let emulator { return try await emulator.control("vital/expire-tokens").void }
        kit?.expireAccessTokens()
    }

    func revokeSessions() async throws {
        if let emulator { return try await emulator.control("vital/revoke-sessions").void }
        kit?.revokeSessions()
    }

    /// A sign-in token for `user` valid for `ttl` seconds.
    func mint(user: UUID, ttl: Int) async throws -> String {
        if let emulator {
            let minted = try await emulator.control(
                "vital/mint", ["user_id": user.uuidString.lowercased(), "ttl": ttl])
            return try XCTUnwrap(minted["sign_in_token"] as? String)
        }
        return try XCTUnwrap(kit?.signInToken(userID: user.uuidString, lifetime: TimeInterval(ttl)))
    }

    /// Calls per endpoint and grant type, by the emulator's names (`token:refresh_token`, `CreateUser`).
    func calls(_ operation: VitalTestServer.Operation) async throws -> Int {
        if let emulator {
            return ((try await emulator.read("vital/stats"))["calls"] as? [String: Int])?[operation.name] ?? 0
        }
        return kit?.ledger.count(operation) ?? 0
    }
}

extension VitalServerUnderTest: FaultServer {
    /// The emulator's reset, or a new in-process server.
    func reset() async throws {
        if let emulator { return try await emulator.control("reset").void }
        box.withValue { $0 = VitalTestServer() }
    }

    func inject(_ fault: TestServerFault, at endpoint: URL, count: Int) async throws {
        if let emulator { return try await emulator.inject(fault, at: endpoint, count: count) }
        kit?.faults.inject(fault, at: endpoint, count: count)
    }
}
