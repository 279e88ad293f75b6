import Foundation
import HealthSignInCore

/// The token endpoint the OAuth fake servers share: authorization codes `ac-<subject>` redeemed once each, and
/// rotating refresh tokens, from a ``TokenLedger``.
enum FakeTokenEndpoint {
    /// Answers a token request (`form`) with `tokens` for the version issued, or an OAuth error.
    static func answer(
        _ form: FormFields, ledger: TokenLedger, tokens: (TokenLedger.Version) -> HTTPResponseMessage
    ) -> HTTPResponseMessage {
        switch form["grant_type"] {
        case "authorization_code":
            guard let version = ledger.redeem(code: form["code"] ?? "") else {
                return json(400, #"{"error": "invalid_grant"}"#)
            }
            return tokens(version)
        case "refresh_token":
            switch ledger.refresh(form["refresh_token"] ?? "") {
            case .success(let version): return tokens(version)
            case .failure: return json(400, #"{"error": "invalid_grant"}"#)
            }
        default:
            return json(400, #"{"error": "unsupported_grant_type"}"#)
        }
    }

    /// A JSON response.
    static func json(_ status: Int, _ body: String) -> HTTPResponseMessage {
        HTTPResponseMessage(status: status, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }
}
