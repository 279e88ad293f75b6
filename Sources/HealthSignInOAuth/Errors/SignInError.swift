import Foundation
import HealthSignInCore

/// What an OAuth family's sign-in, discovery or session cannot do by itself: one error for every family on the
/// layer (SMART's launches, Koppeltaal's activation), whose ``code`` says what happened and whose description names
/// the mistake and the fix.
///
/// The code is open: a family adds codes of its own, and a later version may add more, so a `switch` over it needs a
/// `default`. What the server answered, when it did, is ``serverError``; the detail the layer found is
/// ``underlying`` (an `IDTokenError`, the request's error).
///
/// ```swift
/// do {
///     _ = try await session.completeAuthorization(redirectURL: url)
/// } catch let error as SignInError where error.code == .authorizationDenied {
///     show(error.serverError?.body.errorDescription ?? error.description)
/// }
/// ```
public struct SignInError: Error, Sendable, CustomStringConvertible {
    /// What happened; compared by name.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        /// The code's name, e.g. `needsSignIn`.
        public let name: String
        /// What the app should do about an error with this code.
        public let recovery: ErrorRecovery

        /// A code named `name`, with what the app should do about it.
        public init(_ name: String, recovery: ErrorRecovery) {
            self.name = name
            self.recovery = recovery
        }

        /// The name.
        public var description: String { name }

        /// Codes are equal when their names are.
        public static func == (lhs: Code, rhs: Code) -> Bool { lhs.name == rhs.name }

        /// Hashes the name.
        public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    }

    /// What happened.
    public let code: Code
    /// What is wrong and what fixes it, in a sentence without secrets.
    public let reason: String
    /// The family whose session or sign-in this is, e.g. `SMART`.
    public let family: String
    /// The server's OAuth error, when the server answered with one (its `error` and `error_description`).
    public let serverError: OAuthError?
    /// The detail behind the error, such as an `IDTokenError` or the request's error.
    public let underlying: (any Error)?

    /// Creates an error.
    public init(
        _ code: Code, _ reason: String, family: String, serverError: OAuthError? = nil, underlying: (any Error)? = nil
    ) {
        self.code = code
        self.reason = reason
        self.family = family
        self.serverError = serverError
        self.underlying = underlying
    }

    /// `<family>: <reason>`, with the server's error.
    public var description: String {
        "\(family): \(reason)" + (serverError.map { " (the server answered \($0))" } ?? "")
    }
}

extension SignInError: SDKError {
    /// The code's recovery.
    public var recovery: ErrorRecovery { code.recovery }
}

extension SignInError.Code {
    /// There is no usable grant (never signed in, revoked, or proven dead by the server): sign in again. The
    /// server's refusal, when there was one, is the error's `serverError`.
    public static let needsSignIn = Self("needsSignIn", recovery: .reauthorize)
    /// The token endpoint refused the client's credentials: a configuration error; stored tokens are kept.
    public static let clientRejected = Self("clientRejected", recovery: .reconfigure)
    /// The authorization endpoint refused the request itself (`invalid_request`, `unauthorized_client`): the
    /// registration's client id or redirect URI is not what the server knows. The server's error says which.
    public static let requestRejected = Self("requestRejected", recovery: .reconfigure)
    /// The token endpoint refused to redeem the authorization code; sign in again.
    public static let codeRejected = Self("codeRejected", recovery: .reauthorize)
    /// The server's metadata (or the configuration) lacks an endpoint, or names one that is not a URL.
    public static let discoveryFailed = Self("discoveryFailed", recovery: .reconfigure)
    /// The server's metadata named an endpoint on an origin its registration does not trust, one written with
    /// userinfo, or an authorization endpoint whose query names a parameter the SDK sets; nothing was sent to it.
    public static let untrustedEndpoint = Self("untrustedEndpoint", recovery: .reconfigure)
    /// The server's metadata names an issuer its registration does not trust (another origin, userinfo, or an
    /// issuer another registration has): nothing is accepted in that issuer's name.
    public static let untrustedIssuer = Self("untrustedIssuer", recovery: .reconfigure)
    /// A launch, or the store, names a server no registration of the configuration covers; nothing was sent to it.
    public static let unknownServer = Self("unknownServer", recovery: .reconfigure)
    /// The configuration cannot work safely as it is (two registrations on one redirect URI without the servers
    /// naming themselves, two registrations for one server); nothing was sent.
    public static let invalidConfiguration = Self("invalidConfiguration", recovery: .reconfigure)
    /// The app's authorization parameters name one the SDK sets, or an invalid `prompt`; nothing was sent.
    public static let invalidAuthorizationParameters = Self("invalidAuthorizationParameters", recovery: .fixRequest)
    /// A redirect arrived but no authorization was started, or it was already completed.
    public static let noPendingAuthorization = Self("noPendingAuthorization", recovery: .reauthorize)
    /// The redirect arrived at another redirect URI than the pending authorization's; it answers another request.
    /// The authorization still waits.
    public static let redirectMismatch = Self("redirectMismatch", recovery: .none)
    /// The redirect's `state` is not the pending authorization's; it answers another request, or a forged one. The
    /// authorization still waits.
    public static let stateMismatch = Self("stateMismatch", recovery: .none)
    /// The redirect repeats a parameter (RFC 6749 §3.1), so it cannot be read safely; the authorization still waits.
    public static let malformedAuthorizationResponse = Self("malformedAuthorizationResponse", recovery: .none)
    /// The authorization response names another issuer than the server the request went to (RFC 9207), or none
    /// although that server always names itself: a mix-up. The code was not redeemed.
    public static let issuerMismatch = Self("issuerMismatch", recovery: .reauthorize)
    /// The authorization was started longer ago than its lifetime.
    public static let authorizationExpired = Self("authorizationExpired", recovery: .reauthorize)
    /// The server redirected with an error, such as `access_denied`, or without a code.
    public static let authorizationDenied = Self("authorizationDenied", recovery: .reauthorize)
    /// The id token failed validation (OpenID Connect Core §3.1.3.7, or §12.2 on refresh): the sign-in is not
    /// trusted. The `IDTokenError` is the error's `underlying`.
    public static let idTokenRejected = Self("idTokenRejected", recovery: .reauthorize)
    /// The token response cannot be used; the reason says why, never with a token.
    public static let malformedTokenResponse = Self("malformedTokenResponse", recovery: .none)
}

extension SignInError {
    /// The `IDTokenError` behind an ``Code/idTokenRejected`` error.
    public var idTokenError: IDTokenError? { underlying as? IDTokenError }
}
