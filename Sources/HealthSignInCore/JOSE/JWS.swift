import Foundation

/// A JWS signature algorithm this SDK signs and verifies (RFC 7518 §3).
public enum JWSAlgorithm: String, Sendable, Hashable, CaseIterable {
    /// ECDSA on P-256 with SHA-256.
    case es256 = "ES256"
    /// ECDSA on P-384 with SHA-384 (SMART's asymmetric client authentication).
    case es384 = "ES384"
    /// RSASSA-PKCS1-v1_5 with SHA-256 (the usual `id_token` signature).
    case rs256 = "RS256"
    /// RSASSA-PKCS1-v1_5 with SHA-384 (SMART's asymmetric client authentication).
    case rs384 = "RS384"
    /// ECDSA on P-521 with SHA-512 (which HTI launch receivers accept).
    case es512 = "ES512"
    /// RSASSA-PKCS1-v1_5 with SHA-512 (Koppeltaal 2.0's client assertions and launch tokens).
    case rs512 = "RS512"

    /// The bits of the SHA-2 digest the algorithm signs: 256, 384 or 512.
    public var digestBits: Int {
        switch self {
        case .es256, .rs256: return 256
        case .es384, .rs384: return 384
        case .es512, .rs512: return 512
        }
    }

    /// The curve of an ECDSA algorithm (`P-256`, `P-384`, `P-521`), nil for RSA.
    public var curve: String? {
        switch self {
        case .es256: return "P-256"
        case .es384: return "P-384"
        case .es512: return "P-521"
        case .rs256, .rs384, .rs512: return nil
        }
    }

    /// Whether `key` can make or check this algorithm's signatures: its type and, for EC, its curve (an RSA key's
    /// size and exponent were checked when it was read).
    public func fits(_ key: JSONWebKey) -> Bool {
        guard let curve else { return key.keyType == .rsa }
        return key.keyType == .ec && key.curve == curve
    }

    /// The SHA-2 digest of `message` this algorithm signs.
    public func digest(_ message: [UInt8]) -> [UInt8] {
        switch digestBits {
        case 256: return CryptoPrimitives.sha256(message)
        case 384: return CryptoPrimitives.sha384(message)
        default: return CryptoPrimitives.sha512(message)
        }
    }
}

/// JSON Web Signatures in compact serialization (RFC 7515 §7.1): `header.payload.signature`, each base64url.
public enum JWS {
    /// Signs `payload` under `header` (both the exact JSON bytes to sign, so the result is reproducible) with
    /// `key`'s private part.
    ///
    /// - Throws: ``JOSEError/keyDoesNotFitAlgorithm(_:)`` when `key` is public or of another type or curve.
    public static func sign(header: Data, payload: Data, key: JSONWebKey, algorithm: JWSAlgorithm) throws(JOSEError)
        -> String
    {
        guard key.isPrivate, algorithm.fits(key) else { throw .keyDoesNotFitAlgorithm(algorithm) }
        let input = Base64URL.encode(header) + "." + Base64URL.encode(payload)
        let signature = try JOSECrypto.sign(Array(input.utf8), key: key, algorithm: algorithm)
        return input + "." + Base64URL.encode(signature)
    }

    /// A token's parts, read without checking anything.
    public struct Parts: Sendable {
        /// The protected header.
        public let header: JSONObject
        /// `alg` from the header.
        public let algorithm: String
        /// `kid` from the header, when it has one.
        public let keyID: String?
        /// The payload's bytes.
        public let payload: Data
        /// What was signed: `header.payload` as received.
        let signingInput: [UInt8]
        /// The signature's bytes.
        let signature: [UInt8]
    }

    /// Splits a compact JWS into its parts.
    ///
    /// - Throws: ``JOSEError/malformedToken(_:)`` unless it has three base64url parts and a JSON object header with
    ///   a string `alg`.
    public static func parts(of token: String) throws(JOSEError) -> Parts {
        let pieces = token.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count == 3 else { throw .malformedToken("it has \(pieces.count) parts, expected 3") }
        guard let headerBytes = Base64URL.decode(String(pieces[0])),
            let payload = Base64URL.decode(String(pieces[1])), let signature = Base64URL.decode(String(pieces[2]))
        else { throw .malformedToken("a part is not base64url") }
        guard let header = (try? JSONValue.parse(headerBytes))?.objectValue else {
            throw .malformedToken("the header is not a JSON object")
        }
        guard let algorithm = header["alg"]?.stringValue else { throw .malformedToken("the header has no \"alg\"") }
        return Parts(
            header: header, algorithm: algorithm, keyID: header["kid"]?.stringValue, payload: payload,
            signingInput: Array(pieces[0].utf8) + [UInt8(ascii: ".")] + Array(pieces[1].utf8),
            signature: Array(signature))
    }

    /// Verifies `token` with `key` and returns its parts.
    ///
    /// - Parameters:
    ///   - token: a compact JWS.
    ///   - key: the public (or private) key whose signature it should carry.
    ///   - algorithms: the algorithms the caller accepts; a token signed otherwise is refused before any key is used
    ///     (so `none` or an HMAC algorithm never passes).
    /// - Throws: ``JOSEError`` when the token is malformed, its algorithm is not accepted or does not fit `key`, its
    ///   header marks an extension critical (`crit`), or the signature does not verify.
    @discardableResult
    public static func verify(_ token: String, key: JSONWebKey, algorithms: Set<JWSAlgorithm>) throws(JOSEError)
        -> Parts
    {
        let parts = try parts(of: token)
        guard let algorithm = JWSAlgorithm(rawValue: parts.algorithm), algorithms.contains(algorithm) else {
            throw .algorithmNotAccepted(parts.algorithm)
        }
        // RFC 7515 §4.1.11: a header extension marked critical must be understood, and this verifier knows none.
        if let critical = parts.header["crit"] {
            throw .unsupportedCriticalHeader(critical.arrayValue?.compactMap(\.stringValue) ?? [])
        }
        guard algorithm.fits(key) else { throw .keyDoesNotFitAlgorithm(algorithm) }
        guard try JOSECrypto.verify(parts.signature, of: parts.signingInput, key: key, algorithm: algorithm) else {
            throw .invalidSignature
        }
        return parts
    }
}
