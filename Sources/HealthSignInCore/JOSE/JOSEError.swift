/// A JSON Web Key or JSON Web Signature could not be used.
public enum JOSEError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The key's JSON is not a usable key; the reason names the member (never a private value).
    case invalidKey(String)
    /// The token is not a compact JWS (three base64url parts, a JSON object header).
    case malformedToken(String)
    /// The token's `alg` is not one the caller accepts.
    case algorithmNotAccepted(String)
    /// The key cannot make or check signatures of this algorithm (an EC key for RS256, a P-256 key for ES384).
    case keyDoesNotFitAlgorithm(JWSAlgorithm)
    /// The header marks extensions critical (`crit`, RFC 7515 §4.1.11) that this verifier does not understand; the
    /// names listed, when `crit` is an array of strings.
    case unsupportedCriticalHeader([String])
    /// The signature does not verify.
    case invalidSignature
    /// The platform's cryptography refused the operation.
    case cryptographyFailed(String)
    /// An assertion's times cannot be written: its lifetime is not a number, or the clock's time is not a date.
    case invalidTime(String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .invalidKey(let reason): return "The JSON Web Key cannot be used: \(reason)"
        case .malformedToken(let reason): return "The token is not a compact JWS: \(reason)"
        case .algorithmNotAccepted(let algorithm): return "The token is signed with \(algorithm), which is not accepted"
        case .keyDoesNotFitAlgorithm(let algorithm): return "The key cannot be used with \(algorithm.rawValue)"
        case .unsupportedCriticalHeader(let names):
            return
                "The token marks header extensions critical that are not understood: \(names.joined(separator: ", "))"
        case .invalidSignature: return "The token's signature does not verify"
        case .cryptographyFailed(let operation): return "The platform's cryptography failed to \(operation)"
        case .invalidTime(let reason): return "The assertion's times cannot be written: \(reason)"
        }
    }
}

extension JOSEError: SDKError {
    /// `ErrorRecovery.reconfigure` for a key, lifetime or clock that cannot be used, `ErrorRecovery.none` for a
    /// token that fails.
    public var recovery: ErrorRecovery {
        switch self {
        case .invalidKey, .keyDoesNotFitAlgorithm, .invalidTime: return .reconfigure
        case .malformedToken, .algorithmNotAccepted, .unsupportedCriticalHeader, .invalidSignature, .cryptographyFailed:
            return .none
        }
    }
}
