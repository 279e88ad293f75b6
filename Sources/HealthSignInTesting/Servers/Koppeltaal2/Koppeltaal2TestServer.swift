import Foundation
import HealthSignInCore

/// A Koppeltaal 2.0 domain in the test process, speaking the emulator's wire (`Tests/Emulator/koppeltaal2.py`): the
/// auth service (backend-services tokens for client assertions, SHOF's authorization with an identity provider that
/// signs the launched user in at once, introspection) and a FHIR R4 server that versions every resource, sets
/// `resource-origin` and requires `If-Match`.
///
/// Register each application with its public keys, put the resources a test starts from, and point the SDK's
/// clients at ``fhirBaseURL`` with its ``TestServer/transport``:
///
/// ```swift
/// let server = Koppeltaal2TestServer()
/// let device = server.registerApplication(
///     clientID: "module-1", keys: JSONWebKeySet(keys: [moduleKey.publicKey]),
///     redirectURIs: ["https://module.example/callback"])
/// server.put(["resourceType": "Patient", "id": "p1", "identifier": [["value": "p1@example.org"]]])
/// server.expireAccessTokens()   // the next FHIR call gets a 401 and a new token
/// ```
///
/// As the emulator, it checks a client assertion's `aud` (the token endpoint), `exp` (at most five minutes) and
/// `jti` (once, spent before the signature is checked, as the reference service does), a launch token's `kid`,
/// signature, `aud`, times and `jti` (once, shared by introspection and authorization), and requires PKCE S256.
public final class Koppeltaal2TestServer: TestServer {
    /// How the server behaves.
    public struct Settings: Sendable, Hashable {
        /// The `expires_in` of backend tokens, in seconds.
        public var accessTokenLifetime = 300
        /// Whether `.well-known/smart-configuration` answers; when false it is a 404 and clients read the
        /// CapabilityStatement.
        public var servesSMARTConfiguration = true
        /// The status of an update with a stale `If-Match`: 409 or 412, both of which Koppeltaal allows.
        public var conflictStatus = 409
        /// The entries of a search page when the request names no `_count`.
        public var pageSize = 50
        /// The longest `exp` − `iat` of a launch token, in seconds.
        public var maximumLaunchLifetime: TimeInterval = 300
        /// The identifier the identity provider signs the user in with; nil for the first identifier of the
        /// launch's `sub`, so that the sign-in matches.
        public var identityProviderUser: String?
        /// The defaults, which the emulator has too.
        public init() {}
    }

    /// The trace headers of one FHIR request.
    public struct Trace: Sendable, Hashable {
        /// The request's method and path.
        public let request: String
        /// `X-Request-Id`, if sent.
        public let requestID: String?
        /// `X-Correlation-Id`, if sent.
        public let correlationID: String?
        /// `X-Trace-Id`, if sent.
        public let traceID: String?
    }

    /// The FHIR base URL, the `iss` of launches.
    public let fhirBaseURL: URL
    /// The auth service's root.
    public let authURL: URL
    let core: TestServerCore<Operation>
    let state = LockedValue(Koppeltaal2ServerState())
    /// The key the auth service signs id tokens with.
    let signingKey = TestSigningKeys.ehrRSA

    /// Creates a server.
    ///
    /// - Parameters:
    ///   - fhirBaseURL: where the FHIR server answers.
    ///   - authURL: where the auth service answers.
    ///   - clock: the time tokens expire by; a ``ManualClock`` lets a test move it.
    ///   - random: where ids, tokens and codes come from.
    public init(
        fhirBaseURL: URL = URL(string: "https://fhir.koppeltaal.test/fhir/DEFAULT")!,
        authURL: URL = URL(string: "https://auth.koppeltaal.test")!, clock: any TimeSource = SystemClock(),
        random: any RandomSource = SystemRandomSource()
    ) {
        self.fhirBaseURL = fhirBaseURL
        self.authURL = authURL
        core = TestServerCore(origins: [fhirBaseURL, authURL], clock: clock, random: random)
    }

    /// How the server behaves; change it at any time.
    public var settings: Settings {
        get { state.current.settings }
        set { state.withValue { $0.settings = newValue } }
    }

    /// The token endpoint, the `aud` of client assertions.
    public var tokenURL: URL { authURL.appendingPathComponent("oauth2/token") }
    /// The authorization endpoint.
    public var authorizeURL: URL { authURL.appendingPathComponent("oauth2/authorize") }
    /// The introspection endpoint.
    public var introspectionURL: URL { authURL.appendingPathComponent("oauth2/introspect") }
    /// The auth service's keys.
    public var keysURL: URL { authURL.appendingPathComponent(".well-known/jwks.json") }
    /// The auth service's issuer, the `iss` of its id tokens.
    public var issuer: String { authURL.absoluteString }

    /// Registers an application as a domain administrator does, and creates its Device, whose id is the client id.
    ///
    /// - Parameters:
    ///   - clientID: the application's client id.
    ///   - keys: its public keys, which client assertions and launch tokens are verified with.
    ///   - redirectURIs: where SHOF may send the browser back to.
    /// - Returns: the Device reference, `Device/<client id>`, which launch tokens for it name as `aud`.
    @discardableResult
    public func registerApplication(clientID: String, keys: JSONWebKeySet, redirectURIs: [String] = []) -> String {
        let device = "Device/" + clientID
        state.withValue {
            $0.applications[clientID] = .init(
                clientID: clientID, keys: keys, redirectURIs: redirectURIs, device: device)
        }
        put([
            "resourceType": "Device", "id": .string(clientID),
            "identifier": [
                ["system": "http://vzvz.nl/fhir/NamingSystem/koppeltaal-client-id", "value": .string(clientID)]
            ],
            "status": "active", "deviceName": [["name": .string(clientID), "type": "user-friendly-name"]],
        ])
        return device
    }

    /// Stores `resource` as a new version (its `id` kept, or one assigned), as test setup does.
    ///
    /// - Returns: the stored version, with `id` and `meta.versionId`.
    @discardableResult
    public func put(_ resource: JSONObject) -> JSONObject {
        state.withValue { store(resource, in: &$0) }
    }

    /// The current version of `reference` (`Type/id`), if there is one.
    public func resource(_ reference: String) -> JSONObject? { state.current.resources[reference]?.last }

    /// Ends the life of every backend token issued so far: the next FHIR call gets a 401.
    public func expireAccessTokens() {
        state.withValue { state in
            for key in state.accessTokens.keys { state.accessTokens[key]?.expiresAt = .distantPast }
        }
    }

    /// The trace headers of every FHIR request, in order.
    public var traces: [Trace] { state.current.traces }

    /// A browser that follows the sign-in at the identity provider back to the module.
    public var browser: TestUserBrowser { TestUserBrowser(transport: transport, decision: .approve) }

    /// Stores `resource` as its next version.
    func store(_ resource: JSONObject, in state: inout Koppeltaal2ServerState) -> JSONObject {
        var resource = resource
        let type = resource["resourceType"]?.stringValue ?? "Resource"
        let id = resource["id"]?.stringValue ?? core.uuid()
        let reference = type + "/" + id
        let version = (state.resources[reference]?.count ?? 0) + 1
        var meta = resource["meta"]?.objectValue ?? JSONObject()
        meta["versionId"] = .string(String(version))
        meta["lastUpdated"] = .string(DateTimeText.format(core.now))
        resource["id"] = .string(id)
        resource["meta"] = .object(meta)
        state.resources[reference, default: []].append(resource)
        return resource
    }
}

extension Koppeltaal2TestServer: InProcessServer {
    func operation(of request: ReceivedRequest) -> Operation? {
        if let path = Self.path(request.message.url, under: authURL) {
            switch (request.method, path) {
            case (.post, "/oauth2/token"):
                switch request.form["grant_type"] {
                case "client_credentials": return .clientCredentials
                case "authorization_code": return .authorizationCode
                default: return .unsupportedGrant
                }
            case (.get, "/oauth2/authorize"): return .authorize
            case (.get, "/idp/login"): return .identityProviderLogin
            case (.post, "/oauth2/introspect"): return .introspect
            case (.get, "/.well-known/jwks.json"): return .keys
            default: return nil
            }
        }
        guard let path = Self.path(request.message.url, under: fhirBaseURL) else { return nil }
        let segments = path.split(separator: "/").map(String.init)
        switch (request.method, segments.count) {
        case (.get, 0): return request.query["_getpages"] == nil ? nil : .search
        case (.get, 1) where segments[0] == "metadata": return .capabilityStatement
        case (.get, 2) where segments == [".well-known", "smart-configuration"]: return .smartConfiguration
        case (.get, 1): return .search
        case (.get, 2): return .read
        case (.post, 1): return .create
        case (.put, 2): return .update
        default: return nil
        }
    }

    func handle(_ request: ReceivedRequest, as operation: Operation) -> Handled {
        switch operation {
        case .clientCredentials: return Handled(clientCredentials(request))
        case .authorizationCode: return Handled(authorizationCode(request))
        case .unsupportedGrant: return Handled(.text(400, "Bad Request", type: "text/plain"))
        case .authorize: return Handled(authorize(request))
        case .identityProviderLogin: return Handled(identityProviderLogin(request))
        case .introspect: return Handled(introspect(request))
        case .keys: return Handled(.json(200, .object(["keys": .array([.object(signingKey.publicKey.publicMembers)])])))
        case .smartConfiguration: return Handled(smartConfiguration())
        case .capabilityStatement: return Handled(capabilityStatement())
        default: return Handled(fhir(request, as: operation))
        }
    }

    /// The path of `url` below `base`'s path, or nil when it is not on `base`.
    static func path(_ url: URL, under base: URL) -> String? {
        guard TestServerNames.origin(url) == TestServerNames.origin(base) else { return nil }
        let prefix = base.path.hasSuffix("/") ? String(base.path.dropLast()) : base.path
        guard url.path == prefix || url.path.hasPrefix(prefix + "/") else { return nil }
        return String(url.path.dropFirst(prefix.count))
    }
}
