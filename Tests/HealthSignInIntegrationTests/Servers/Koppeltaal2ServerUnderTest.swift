import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal2
import HealthSignInTestSupport
import XCTest

/// The Koppeltaal 2.0 domain a journey runs against, the emulator or the in-process one, behind what the journeys
/// need: registering applications, putting resources, expiring tokens, following the browser, and the counts of
/// what the server did.
final class Koppeltaal2ServerUnderTest: Sendable {
    let kind: ServerKind
    private let emulator: Emulator?
    private let kit: Koppeltaal2TestServer?

    /// The shared emulator, reset unless `reset` is false, or a new in-process server.
    init(_ kind: ServerKind, reset: Bool = true) async throws {
        self.kind = kind
        switch kind {
        case .emulator:
            let emulator = try Emulator.shared.get()
            if reset { try await emulator.control("reset") }
            self.emulator = emulator
            kit = nil
        case .inProcess:
            emulator = nil
            kit = Koppeltaal2TestServer()
        }
    }

    var fhirBase: URL { kit?.fhirBaseURL ?? emulator?.url("/koppeltaal2/fhir") ?? URL(fileURLWithPath: "/") }
    /// The auth service's host when it is not the FHIR server's: the in-process domain has it on a host of its own.
    var authHosts: [String] { kit?.authURL.host.map { [$0] } ?? [] }
    var urlPolicy: URLPolicy { URLPolicy(allowsInsecureLoopback: kind == .emulator) }
    var transport: any HTTPTransport { kit.map { $0.transport } ?? DefaultHTTPTransport(timeout: 5) }

    /// Registers an application with its public keys (hosted by the emulator, which fetches them).
    func register(_ clientID: String, key: JSONWebKey, redirectURIs: [String] = []) async throws {
        if let kit {
            kit.registerApplication(
                clientID: clientID, keys: JSONWebKeySet(keys: [key.publicKey]), redirectURIs: redirectURIs)
            return
        }
        guard let emulator else { return }
        let jwks = try JSONDecoder().decode(
            [String: [[String: String]]].self, from: try Koppeltaal2KeySet(keys: [key]).document())
        let hosted = try await emulator.control("koppeltaal2/jwks", ["name": clientID, "jwks": jwks])
        try await emulator.control(
            "koppeltaal2/apps",
            [
                "client_id": clientID, "jwks_url": try XCTUnwrap(hosted["jwks_url"] as? String), "role": "admin",
                "redirect_uris": redirectURIs,
            ])
    }

    /// A patient the identity provider signs in by its first identifier.
    func putPatient(_ id: String, identifier: String) async throws {
        if let kit {
            kit.put(["resourceType": "Patient", "id": .string(id), "identifier": [["value": .string(identifier)]]])
            return
        }
        try await emulator?.control(
            "koppeltaal2/resources",
            [
                "resource": ["resourceType": "Patient", "id": id, "identifier": [["value": identifier]]]
                    as [String: any Sendable]
            ])
    }

    func expireAccessTokens() async throws {
        if let kit { return kit.expireAccessTokens() }
        try await emulator?.control("koppeltaal2/expire-tokens")
    }

    /// Makes a stale update answer 412 instead of 409.
    func answerConflictsWith412() async throws {
        if let kit {
            kit.settings.conflictStatus = 412
            return
        }
        try await emulator?.control("koppeltaal2", ["conflict_status": 412])
    }

    /// Follows the browser from the authorization page to the module's redirect URI.
    func browse(_ url: URL, callback: String) async throws -> URL {
        let target = try XCTUnwrap(AuthorizationCallback(redirectURI: callback))
        if let kit { return try await kit.browser.authorize(url, callback: target) }
        return try await RedirectFollowingBrowser(transport: DefaultHTTPTransport(timeout: 5)).authorize(
            url, callback: target)
    }

    /// How many token requests of `grant` the server answered.
    func tokenRequests(_ grant: String) async throws -> Int {
        if let kit {
            return kit.ledger.count(grant == "client_credentials" ? .clientCredentials : .authorizationCode)
        }
        let stats = try await emulator?.read("koppeltaal2/stats")
        return (stats?["token"] as? [String: Int])?[grant] ?? 0
    }

    /// The trace headers of the FHIR requests, in order: request, correlation and trace ids.
    func traces() async throws -> [(requestID: String?, correlationID: String?, traceID: String?)] {
        if let kit { return kit.traces.map { ($0.requestID, $0.correlationID, $0.traceID) } }
        let stats = try await emulator?.read("koppeltaal2/stats")
        return (stats?["trace"] as? [[String: Any]] ?? []).map {
            ($0["x_request_id"] as? String, $0["x_correlation_id"] as? String, $0["x_trace_id"] as? String)
        }
    }

    /// How many FHIR requests the server refused with 401: a token it does not know, such as `NOOP`, or none.
    func fhirRequestsRefusedAs401() async throws -> Int {
        if let kit {
            let fhir: [Koppeltaal2TestServer.Operation] = [.read, .search, .create, .update]
            return kit.ledger.entries.filter { entry in
                entry.operation.map(fhir.contains) == true && entry.status == 401
            }.count
        }
        let stats = try await emulator?.read("koppeltaal2/stats")
        return (stats?["fhir_refused"] as? [String: Int] ?? [:]).filter { $0.key.hasPrefix("401") }.values.reduce(0, +)
    }
}
