import Foundation
import HealthSignInCore

/// A Koppeltaal server for lifecycle tests at `https://kt.example`: Authorize answering an activation code with an
/// authorization code, Token (authorization_code and rotating refresh_token grants from a ``TokenLedger``), Revoke,
/// and a FHIR endpoint that accepts only the current access token.
public final class FakeKoppeltaalServer: Sendable {
    /// The FHIR base URL.
    public static let fhirBaseURL = URL(string: "https://kt.example/fhir")!
    /// The OAuth endpoints, to configure by hand (no discovery).
    public static let authorizeURL = URL(string: "https://kt.example/oauth/authorize")!
    /// The token endpoint.
    public static let tokenURL = URL(string: "https://kt.example/oauth/token")!
    /// The revocation endpoint.
    public static let revokeURL = URL(string: "https://kt.example/oauth/revoke")!

    /// The tokens issued.
    public let ledger = TokenLedger()
    /// The `expires_in` of every token response, in seconds.
    public let lifetime: Int
    private let revoked = LockedValue<[String]>([])

    /// Creates a server whose access tokens last `lifetime` seconds.
    public init(lifetime: Int = 900) { self.lifetime = lifetime }

    /// The tokens revoked at the revocation endpoint, in order.
    public var revokedTokens: [String] { revoked.current }

    /// Answers one request.
    public func answer(_ request: HTTPRequestMessage) -> HTTPResponseMessage {
        let form = FormFields(formEncoded: String(decoding: request.body ?? Data(), as: UTF8.self))
        switch request.url.path {
        case Self.authorizeURL.path:
            let query = FormFields(formEncoded: request.url.query ?? "")
            guard
                let code = query["scope"]?.split(separator: " ").first(where: { $0.hasPrefix("launch:") })?.dropFirst(7)
            else {
                return FakeTokenEndpoint.json(400, #"{"error": "invalid_scope"}"#)
            }
            return FakeTokenEndpoint.json(200, #"{"authorization_code": "ac-\#(code)"}"#)
        case Self.tokenURL.path:
            return FakeTokenEndpoint.answer(form, ledger: ledger, tokens: tokens)
        case Self.revokeURL.path:
            let token = form["token"] ?? ""
            revoked.withValue { $0.append(token) }
            ledger.revoke(token)
            return HTTPResponseMessage(status: 200)
        default:
            let bearer = request.headers["Authorization"].map { String($0.dropFirst("Bearer ".count)) } ?? ""
            guard ledger.accepts(accessToken: bearer) else {
                return HTTPResponseMessage(status: 401, headers: ["WWW-Authenticate": #"Bearer error="invalid_token""#])
            }
            return FakeTokenEndpoint.json(200, #"{"resourceType": "Bundle"}"#)
        }
    }

    private func tokens(_ version: TokenLedger.Version) -> HTTPResponseMessage {
        FakeTokenEndpoint.json(
            200,
            """
            {"access_token": "\(TokenLedger.accessToken(version))", "token_type": "Bearer", "expires_in": \(lifetime), \
            "refresh_token": "\(TokenLedger.refreshToken(version))", "patient": "https://kt.example/fhir/Patient/\(version.grant)"}
            """)
    }
}
