import Foundation
import HealthSignInCore

/// A SMART server for lifecycle tests at `https://ehr.example`: discovery, Token (authorization_code and rotating
/// refresh_token grants from a ``TokenLedger``; codes are `ac-<subject>` and single-use), Revoke, and a FHIR endpoint
/// that accepts only the current access token; with an ``FakeOpenIDProvider``, also an issuer, a key set and id
/// tokens. The browser is played by the test, which builds the redirect itself.
public final class FakeSMARTServer: Sendable {
    /// The FHIR base URL.
    public static let fhirBaseURL = URL(string: "https://ehr.example/fhir")!
    /// The token endpoint.
    public static let tokenURL = URL(string: "https://ehr.example/auth/token")!
    /// The revocation endpoint.
    public static let revokeURL = URL(string: "https://ehr.example/auth/revoke")!

    /// The tokens issued.
    public let ledger = TokenLedger()
    /// The `expires_in` of every token response, in seconds.
    public let lifetime: Int
    /// Signs id tokens, when the server is an OpenID provider.
    public let openID: FakeOpenIDProvider?

    /// The issuer of an OpenID server.
    public static let issuer = "https://ehr.example/fhir"

    /// Creates a server whose access tokens last `lifetime` seconds; with `openID`, its discovery names an issuer
    /// and a key set, and its token responses carry id tokens.
    public init(lifetime: Int = 900, openID: FakeOpenIDProvider? = nil) {
        self.lifetime = lifetime
        self.openID = openID
    }

    /// The `state` of an authorization URL.
    public static func state(in url: URL) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "state" }?.value
    }

    /// The redirect a browser hands back to `app://cb` for the authorization URL `url`: `code` and the URL's state.
    public static func redirect(for url: URL, code: String) -> URL? {
        state(in: url).flatMap { URL(string: "app://cb?code=\(code)&state=\($0)") }
    }

    /// Answers one request.
    public func answer(_ request: HTTPRequestMessage) -> HTTPResponseMessage {
        let form = FormFields(formEncoded: String(decoding: request.body ?? Data(), as: UTF8.self))
        switch request.url.path {
        case "/fhir/.well-known/smart-configuration":
            let openID =
                openID.map { _ in #", "issuer": "\#(Self.issuer)", "jwks_uri": "https://ehr.example/auth/jwks""# } ?? ""
            return FakeTokenEndpoint.json(
                200,
                """
                {"authorization_endpoint": "https://ehr.example/auth/authorize", "token_endpoint": "\(Self.tokenURL)",
                 "revocation_endpoint": "\(Self.revokeURL)", "capabilities": ["launch-standalone"],
                 "code_challenge_methods_supported": ["S256"]\(openID)}
                """)
        case "/auth/jwks":
            return FakeTokenEndpoint.json(200, FakeOpenIDProvider.keySetJSON)
        case Self.tokenURL.path:
            // SMART wants the PKCE verifier with every code.
            guard form["grant_type"] != "authorization_code" || form["code_verifier"] != nil else {
                return FakeTokenEndpoint.json(400, #"{"error": "invalid_request"}"#)
            }
            return FakeTokenEndpoint.answer(form, ledger: ledger) { tokens($0, code: form["code"]) }
        case Self.revokeURL.path:
            ledger.revoke(form["token"] ?? "")
            return HTTPResponseMessage(status: 200)
        default:
            let bearer = request.headers["Authorization"].map { String($0.dropFirst("Bearer ".count)) } ?? ""
            guard ledger.accepts(accessToken: bearer) else {
                return HTTPResponseMessage(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
            }
            return FakeTokenEndpoint.json(200, #"{"resourceType": "Patient"}"#)
        }
    }

    /// The user of grant `grant`, the `sub` of its id tokens.
    public static func subject(ofGrant grant: Int) -> String { "user-\(grant)" }

    private func tokens(_ version: TokenLedger.Version, code: String?) -> HTTPResponseMessage {
        let idToken = openID?.idToken(subject: Self.subject(ofGrant: version.grant), code: code)
        return FakeTokenEndpoint.json(
            200,
            """
            {"access_token": "\(TokenLedger.accessToken(version))", "token_type": "Bearer", "expires_in": \(lifetime), \
            "scope": "launch/patient offline_access patient/*.rs", \
            "refresh_token": "\(TokenLedger.refreshToken(version))", "patient": "\(version.grant)"\
            \(idToken.map { #", "id_token": "\#($0)""# } ?? "")}
            """)
    }
}
