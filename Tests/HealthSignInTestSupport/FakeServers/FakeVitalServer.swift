import Foundation
import HealthSignInCore

/// A Junction server for lifecycle tests, answering on any host: the token exchange and refresh at `/v1/token`
/// (rotating refresh tokens from a ``TokenLedger``) and the connected-providers call of the data API.
///
/// Refusals follow the real server: a rotated-out, unknown or revoked refresh token gets
/// `reauthentication_required` (400); a deleted user's gets `invalid_token` (401); a refused access token a 401
/// `invalid_token`.
public final class FakeVitalServer: Sendable {
    /// The tokens issued.
    public let ledger = TokenLedger()
    /// The `expires_in` of every token response, in seconds.
    public let lifetime: Int

    /// Creates a server whose access tokens last `lifetime` seconds.
    public init(lifetime: Int = 3600) { self.lifetime = lifetime }

    /// Answers one request.
    public func answer(_ request: HTTPRequestMessage) -> HTTPResponseMessage {
        if request.url.path.hasSuffix("/v1/token") {
            return token(FormFields(formEncoded: String(decoding: request.body ?? Data(), as: UTF8.self)))
        }
        if request.headers["x-vital-api-key"] != nil { return Self.json(200, #"{"providers": []}"#) }
        let bearer = request.headers["Authorization"].map { String($0.dropFirst("Bearer ".count)) } ?? ""
        guard ledger.accepts(accessToken: bearer) else {
            return Self.json(401, #"{"detail": {"error_type": "invalid_token"}}"#)
        }
        return Self.json(200, #"{"providers": [{"name": "Oura", "slug": "oura", "status": "connected"}]}"#)
    }

    private func token(_ form: FormFields) -> HTTPResponseMessage {
        switch form["grant_type"] {
        case "urn:ietf:params:oauth:grant-type:token-exchange":
            guard let subject = form["subject_token"].flatMap(Self.userID(inJWT:)) else {
                return Self.json(401, #"{"detail": {"error_type": "invalid_token"}}"#)
            }
            return tokens(ledger.issue(subject: subject))
        case "refresh_token":
            switch ledger.refresh(form["refresh_token"] ?? "") {
            case .success(let version): return tokens(version)
            case .failure(.subjectDeleted): return Self.json(401, #"{"detail": {"error_type": "invalid_token"}}"#)
            case .failure: return Self.json(400, #"{"detail": {"error_type": "reauthentication_required"}}"#)
            }
        default:
            return Self.json(400, #"{"detail": {"error_type": "invalid_request"}}"#)
        }
    }

    private func tokens(_ version: TokenLedger.Version) -> HTTPResponseMessage {
        Self.json(
            200,
            """
            {"access_token": "\(TokenLedger.accessToken(version))", "refresh_token": "\(TokenLedger.refreshToken(version))", \
            "expires_in": \(lifetime)}
            """)
    }

    /// The `uid` claim of a compact JWT, the Vital user the sign-in token is for.
    public static func userID(inJWT jwt: String) -> String? {
        let segments = jwt.split(separator: ".")
        guard segments.count == 3, let payload = Base64URL.decode(String(segments[1])),
            let claims = try? JSONSerialization.jsonObject(with: payload) as? [String: Any]
        else { return nil }
        return claims["uid"] as? String
    }

    static func json(_ status: Int, _ body: String) -> HTTPResponseMessage {
        HTTPResponseMessage(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }
}
