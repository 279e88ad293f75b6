import Foundation
import HealthSignInCore

/// An authorization request waiting for its redirect, kept in the store so that it survives the app being ended
/// while the user is in the browser: the secrets the redirect and the code exchange are checked with, and the
/// endpoints they go to.
public struct PendingAuthorization: Sendable, Equatable, Codable {
    /// The `state` sent, which the redirect must carry back.
    public var state: String
    /// The PKCE verifier, sent with the code.
    public var codeVerifier: String
    /// The `nonce` sent, which the id token must carry, when `openid` was asked for.
    public var nonce: String?
    /// The redirect URI sent, which the code exchange repeats.
    public var redirectURI: String
    /// The server's endpoints.
    public var endpoints: OAuthEndpoints
    /// When the request was made.
    public var startedAt: Date

    /// Creates a pending request with fresh secrets from `random`, drawn in this order: the PKCE verifier, `state`
    /// (`stateBytes` random bytes), and the nonce when `openID` is asked for.
    public init(
        random: any RandomSource, stateBytes: Int = 32, openID: Bool, redirectURI: String,
        endpoints: OAuthEndpoints, startedAt: Date
    ) {
        codeVerifier = PKCEPair(random: random).verifier
        state = Base64URL.encode(random.bytes(count: stateBytes))
        nonce = openID ? Base64URL.encode(random.bytes(count: 32)) : nil
        self.redirectURI = redirectURI
        self.endpoints = endpoints
        self.startedAt = startedAt
    }

    /// The PKCE pair of the verifier: its challenge goes in the authorization request.
    public var pkce: PKCEPair { PKCEPair(verifier: codeVerifier) }

    /// What the browser's redirect says about this request.
    ///
    /// The checks run in this order: the redirect arrived at this request's redirect URI, and carries its `state`
    /// (compared in constant time); until then the redirect is not this request's answer and the request keeps
    /// waiting. Then the issuer (RFC 9207): an `iss` must be the request's server's issuer, and the server's metadata
    /// may say that every response carries one; a response of another issuer is a mix-up, whose code must not be
    /// redeemed. Then the lifetime, and finally the code or the error.
    ///
    /// - Parameters:
    ///   - redirect: the URL the browser ended on.
    ///   - now: the time it arrived.
    ///   - lifetime: how long the request may wait, in seconds.
    /// - Returns: the authorization code.
    /// - Throws: ``AuthorizationResponseError/redirectMismatch`` and ``AuthorizationResponseError/stateMismatch``
    ///   for a redirect that is not this request's answer; then ``AuthorizationResponseError/issuerMismatch(_:)``,
    ///   ``AuthorizationResponseError/expired``, ``AuthorizationResponseError/denied(error:description:)`` for an
    ///   error or a missing code.
    public func code(from redirect: URL, at now: Date, lifetime: TimeInterval) throws(AuthorizationResponseError)
        -> String
    {
        // The redirect URI may have a query of its own (RFC 6749 §3.1.2), which the response extends.
        func withoutQuery(_ text: String) -> Substring { text.prefix { $0 != "?" && $0 != "#" } }
        guard withoutQuery(redirect.absoluteString) == withoutQuery(redirectURI) else { throw .redirectMismatch }
        let items = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        guard let echoed = value("state"), CryptoPrimitives.constantTimeEqual(Array(echoed.utf8), Array(state.utf8))
        else {
            throw .stateMismatch
        }
        let issuer = value("iss")
        if issuer.map({ $0 != endpoints.expectedIssuer }) ?? endpoints.issuerParameterSupported {
            throw .issuerMismatch(issuer)
        }
        guard now.timeIntervalSince(startedAt) <= lifetime else { throw .expired }
        if let error = value("error") { throw .denied(error: error, description: value("error_description")) }
        guard let code = value("code"), !code.isEmpty else {
            throw .denied(error: "invalid_request", description: "the redirect has no code")
        }
        return code
    }
}

extension PendingAuthorization: CustomStringConvertible, CustomReflectable {
    /// When it started; the state, verifier and nonce are redacted.
    public var description: String {
        "PendingAuthorization(startedAt: \(DateTimeText.format(startedAt)), secrets: \(Redaction.placeholder))"
    }

    /// A mirror that shows the same as ``description``.
    public var customMirror: Mirror { Mirror(self, children: ["pending": description]) }
}

/// An authorization request the app's parameters would make wrong.
public enum AuthorizationRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An additional parameter has the name of one the protocol sets itself.
    case reservedParameter(String)
    /// `prompt` combines `none` with other values, or has an empty value.
    case invalidPrompt(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .reservedParameter(let name):
            return "The authorization request sets \(name) itself; it cannot be an additional parameter"
        case .invalidPrompt(let prompt):
            return "The prompt \"\(prompt)\" is not space-separated values with none alone"
        }
    }
}

extension AuthorizationRequestError: SDKError {
    /// `ErrorRecovery.fixRequest`: the app's parameters must change.
    public var recovery: ErrorRecovery { .fixRequest }
}

/// What a redirect said instead of a usable authorization code.
public enum AuthorizationResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The redirect arrived at another redirect URI than the pending request's: it answers another registration's
    /// request.
    case redirectMismatch
    /// The redirect's `state` is not the pending request's: it answers another request, or a forged one.
    case stateMismatch
    /// The response names another issuer than the server the request went to (`iss`, RFC 9207), or none although
    /// that server always names itself: a mix-up, whose code is not redeemed. The issuer received, if any.
    case issuerMismatch(String?)
    /// The request waited longer than its lifetime.
    case expired
    /// The server redirected with an error such as `access_denied`, or without a code.
    case denied(error: String, description: String?)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .redirectMismatch: return "The redirect arrived at another redirect URI than the authorization request's"
        case .stateMismatch: return "The redirect's state does not match the authorization request's"
        case .issuerMismatch(let issuer):
            return "The authorization response "
                + (issuer.map { "comes from the issuer \($0)" } ?? "names no issuer")
                + ", not the server the request was sent to; the code was not redeemed"
        case .expired: return "The authorization was started too long ago; start again"
        case .denied(let error, let description):
            return "The authorization server refused: \(error)" + (description.map { " (\($0))" } ?? "")
        }
    }
}

extension AuthorizationResponseError: SDKError {
    /// `ErrorRecovery.reauthorize` for a refused, expired or mixed-up authorization; a redirect of another request
    /// changes nothing (the request keeps waiting).
    public var recovery: ErrorRecovery { isAnotherRequests ? .none : .reauthorize }

    /// Whether the redirect is not this request's answer at all, so the request keeps waiting.
    public var isAnotherRequests: Bool { self == .stateMismatch || self == .redirectMismatch }
}

/// What an app adds to the authorization requests it makes: OpenID Connect's `prompt`, and parameters of its own
/// (AppAuth's `additionalParameters`): `login_hint`, `ui_locales`, `max_age`, `acr_values`, `resource`, a vendor's.
public struct AuthorizationParameters: Sendable, Hashable {
    /// `prompt` (OpenID Connect Core §3.1.2.1): `login`, `consent`, `select_account` or `none`, space-separated
    /// (`none` alone). Nil lets the SDK choose (``prompt(for:)``); an empty string sends no `prompt` at all.
    public var prompt: String?
    /// Further query parameters, sent after the protocol's own in the order of their names. One named like a
    /// parameter the protocol sets itself (`client_id`, `state`, `prompt`, …) is refused.
    public var additional: [String: String]

    /// Creates parameters.
    public init(prompt: String? = nil, additional: [String: String] = [:]) {
        self.prompt = prompt
        self.additional = additional
    }

    /// The `prompt` to send with a request for `scopes`: the app's; without one, `consent` when the scopes hold both
    /// `openid` and `offline_access`, because OpenID Connect Core §11 lets a provider grant offline access only then
    /// (strict providers otherwise drop `offline_access` and issue no refresh token); nil to send none.
    ///
    /// - Throws: ``AuthorizationRequestError/invalidPrompt(_:)`` for `none` with other values, or an empty value
    ///   between spaces.
    public func prompt(for scopes: [String]) throws(AuthorizationRequestError) -> String? {
        guard let prompt else {
            return scopes.contains("openid") && scopes.contains("offline_access") ? "consent" : nil
        }
        guard !prompt.isEmpty else { return nil }
        let values = prompt.split(separator: " ", omittingEmptySubsequences: false)
        guard !values.contains(""), !values.contains("none") || values.count == 1 else {
            throw .invalidPrompt(prompt)
        }
        return prompt
    }

    /// The additional parameters, once none has the name of one in `reserved` (the protocol's own) or `prompt`.
    ///
    /// - Throws: ``AuthorizationRequestError/reservedParameter(_:)`` naming the first such parameter.
    public func additionalParameters(reserved: Set<String>) throws(AuthorizationRequestError) -> [String: String] {
        if let name = additional.keys.sorted().first(where: { reserved.contains($0) || $0 == "prompt" }) {
            throw .reservedParameter(name)
        }
        return additional
    }
}
