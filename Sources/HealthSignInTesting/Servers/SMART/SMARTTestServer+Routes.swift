import Foundation
import HealthSignInCore

extension SMARTTestServer: InProcessServer {
    func operation(of request: ReceivedRequest) -> Operation? {
        let root = Self.path(root)
        let fhir = Self.path(fhirBaseURL)
        let path = request.path
        switch (request.method, path) {
        case (.get, fhir + "/.well-known/smart-configuration"): return .smartConfiguration
        case (.get, fhir + "/.well-known/openid-configuration"): return .openIDConfiguration
        case (.get, fhir + "/metadata"): return .capabilityStatement
        case (.get, root + "/jwks"): return .keySet
        case (.get, root + "/auth/authorize"), (.post, root + "/auth/authorize"): return .authorize
        case (.post, root + "/auth/authorize/decision"): return .authorizationDecision
        case (.post, root + "/auth/token"): return .token(grantType: request.form["grant_type"])
        case (.post, root + "/auth/revoke"): return .revoke
        case (.post, root + "/auth/introspect"): return .introspect
        case (.get, "/evil/fhir/.well-known/smart-configuration"): return .attackerConfiguration
        case (.get, "/evil/jwks"): return .attackerKeySet
        case (.get, "/evil/auth/authorize"): return .attackerAuthorize
        case (.post, "/evil/auth/token"): return .attackerToken
        case (.get, "/evil/fhir/Observation"): return .attackerSearch
        case (.get, _) where path.hasPrefix(fhir + "/"): return .readResource
        case (let method, _) where [.post, .put, .delete].contains(method) && path.hasPrefix(fhir + "/"):
            return .writeResource
        default: return nil
        }
    }

    func handle(_ request: ReceivedRequest, as operation: Operation) -> Handled {
        switch operation {
        case .smartConfiguration: return Handled(configuration(request))
        case .openIDConfiguration: return Handled(openIDConfiguration(request))
        case .capabilityStatement: return Handled(capabilityStatement(request))
        case .keySet: return Handled(.json(200, keySet))
        case .authorize: return Handled(authorize(request))
        case .authorizationDecision: return Handled(decide(request))
        case .revoke: return Handled(revoke(request))
        case .introspect: return Handled(introspect(request))
        case .attackerConfiguration: return Handled(attackerConfiguration(request))
        case .attackerKeySet: return Handled(.json(200, ["keys": []]))
        case .attackerAuthorize: return Handled(attackerAuthorize(request))
        case .attackerToken: return Handled(attackerToken(request))
        case .attackerSearch: return Handled(attackerSearch(request))
        case .readResource:
            return Handled(read(request, path: String(request.path.dropFirst(Self.path(fhirBaseURL).count + 1))))
        case .writeResource:
            return Handled(write(request, path: String(request.path.dropFirst(Self.path(fhirBaseURL).count + 1))))
        default: return token(request, as: operation)
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
        let origin = TestServerNames.origin(request.message.url) ?? ""
        return Reached(origin: origin, fhirBase: origin + Self.path(fhirBaseURL), root: origin + Self.path(root))
    }

    /// The issuer identifier: the FHIR base, or the one the settings give.
    func issuer(_ request: ReceivedRequest, _ settings: Settings) -> String {
        settings.issuer ?? reached(request).fhirBase
    }
}
