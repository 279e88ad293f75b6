import Foundation
import HealthSignInCore
import HealthSignInOAuth

/// What a ``KoppeltaalSession`` cannot do by itself; each case says what the app should do next.
public enum KoppeltaalError: Error, Sendable, CustomStringConvertible {
    /// The Conformance (and SMART configuration) did not name these endpoints; configure them by hand.
    case discoveryFailed(missing: [String])
    /// Discovery named an endpoint on an origin (scheme, host and port) other than the FHIR base URL's and the
    /// trusted ones; nothing was sent to it. Configure it in `EndpointOverrides`, or add its host (with its port, when
    /// not the default) to `trustedEndpointHosts` if it is really the server's.
    case untrustedEndpoint(name: String, url: URL)
    /// Authorize refused the activation code (unknown, already used or expired): ask for a new one.
    case activationCodeRejected(OAuthError)
    /// The token exchange refused the authorization code; the activation code is spent, so ask for a new one.
    case activationFailed(OAuthError)
    /// There is no usable grant (never activated, or the server proved it dead): ask for an activation code.
    /// `underlying` is the server's answer when there was one.
    case needsActivation(underlying: OAuthError?)
    /// The token endpoint refused the client's credentials: a configuration error; stored tokens are kept.
    case clientRejected(OAuthError)
    /// The server echoed a different `state` than the one sent.
    case stateMismatch
    /// The token response cannot be used; the reason says why (never the token).
    case malformedTokenResponse(String)

    /// A one-line explanation with what to do.
    public var description: String {
        switch self {
        case .discoveryFailed(let missing):
            return
                "The server's Conformance names no \(missing.joined(separator: " or ")) endpoint; configure it in EndpointOverrides"
        case .untrustedEndpoint(let name, let url):
            return
                "The server's \(name) endpoint is on \(url.host ?? "no host")\(url.port.map { ":\($0)" } ?? ""), not the "
                + "FHIR server's origin; configure it in EndpointOverrides or trust its host in trustedEndpointHosts"
        case .activationCodeRejected(let error):
            return "The activation code was not accepted (unknown, used or expired): \(error)"
        case .activationFailed(let error):
            return "Activation failed and the code is spent; a new activation code is needed: \(error)"
        case .needsActivation(let error):
            return "Koppeltaal needs a new activation code" + (error.map { " (\($0))" } ?? "")
        case .clientRejected(let error):
            return "The OAuth client credentials were refused; check the configuration: \(error)"
        case .stateMismatch: return "The authorize response's state does not match the request's"
        case .malformedTokenResponse(let reason): return "The token response cannot be used: \(reason)"
        }
    }
}

extension KoppeltaalError: SDKError {
    /// What the case asks of the app: a new activation for a spent or dead grant, the configuration for endpoints
    /// and client credentials.
    public var recovery: ErrorRecovery {
        switch self {
        case .activationCodeRejected, .activationFailed, .needsActivation: return .reauthorize
        case .discoveryFailed, .untrustedEndpoint, .clientRejected: return .reconfigure
        case .stateMismatch, .malformedTokenResponse: return .none
        }
    }
}
