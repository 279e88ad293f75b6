import Foundation

/// A JSON Web Key (RFC 7517): an RSA key (a modulus of 2048 to 8192 bits, an odd public exponent of 3 to 33 bits)
/// or an EC key on P-256, P-384 or P-521, public or with its private members.
///
/// Its description, debug description and mirror never show a private member (`d`, `p`, `q`, `dp`, `dq`, `qi`).
public struct JSONWebKey: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    /// The key type, `kty`.
    public enum KeyType: String, Sendable, Hashable {
        /// An RSA key (`n`, `e`).
        case rsa = "RSA"
        /// An elliptic-curve key (`crv`, `x`, `y`).
        case ec = "EC"
    }

    /// `kty`
    public let keyType: KeyType
    /// `kid`, when the key has one.
    public let keyID: String?
    /// `alg`, as the key states it, when it does.
    public let algorithm: String?
    /// `crv` of an EC key: `P-256`, `P-384` or `P-521`.
    public let curve: String?
    /// `use`, when the key states it.
    public let use: String?
    /// The base64url members of the key material (`n`, `e`, `x`, `y`, and the private ones), as read.
    private let material: [String: String]

    private static let privateMembers = ["d", "p", "q", "dp", "dq", "qi"]

    /// The largest RSA modulus a key may have, in bits.
    ///
    /// Verifying costs time that grows with the square of the modulus, and a key set comes from a server: without a
    /// bound, one key could make every verification slow. 4096 bits is the usual largest key; some issuers use 8192,
    /// which is also the largest modulus ring's RSA verifier accepts.
    public static let maximumRSAModulusBits = 8192

    /// The largest RSA public exponent a key may have, in bits: the bound BoringSSL and ring use.
    ///
    /// Verification time also grows with the exponent's length. Every exponent in use fits: 3, 65537 (the standard,
    /// 17 bits) and 2^32 + 1 (33 bits).
    public static let maximumRSAExponentBits = 33

    /// Reads a key from its JSON object.
    ///
    /// - Throws: ``JOSEError/invalidKey(_:)`` for another `kty` or curve, a missing or malformed member, or an RSA key
    ///   outside the bounds (``maximumRSAModulusBits``, ``maximumRSAExponentBits``).
    public init(json: Data) throws(JOSEError) {
        let value: JSONValue
        do { value = try JSONValue.parse(json) } catch { throw .invalidKey("it is not JSON") }
        guard let object = value.objectValue else { throw .invalidKey("it is not a JSON object") }
        try self.init(object: object)
    }

    /// Reads a key from a JSON object.
    ///
    /// - Throws: ``JOSEError/invalidKey(_:)`` as ``init(json:)`` does.
    public init(object: JSONObject) throws(JOSEError) {
        guard let type = object["kty"]?.stringValue else { throw .invalidKey("it has no \"kty\"") }
        guard let keyType = KeyType(rawValue: type) else {
            throw .invalidKey("\"kty\" is \"\(type)\", expected RSA or EC")
        }
        self.keyType = keyType
        keyID = object["kid"]?.stringValue
        algorithm = object["alg"]?.stringValue
        use = object["use"]?.stringValue
        let required: [String]
        switch keyType {
        case .rsa:
            curve = nil
            required = ["n", "e"]
        case .ec:
            guard let curve = object["crv"]?.stringValue, ["P-256", "P-384", "P-521"].contains(curve) else {
                throw .invalidKey("\"crv\" is not P-256, P-384 or P-521")
            }
            self.curve = curve
            required = ["x", "y"]
        }
        var material: [String: String] = [:]
        for name in required + Self.privateMembers {
            guard let text = object[name]?.stringValue else {
                if required.contains(name) { throw .invalidKey("it has no \"\(name)\"") }
                continue
            }
            guard Base64URL.decode(text) != nil else { throw .invalidKey("\"\(name)\" is not base64url") }
            material[name] = text
        }
        if keyType == .rsa, material["d"] != nil,
            !["p", "q", "dp", "dq", "qi"].allSatisfy({ material[$0] != nil })
        {
            throw .invalidKey("a private RSA key needs \"p\", \"q\", \"dp\", \"dq\" and \"qi\" beside \"d\"")
        }
        self.material = material
        if keyType == .rsa {
            try Self.checkRSAParameters(modulus: bytes("n"), exponent: bytes("e"))
            let modulusBits = Self.bitLength(bytes("n"))
            for name in Self.privateMembers where Self.bitLength(bytes(name)) > modulusBits {
                throw .invalidKey("\"\(name)\" is longer than the RSA modulus")
            }
        }
        if let width = coordinateWidth {
            for name in ["x", "y", "d"] where material[name] != nil && bytes(name).count != width {
                throw .invalidKey("\"\(name)\" is not \(width) bytes for \(curve ?? "")")
            }
        }
    }

    /// Refuses an RSA key whose signatures anyone could make or break: a modulus under 2048 bits by its value (so
    /// leading zero octets do not count), or a public exponent that is even or 1 (with `e = 1` the signature is the
    /// padded message itself); and one that would make each verification slow: a modulus over
    /// ``maximumRSAModulusBits`` or an exponent over ``maximumRSAExponentBits``.
    private static func checkRSAParameters(modulus: [UInt8], exponent: [UInt8]) throws(JOSEError) {
        let bits = bitLength(modulus)
        guard bits >= 2048 else { throw .invalidKey("the RSA modulus has \(bits) bits, at least 2048 are needed") }
        guard bits <= maximumRSAModulusBits else {
            throw .invalidKey("the RSA modulus has \(bits) bits, at most \(maximumRSAModulusBits) are accepted")
        }
        let exponentBits = bitLength(exponent)
        guard exponentBits <= maximumRSAExponentBits else {
            throw .invalidKey(
                "the RSA public exponent has \(exponentBits) bits, at most \(maximumRSAExponentBits) are accepted")
        }
        guard let last = exponent.last, last & 1 == 1, exponentBits > 1 else {
            throw .invalidKey("the RSA public exponent is not odd and at least 3")
        }
    }

    /// The number of bits of a big-endian unsigned integer.
    private static func bitLength(_ bytes: [UInt8]) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return (bytes.count - first - 1) * 8 + (8 - bytes[first].leadingZeroBitCount)
    }

    /// Whether the key holds its private part, so it can sign.
    public var isPrivate: Bool { material["d"] != nil }

    /// The key without its private members, as a JWKS publishes it.
    public var publicKey: JSONWebKey {
        JSONWebKey(
            keyType: keyType, keyID: keyID, algorithm: algorithm, curve: curve, use: use,
            material: material.filter { !Self.privateMembers.contains($0.key) })
    }

    private init(
        keyType: KeyType, keyID: String?, algorithm: String?, curve: String?, use: String?, material: [String: String]
    ) {
        self.keyType = keyType
        self.keyID = keyID
        self.algorithm = algorithm
        self.curve = curve
        self.use = use
        self.material = material
    }

    /// The public members as a JWK object, as a key set publishes them: `kty`, `kid`, `crv`, `n` and `e` or `x` and
    /// `y`, and `alg` and `use` when the key states them. No private member is ever among them.
    public var publicMembers: JSONObject {
        var object: JSONObject = ["kty": .string(keyType.rawValue)]
        for (name, value) in [("kid", keyID), ("alg", algorithm), ("use", use), ("crv", curve)] {
            if let value { object[name] = .string(value) }
        }
        for name in ["n", "e", "x", "y"] { if let value = material[name] { object[name] = .string(value) } }
        return object
    }

    /// The RFC 7638 thumbprint: SHA-256 of the required members in lexical order, base64url.
    public var thumbprint: String {
        let members: [(String, String)]
        switch keyType {
        case .rsa: members = [("e", material["e"] ?? ""), ("kty", "RSA"), ("n", material["n"] ?? "")]
        case .ec:
            members = [
                ("crv", curve ?? ""), ("kty", "EC"), ("x", material["x"] ?? ""), ("y", material["y"] ?? ""),
            ]
        }
        let json = "{" + members.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",") + "}"
        return Base64URL.encode(CryptoPrimitives.sha256(Data(json.utf8)))
    }

    /// A base64url member of the key material as read (`n`, `e`, `x`, `y`, or a private one), for the test kit's
    /// servers, which publish their own keys.
    package func member(_ name: String) -> String? { material[name] }

    /// The decoded bytes of a member (empty when absent).
    func bytes(_ member: String) -> [UInt8] { material[member].flatMap(Base64URL.decode).map(Array.init) ?? [] }

    /// The byte width of an EC key's coordinates, or nil for RSA.
    var coordinateWidth: Int? {
        switch curve {
        case "P-256": return 32
        case "P-384": return 48
        case "P-521": return 66
        default: return nil
        }
    }

    /// `JSONWebKey(kty: EC, kid: …, crv: P-384, private)`: the public facts, never key material.
    public var description: String {
        var parts = ["kty: \(keyType.rawValue)"]
        if let keyID { parts.append("kid: \(keyID)") }
        if let algorithm { parts.append("alg: \(algorithm)") }
        if let curve { parts.append("crv: \(curve)") }
        parts.append(isPrivate ? "private" : "public")
        return "JSONWebKey(" + parts.joined(separator: ", ") + ")"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror with only the public facts.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "keyType": keyType.rawValue, "keyID": keyID as Any, "algorithm": algorithm as Any,
                "curve": curve as Any, "isPrivate": isPrivate,
            ], displayStyle: .struct)
    }
}

/// A JSON Web Key Set (RFC 7517 §5): the keys a server or client publishes.
public struct JSONWebKeySet: Sendable, Equatable {
    /// The keys of a type this SDK uses (RSA, EC on P-256, P-384 or P-521); others are skipped.
    public let keys: [JSONWebKey]

    /// The set of `keys`.
    public init(keys: [JSONWebKey]) { self.keys = keys }

    /// Reads `{"keys": [...]}`; keys of other types or curves are skipped, as RFC 7517 §5 asks.
    ///
    /// - Throws: ``JOSEError/invalidKey(_:)`` when the JSON is not a key set.
    public init(json: Data) throws(JOSEError) {
        let value: JSONValue
        do { value = try JSONValue.parse(json) } catch { throw .invalidKey("the key set is not JSON") }
        guard let entries = value["keys"]?.arrayValue else { throw .invalidKey("the key set has no \"keys\" array") }
        keys = entries.compactMap { $0.objectValue.flatMap { try? JSONWebKey(object: $0) } }
    }

    /// The one key that can verify `algorithm` signatures with `keyID` (any key of the right type when `keyID` is
    /// nil), or nil when there is none or more than one.
    public func key(for algorithm: JWSAlgorithm, keyID: String?) -> JSONWebKey? {
        let candidates = keys.filter { key in
            algorithm.fits(key) && (keyID == nil || key.keyID == keyID)
                && (key.algorithm ?? algorithm.rawValue)
                    == algorithm.rawValue
                && key.use != "enc"
        }
        return candidates.count == 1 ? candidates[0] : nil
    }
}
