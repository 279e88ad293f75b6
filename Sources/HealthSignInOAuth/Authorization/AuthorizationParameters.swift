import Foundation
import HealthSignInCore

/// What an app adds to the authorization requests it makes: OpenID Connect's `prompt`, and parameters of its own
/// (AppAuth's `additionalParameters`): `login_hint`, `ui_locales`, `max_age`, `acr_values`, `resource`, a vendor's.
public struct AuthorizationParameters: Sendable, Hashable {
    /// `prompt` (OpenID Connect Core §3.1.2.1): `login`, `consent`, `select_account` or `none`, space-separated
    /// (`none` alone). Nil lets the SDK choose (``prompt(for:family:)``); an empty string sends no `prompt` at all.
    public var prompt: String?
    /// Further query parameters, sent after the protocol's own in the order of their names. One named, in any case,
    /// like a parameter the SDK sets or one that would replace them (``reservedNames``) is refused.
    public var additional: [String: String]

    /// Creates parameters.
    public init(prompt: String? = nil, additional: [String: String] = [:]) {
        self.prompt = prompt
        self.additional = additional
    }

    /// The names, lowercased, that only the SDK sets in an authorization request: OAuth's and PKCE's, OpenID
    /// Connect's, SMART's, and those that would replace them: a request object or its URI (RFC 9101) and the
    /// response mode.
    public static let reservedNames: Set<String> = [
        "response_type", "client_id", "redirect_uri", "scope", "state", "code_challenge", "code_challenge_method",
        "nonce", "prompt", "aud", "launch", "request", "request_uri", "response_mode",
    ]

    /// Whether `name`, in any case, is a parameter an authorization request must carry only as the SDK sets it:
    /// one of ``reservedNames`` or of `protocolNames`, the request's own.
    public static func isReserved(_ name: String, protocolNames: Set<String> = []) -> Bool {
        let lowered = name.lowercased()
        return reservedNames.contains(lowered) || protocolNames.contains { $0.lowercased() == lowered }
    }

    /// The `prompt` to send with a request for `scopes`: the app's; without one, `consent` when the scopes hold both
    /// `openid` and `offline_access`, because OpenID Connect Core §11 lets a provider grant offline access only then
    /// (strict providers otherwise drop `offline_access` and issue no refresh token); nil to send none.
    ///
    /// - Throws: ``SignInError`` with ``SignInError/Code/invalidAuthorizationParameters`` for `none` with other
    ///   values, or an empty value between spaces.
    public func prompt(for scopes: [String], family: String) throws(SignInError) -> String? {
        guard let prompt else {
            return scopes.contains("openid") && scopes.contains("offline_access") ? "consent" : nil
        }
        guard !prompt.isEmpty else { return nil }
        let values = prompt.split(separator: " ", omittingEmptySubsequences: false)
        guard !values.contains(""), !values.contains("none") || values.count == 1 else {
            throw SignInError(
                .invalidAuthorizationParameters,
                "the prompt \"\(prompt)\" is not space-separated values with none alone", family: family)
        }
        return prompt
    }

    /// The additional parameters, once none is reserved (``isReserved(_:protocolNames:)``).
    ///
    /// - Throws: ``SignInError`` with ``SignInError/Code/invalidAuthorizationParameters`` naming the first
    ///   reserved one.
    public func additionalParameters(protocolNames: Set<String>, family: String) throws(SignInError)
        -> [String: String]
    {
        if let name = additional.keys.sorted().first(where: { Self.isReserved($0, protocolNames: protocolNames) }) {
            throw SignInError(
                .invalidAuthorizationParameters,
                "the authorization request sets \(name) itself; it cannot be an additional parameter", family: family)
        }
        return additional
    }
}
