import Foundation
import HealthSignInCore
import HealthSignInOAuth

/// What a SMART launch or backend cannot do by itself; each case says what the app should do next.
public enum SMARTError: Error, Sendable, CustomStringConvertible {
    /// The server's SMART configuration cannot be used; the reason says why.
    case discoveryFailed(String)
    /// The SMART configuration (or the store) named an endpoint, or an `issuer`, on an origin (scheme, host and
    /// port) other than the FHIR server's and the trusted ones; nothing was sent to it.
    case untrustedEndpoint(name: String, url: URL)
    /// An EHR launch named an `iss` (or the store a FHIR server) that is not one of the configured FHIR servers;
    /// nothing was sent to it.
    case untrustedIssuer(String)
    /// The launch URL lacks `iss` or `launch`, or the configuration names no FHIR server for a standalone launch.
    case invalidLaunch(String)
    /// A redirect arrived but no authorization was started (or it was already completed).
    case noPendingAuthorization
    /// The redirect arrived at another redirect URI than the pending authorization's (it answers a request made
    /// with another registration); nothing was redeemed, and the authorization still waits.
    case redirectMismatch
    /// The redirect's `state` is not the one sent; the code was not redeemed, and the authorization still waits.
    case stateMismatch
    /// The authorization response names another issuer than the server the request went to (`iss`, RFC 9207), or
    /// none although that server always names itself: a mix-up. The code was not redeemed; launch again.
    case issuerMismatch(String?)
    /// The authorization was started longer ago than the configured lifetime; start again.
    case authorizationExpired
    /// The server redirected with an error such as `access_denied`.
    case authorizationDenied(error: String, description: String?)
    /// The token endpoint refused to redeem the code; start the launch again.
    case codeExchangeFailed(OAuthError)
    /// The id token failed validation, so the sign-in is not trusted and nothing was stored.
    case idTokenRejected(IDTokenError)
    /// The token response cannot be used; the reason says why (never the token).
    case malformedTokenResponse(String)
    /// There is no usable grant (never launched, revoked, or proven dead by the server): launch again.
    /// `underlying` is the server's answer when there was one.
    case needsLaunch(underlying: OAuthError?)
    /// The token endpoint refused the client's credentials: a configuration error; stored tokens are kept.
    case clientRejected(OAuthError)

    /// A one-line explanation with what to do.
    public var description: String {
        switch self {
        case .discoveryFailed(let reason): return "The server's SMART configuration cannot be used: \(reason)"
        case .untrustedEndpoint(let name, let url):
            return
                "The server's \(name) is on \(url.host ?? "no host")\(url.port.map { ":\($0)" } ?? ""), not the FHIR "
                + "server's origin; trust its host in trustedEndpointHosts if it is really the server's"
        case .untrustedIssuer(let issuer):
            return "The launch names the FHIR server \(issuer), which is not one of the allowed issuers"
        case .invalidLaunch(let reason): return "The launch cannot start: \(reason)"
        case .noPendingAuthorization: return "No authorization is waiting for a redirect; start the launch again"
        case .redirectMismatch:
            return "The redirect arrived at another redirect URI than the pending authorization's"
        case .stateMismatch: return "The redirect's state does not match the authorization request's"
        case .issuerMismatch(let issuer):
            return "The authorization response "
                + (issuer.map { "comes from the issuer \($0)" } ?? "names no issuer")
                + ", not the server the launch was sent to; the code was not redeemed"
        case .authorizationExpired: return "The authorization was started too long ago; start the launch again"
        case .authorizationDenied(let error, let description):
            return "The authorization server refused: \(error)" + (description.map { " (\($0))" } ?? "")
        case .codeExchangeFailed(let error): return "The authorization code was not accepted: \(error)"
        case .idTokenRejected(let error): return "The sign-in is not trusted: \(error)"
        case .malformedTokenResponse(let reason): return "The token response cannot be used: \(reason)"
        case .needsLaunch(let error): return "SMART needs a new launch" + (error.map { " (\($0))" } ?? "")
        case .clientRejected(let error):
            return "The OAuth client credentials were refused; check the configuration: \(error)"
        }
    }
}

extension SMARTError: SDKError {
    /// What the case asks of the app: a new launch for a failed or dead authorization, the configuration for
    /// endpoints, issuers and client credentials.
    public var recovery: ErrorRecovery {
        switch self {
        case .noPendingAuthorization, .authorizationExpired, .authorizationDenied, .codeExchangeFailed,
            .idTokenRejected, .needsLaunch, .issuerMismatch:
            return .reauthorize
        case .discoveryFailed, .untrustedEndpoint, .untrustedIssuer, .invalidLaunch, .clientRejected:
            return .reconfigure
        case .redirectMismatch, .stateMismatch, .malformedTokenResponse: return .none
        }
    }
}
