import Foundation
import HealthSignInCore

/// Why a sign-in token cannot be used. The descriptions never contain the token or any part of it.
public enum SignInTokenProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The token is not Base64.
    case notBase64
    /// The decoded token is not a JSON object.
    case notJSONObject
    /// The JSON object lacks a string field (`public_key` or `user_token`).
    case missingField(String)
    /// The user token is not a compact JWT: it has this many dot-separated segments instead of three.
    case notCompactJWT(segmentCount: Int)
    /// A JWT segment (`header` or `payload`) is not Base64url-encoded JSON.
    case undecodableJWTSegment(String)
    /// The JWT header is not `alg: RS256, typ: JWT`.
    case unsupportedJWTHeader(algorithm: String?, type: String?)
    /// A claim the SDK needs is missing or has the wrong type.
    case missingClaim(String)
    /// The issuer does not have the form `id-signer-<env>-<region>@vital-id-….iam.gserviceaccount.com`.
    case unrecognizedIssuer(String)
    /// The issuer names an environment or region this SDK does not know.
    case unknownEnvironment(String)
    /// The auth server refused the token (`invalid_token`): it was already used, expired or revoked.
    case rejectedByServer

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .notBase64: return "the sign-in token is not Base64"
        case .notJSONObject: return "the decoded sign-in token is not a JSON object"
        case .missingField(let name): return "the sign-in token has no string field \"\(name)\""
        case .notCompactJWT(let count): return "the user token has \(count) segments, expected a JWT's 3"
        case .undecodableJWTSegment(let segment): return "the user token's \(segment) is not Base64url JSON"
        case .unsupportedJWTHeader(let algorithm, let type):
            return
                "the user token's header is alg \(algorithm ?? "(none)"), typ \(type ?? "(none)"); expected RS256, JWT"
        case .missingClaim(let name): return "the user token lacks the claim \"\(name)\""
        case .unrecognizedIssuer(let issuer): return "the user token's issuer \"\(issuer)\" is not a Junction signer"
        case .unknownEnvironment(let name): return "the user token names the unknown environment \"\(name)\""
        case .rejectedByServer:
            return "the auth server refused the sign-in token (used, expired or revoked); request a new one"
        }
    }
}

extension SignInTokenProblem: SDKError {
    /// `ErrorRecovery.reauthorize`: a new sign-in token is needed.
    public var recovery: ErrorRecovery { .reauthorize }
}
