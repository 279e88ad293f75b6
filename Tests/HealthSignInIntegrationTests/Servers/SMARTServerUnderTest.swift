import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

/// The SMART server a journey runs against, the emulator or the in-process one, behind the controls the journeys
/// use: the emulator's settings by name, its statistics, launches, clients and faults.
final class SMARTServerUnderTest: Sendable {
    let kind: ServerKind
    private let emulator: Emulator?
    private let box: LockedValue<SMARTTestServer?>
    private var kit: SMARTTestServer? { box.current }

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
            box = LockedValue(Self.makeServer())
        }
    }

    /// A new in-process server with the emulator's members an app must keep, so the same assertions hold.
    private static func makeServer() -> SMARTTestServer {
        let kit = SMARTTestServer()
        kit.settings.additionalTokenMembers = ["__emulatorExtension": "kept"]
        kit.settings.additionalConfigurationMembers = ["x-emulator-extension": ["kept": true]]
        return kit
    }

    /// A URL below the server's root: `/smart` on the emulator, the FHIR base's parent in process.
    func url(_ path: String) -> URL {
        if let emulator { return emulator.url("/smart" + path) }
        return URL(string: (kit?.fhirBaseURL.deletingLastPathComponent().absoluteString ?? "") + path.dropFirst())!
    }

    var fhirBase: URL { kit?.fhirBaseURL ?? url("/fhir") }
    var tokenURL: URL { url("/auth/token") }
    /// The mix-up attacker's FHIR base.
    var evil: URL { kit?.attackerFHIRBaseURL ?? emulator?.url("/evil/fhir") ?? fhirBase }
    var urlPolicy: URLPolicy { URLPolicy(allowsInsecureLoopback: kind == .emulator) }

    func transport(timeout: TimeInterval = 5) -> any HTTPTransport {
        kit.map { $0.transport(timeout: timeout) } ?? DefaultHTTPTransport(timeout: timeout)
    }

    /// A browser whose user signs in and consents.
    var browser: any AuthorizationBrowser {
        kit.map { $0.browser(.approve) } ?? RedirectFollowingBrowser(transport: DefaultHTTPTransport(timeout: 5))
    }

    /// Opens `url` as a browser would and returns where the server redirects it (the user consenting on the way).
    func visit(_ url: URL) async throws -> URL? {
        if let kit { return try await TestUserBrowser.visit(url, through: kit.transport) }
        return try await emulator?.visit(url)
    }

    /// The same server on a second origin, for an attacker on an origin of its own.
    func secondOrigin() async throws -> URL {
        if let emulator { return try await emulator.secondOrigin() }
        let origin = try XCTUnwrap(URL(string: "https://ehr-mirror.test"))
        kit?.serve(origin: origin)
        return origin
    }

    /// Another name of this server's host, for an issuer on a host of its own: the name, as a URL's authority.
    func otherHostName() throws -> String {
        if let emulator { return "localhost:\(try XCTUnwrap(emulator.baseURL.port))" }
        kit?.serve(origin: try XCTUnwrap(URL(string: "https://auth.ehr.test")))
        return "auth.ehr.test"
    }

    /// `http://` for the emulator, `https://` in process.
    var scheme: String { kind == .emulator ? "http" : "https" }

    /// The root's path: `/smart` on the emulator, empty in process.
    var rootPath: String { kind == .emulator ? "/smart" : "" }

    /// Changes settings by the emulator's names.
    func configure(_ settings: [String: any Sendable]) async throws {
        if let emulator { return try await emulator.control("smart", settings).void }
        guard let kit else { return }
        var changed = kit.settings
        for (name, value) in settings {
            switch (name, value) {
            case ("strict_openid", let value as Bool): changed.strictOpenID = value
            case ("id_token_alg", let value as String):
                changed.idTokenAlgorithm = try XCTUnwrap(JWSAlgorithm(rawValue: value))
            case ("id_token_issuer", let value as String): changed.idTokenIssuer = value
            case ("id_token_nonce", let value as String): changed.idTokenNonce = value
            case ("id_token_tamper", let value as Bool): changed.tampersIDTokenSignature = value
            case ("fhir_user", let value as String): changed.fhirUser = value
            case ("standalone_patient", let value as String): changed.standalonePatient = value
            case ("token_member_depth", let value as Int): changed.tokenMemberDepth = value
            case ("token_lifetime", let value as Int): changed.tokenLifetime = value
            case ("issuer", let value as String): changed.issuer = value
            case ("authorize_endpoint_query", let value as String): changed.authorizationEndpointQuery = value
            case ("lenient_redirect_uri", let value as Bool): changed.acceptsRedirectURIWithAddedQuery = value
            case ("evil_redirect_uri", let value as String): changed.attacker.redirectURI = value
            case ("evil_issuer", let value as String): changed.attacker.issuer = value
            case ("evil_iss_supported", let value as Bool): changed.attacker.announcesIssuerParameter = value
            case ("fhir_next_link", let value as String):
                (changed.nextSearchLinkOnAttacker, changed.nextSearchLinkRepeats) = (value == "evil", value == "repeat")
            case ("fhir_unreadable_entry", let value as Bool): changed.addsUnreadableSearchEntry = value
            case ("fhir_refusal_outcome", let value as Bool): changed.explainsRefusedTokens = value
            default: throw EmulatorError.control("smart", "the in-process server has no setting \(name)")
            }
        }
        kit.settings = changed
    }

    func expireTokens() async throws {
        if let emulator { return try await emulator.control("smart/expire-tokens").void }
        kit?.expireAccessTokens()
    }

    /// Mints an EHR launch for `clientID` with the emulator's context members; answers the launch and `iss`.
    func mintLaunch(_ body: [String: any Sendable]) async throws -> (launch: String, iss: String) {
        if let emulator {
            let minted = try await emulator.control("smart/launch", body)
            return (try XCTUnwrap(minted["launch"] as? String), try XCTUnwrap(minted["iss"] as? String))
        }
        let kit = try XCTUnwrap(kit)
        var fhirContext: [JSONValue] = []
        for item in body["fhirContext"] as? [any Sendable] ?? [] {
            if let reference = item as? String { fhirContext.append(.string(reference)) }
            if let object = item as? [String: String] {
                fhirContext.append(
                    .object(JSONObject(object.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })))
            }
        }
        let launch = SMARTTestServer.EHRLaunch(
            clientID: body["client_id"] as? String ?? SMARTTestServer.publicClientID,
            patient: body["patient"] as? String,
            encounter: body["encounter"] as? String, fhirContext: fhirContext, intent: body["intent"] as? String,
            needPatientBanner: body["need_patient_banner"] as? Bool, smartStyleURL: body["smart_style_url"] as? String,
            tenant: body["tenant"] as? String)
        return (kit.mintLaunch(launch), kit.fhirBaseURL.absoluteString)
    }

    /// Registers a backend service whose key set is `jwks`.
    func registerBackend(clientID: String, jwks: [String: any Sendable], scopes: [String]) async throws {
        if let emulator {
            return try await emulator.control(
                "smart/clients",
                [
                    "client_id": clientID, "auth_method": "private_key_jwt", "grant_types": ["client_credentials"],
                    "scopes": scopes, "jwks": jwks,
                ]
            ).void
        }
        let keys = try JSONWebKeySet(json: try JSONSerialization.data(withJSONObject: jwks))
        kit?.register(SMARTTestServer.Client(backendService: clientID, keys: keys, scopes: scopes))
    }

    /// The statistics the journeys read, by the emulator's names.
    struct Stats {
        /// Successful token requests per grant type.
        var token: [String: Int]
        var authorize: Int
        var fhir: Int
        var assertionsRejected: Int
        var attackerAuthorizations: Int
        var attackerTokenRequests: Int
        /// For each search that reached the attacker's FHIR base, whether it carried the access token.
        var attackerSearches: [Bool]
    }

    func stats() async throws -> Stats {
        if let emulator {
            let stats = try await emulator.read("smart/stats")
            return Stats(
                token: stats["token"] as? [String: Int] ?? [:], authorize: stats["authorize"] as? Int ?? -1,
                fhir: stats["fhir"] as? Int ?? -1, assertionsRejected: stats["assertions_rejected"] as? Int ?? -1,
                attackerAuthorizations: stats["evil_authorize"] as? Int ?? -1,
                attackerTokenRequests: (stats["evil_token"] as? [Any])?.count ?? -1,
                attackerSearches: (stats["evil_fhir"] as? [[String: Bool]])?.map { $0["authorization"] ?? false } ?? [])
        }
        let kit = try XCTUnwrap(kit)
        let ledger = kit.ledger
        var token: [String: Int] = [:]
        for operation in [SMARTTestServer.Operation.redeemCode, .refreshToken, .clientCredentials] {
            // The emulator counts the tokens it issued: requests it refused are not counted.
            let grant = String(operation.name.dropFirst("token:".count))
            token[grant] = ledger.count(operation) - ledger.count(refused: operation)
        }
        return Stats(
            token: token, authorize: ledger.count(.authorize), fhir: ledger.count(.readResource),
            assertionsRejected: kit.rejectedAssertions, attackerAuthorizations: kit.attackerAuthorizations,
            attackerTokenRequests: kit.attackerTokenRequests.count, attackerSearches: kit.attackerSearches)
    }
}

extension SMARTServerUnderTest: FaultServer {
    /// The emulator's reset, or a new in-process server.
    func reset() async throws {
        if let emulator { return try await emulator.control("reset").void }
        box.withValue { $0 = Self.makeServer() }
    }

    func inject(_ fault: TestServerFault, at endpoint: URL, count: Int = 1) async throws {
        if let emulator { return try await emulator.inject(fault, at: endpoint, count: count) }
        kit?.faults.inject(fault, at: endpoint, count: count)
    }
}
