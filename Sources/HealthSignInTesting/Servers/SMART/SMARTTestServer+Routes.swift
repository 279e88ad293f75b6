import Foundation
import HealthSignInCore

extension SMARTTestServer: InProcessServer {
    func handle(_ request: ReceivedRequest) -> Handled {
        let root = Self.path(root)
        let fhir = Self.path(fhirBaseURL)
        let path = request.path
        switch (request.method, path) {
        case (.get, fhir + "/.well-known/smart-configuration"):
            return Handled("smart-configuration", configuration(request))
        case (.get, fhir + "/.well-known/openid-configuration"):
            return Handled("openid-configuration", openIDConfiguration(request))
        case (.get, fhir + "/metadata"): return Handled("metadata", capabilityStatement(request))
        case (.get, root + "/jwks"): return Handled("jwks", .json(200, keySet))
        case (.get, root + "/auth/authorize"), (.post, root + "/auth/authorize"):
            return Handled("authorize", authorize(request))
        case (.post, root + "/auth/authorize/decision"): return Handled("authorize:decision", decide(request))
        case (.post, root + "/auth/token"): return token(request)
        case (.post, root + "/auth/revoke"): return Handled("revoke", revoke(request))
        case (.post, root + "/auth/introspect"): return Handled("introspect", introspect(request))
        case (.get, "/evil/fhir/.well-known/smart-configuration"):
            return Handled("evil_configuration", attackerConfiguration(request))
        case (.get, "/evil/jwks"): return Handled("evil_jwks", .json(200, ["keys": []]))
        case (.get, "/evil/auth/authorize"): return Handled("evil_authorize", attackerAuthorize(request))
        case (.post, "/evil/auth/token"): return Handled("evil_token", attackerToken(request))
        case (.get, _) where path.hasPrefix(fhir + "/"):
            return Handled("fhir", read(request, path: String(path.dropFirst(fhir.count + 1))))
        default:
            return Handled(nil, .notFound)
        }
    }

    /// `url`'s path without a trailing slash (empty for the origin's root).
    static func path(_ url: URL) -> String {
        var path = url.path
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// The server's addresses as the request reached them: its origin, and the paths of the FHIR base and the root.
    struct Reached {
        let origin: String
        let fhirBase: String
        let root: String
    }

    func reached(_ request: ReceivedRequest) -> Reached {
        let origin = TestServerCore.origin(request.message.url) ?? ""
        return Reached(origin: origin, fhirBase: origin + Self.path(fhirBaseURL), root: origin + Self.path(root))
    }

    /// The issuer identifier: the FHIR base, or the one the settings give.
    func issuer(_ request: ReceivedRequest, _ settings: Settings) -> String {
        settings.issuer ?? reached(request).fhirBase
    }
}
