import Foundation
import HealthSignInCore

/// An authorization request waiting for its answer, kept in the store so that it survives the app being ended while
/// the user is in the browser: the secrets the answer and the code exchange are checked with, and the endpoints
/// they go to.
public struct PendingAuthorization: Sendable, Equatable, Codable {
    /// The `state` sent, which the answer must carry back.
    public var state: String
    /// The PKCE verifier, sent with the code when ``usesPKCE`` (empty otherwise).
    public var codeVerifier: String
    /// Whether the request carried the PKCE challenge (RFC 7636 S256), so the code exchange sends the verifier.
    public var usesPKCE: Bool
    /// The `nonce` sent, which the id token must carry, when `openid` was asked for.
    public var nonce: String?
    /// The redirect URI sent, which the code exchange repeats.
    public var redirectURI: String
    /// The server's endpoints; their base URL is the registration's.
    public var endpoints: OAuthEndpoints
    /// When the request was made.
    public var startedAt: Date

    /// Creates a pending request with fresh secrets from `random`, drawn in this order: the PKCE verifier when
    /// `usesPKCE`, `state` (`stateBytes` random bytes), and the nonce when `openID` is asked for.
    public init(
        random: any RandomSource, stateBytes: Int = 32, openID: Bool, usesPKCE: Bool = true, redirectURI: String,
        endpoints: OAuthEndpoints, startedAt: Date
    ) {
        codeVerifier = usesPKCE ? PKCEPair(random: random).verifier : ""
        // Never an empty or guessable `state`, nor one too large to draw: 16 to 1,024 bytes.
        state = Base64URL.encode(random.bytes(count: min(max(16, stateBytes), 1_024)))
        nonce = openID ? Base64URL.encode(random.bytes(count: 32)) : nil
        self.usesPKCE = usesPKCE
        self.redirectURI = redirectURI
        self.endpoints = endpoints
        self.startedAt = startedAt
    }

    private enum CodingKeys: String, CodingKey {
        case state, codeVerifier, usesPKCE, nonce, redirectURI, endpoints, startedAt
    }

    /// Reads a stored request; one stored before ``usesPKCE`` was kept used PKCE.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        state = try container.decode(String.self, forKey: .state)
        codeVerifier = try container.decode(String.self, forKey: .codeVerifier)
        usesPKCE = try container.decodeIfPresent(Bool.self, forKey: .usesPKCE) ?? true
        nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
        redirectURI = try container.decode(String.self, forKey: .redirectURI)
        endpoints = try container.decode(OAuthEndpoints.self, forKey: .endpoints)
        startedAt = try container.decode(Date.self, forKey: .startedAt)
    }

    /// The PKCE pair of the verifier: its challenge goes in the authorization request.
    public var pkce: PKCEPair { PKCEPair(verifier: codeVerifier) }

    /// The verifier the code exchange sends: the PKCE verifier when the request used PKCE.
    public var verifierToSend: String? { usesPKCE ? codeVerifier : nil }

    /// Whether `echoed` is this request's `state`, compared in constant time.
    public func accepts(state echoed: String) -> Bool {
        CryptoPrimitives.constantTimeEqual(Array(echoed.utf8), Array(state.utf8))
    }

    /// What the browser's redirect says about this request.
    ///
    /// The checks run in this order: no parameter of the response is repeated (RFC 6749 §3.1: read first-wins, a
    /// redirect URI with a query of its own would let an attacker put a value before the server's); the redirect
    /// arrived at this request's redirect URI, and carries its `state`. Until then the redirect is not this
    /// request's answer and the request keeps waiting. Then the issuer (RFC 9207): an `iss` must be the request's
    /// server's issuer, and the server's metadata may say that every response carries one; a response of another
    /// issuer is a mix-up, whose code must not be redeemed. Then the lifetime, and finally the code or the error.
    ///
    /// - Parameters:
    ///   - redirect: the URL the browser ended on.
    ///   - now: the time it arrived.
    ///   - lifetime: how long the request may wait, in seconds.
    ///   - family: the family, for the errors.
    /// - Returns: the authorization code.
    /// - Throws: ``SignInError`` with ``SignInError/Code/malformedAuthorizationResponse``,
    ///   ``SignInError/Code/redirectMismatch`` or ``SignInError/Code/stateMismatch`` for a redirect that is not
    ///   this request's answer; then ``SignInError/Code/issuerMismatch``, ``SignInError/Code/authorizationExpired``,
    ///   or ``SignInError/Code/authorizationDenied`` for an error or a missing code, with the server's error.
    public func code(from redirect: URL, at now: Date, lifetime: TimeInterval, family: String) throws(SignInError)
        -> String
    {
        // The server adds its answer in the application/x-www-form-urlencoded format (RFC 6749 §4.1.2), where `+` is a
        // space.
        let query = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        let items = FormFields(formEncoded: query).pairs
        var seen: Set<String> = []
        for item in items where !seen.insert(item.name).inserted {
            throw SignInError(
                .malformedAuthorizationResponse,
                "the redirect carries \(item.name) more than once, so it cannot be read safely; it was ignored",
                family: family)
        }
        // The redirect URI may have a query of its own (RFC 6749 §3.1.2), which the response extends.
        func withoutQuery(_ text: String) -> Substring { text.prefix { $0 != "?" && $0 != "#" } }
        guard withoutQuery(redirect.absoluteString) == withoutQuery(redirectURI) else {
            throw SignInError(
                .redirectMismatch,
                "the redirect arrived at another redirect URI than the pending authorization's; it was ignored",
                family: family)
        }
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        guard let echoed = value("state"), accepts(state: echoed) else {
            throw SignInError(
                .stateMismatch, "the redirect's state does not match the pending authorization's; it was ignored",
                family: family)
        }
        let issuer = value("iss")
        if issuer.map({ $0 != endpoints.expectedIssuer }) ?? endpoints.issuerParameterSupported {
            throw SignInError(
                .issuerMismatch,
                "the authorization response "
                    + (issuer.map { "comes from the issuer \($0)" } ?? "names no issuer although its server always does")
                    + ", not \(endpoints.expectedIssuer), where the request went; the code was not redeemed",
                family: family)
        }
        guard now.timeIntervalSince(startedAt) <= lifetime else {
            throw SignInError(
                .authorizationExpired, "the authorization was started too long ago; start again", family: family)
        }
        if let error = value("error") {
            throw SignInError(
                .authorizationDenied, "the authorization server refused the authorization",
                family: family, serverError: OAuthError(redirectError: error, description: value("error_description")))
        }
        guard let code = value("code"), !code.isEmpty else {
            throw SignInError(.authorizationDenied, "the redirect has no authorization code", family: family)
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

extension OAuthError {
    /// The error an authorization server sent in a redirect (RFC 6749 §4.1.2.1), as a body.
    init(redirectError code: String, description: String?) {
        self.init(
            body: OAuthErrorBody(error: code, errorDescription: description), httpStatus: 302, operation: "Authorize")
    }
}
