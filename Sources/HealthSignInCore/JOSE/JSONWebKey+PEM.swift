import Foundation

extension JSONWebKey {
    /// Reads a private key from PEM, as `openssl` and most key tools write it: `PRIVATE KEY` (PKCS #8, RSA or EC),
    /// `RSA PRIVATE KEY` (PKCS #1) or `EC PRIVATE KEY` (SEC 1, with its public point).
    ///
    /// - Parameters:
    ///   - pem: the PEM text; the first private key block is read.
    ///   - keyID: the `kid` the key is published under.
    ///   - algorithm: the `alg` it states, if any.
    /// - Throws: ``JOSEError/invalidKey(_:)`` for text without such a block, an encrypted key, another key type or
    ///   curve, or malformed DER; nothing of the key is in the error.
    public init(pem: String, keyID: String, algorithm: String? = nil) throws(JOSEError) {
        let (label, der) = try Self.pemBlock(pem)
        var members: JSONObject
        switch label {
        case "RSA PRIVATE KEY": members = try Self.rsaMembers(pkcs1: der)
        case "EC PRIVATE KEY": members = try Self.ecMembers(sec1: der, curve: nil)
        case "PRIVATE KEY": members = try Self.pkcs8Members(der)
        default: throw .invalidKey("the PEM block is \(label), expected a private key")
        }
        members["kid"] = .string(keyID)
        if let algorithm { members["alg"] = .string(algorithm) }
        try self.init(object: members)
    }

    private static func pemBlock(_ pem: String) throws(JOSEError) -> (String, [UInt8]) {
        let lines = pem.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        for (index, line) in lines.enumerated() where line.hasPrefix("-----BEGIN ") && line.hasSuffix("-----") {
            let label = String(line.dropFirst("-----BEGIN ".count).dropLast(5))
            guard label.hasSuffix("PRIVATE KEY") else { continue }
            guard label != "ENCRYPTED PRIVATE KEY" else {
                throw .invalidKey("the PEM key is encrypted; decrypt it first")
            }
            guard let end = lines[index...].firstIndex(of: "-----END \(label)-----") else {
                throw .invalidKey("the PEM block \(label) has no end line")
            }
            let body = lines[(index + 1)..<end]
            guard !body.contains(where: { $0.contains(":") }) else {
                throw .invalidKey("the PEM key is encrypted; decrypt it first")
            }
            guard let der = Data(base64Encoded: body.joined()) else { throw .invalidKey("the PEM body is not base64") }
            return (label, Array(der))
        }
        throw .invalidKey("the text holds no PEM private key")
    }

    /// `RSAPrivateKey ::= SEQUENCE { version, n, e, d, p, q, dp, dq, qi }`
    private static func rsaMembers(pkcs1 der: [UInt8]) throws(JOSEError) -> JSONObject {
        var outer = DER.Reader(der)
        guard let content = outer.read(tag: 0x30), outer.isAtEnd else { throw malformed }
        var reader = DER.Reader(content)
        guard reader.read(tag: 0x02) == [0] else { throw .invalidKey("the RSA key is not a two-prime key") }
        var members: JSONObject = ["kty": "RSA"]
        for name in ["n", "e", "d", "p", "q", "dp", "dq", "qi"] {
            guard let integer = reader.read(tag: 0x02) else { throw malformed }
            members[name] = .string(Base64URL.encode(Array(integer.drop { $0 == 0 })))
        }
        return members
    }

    /// `ECPrivateKey ::= SEQUENCE { 1, privateKey OCTET STRING, [0] parameters, [1] publicKey BIT STRING }`
    private static func ecMembers(sec1 der: [UInt8], curve outerCurve: String?) throws(JOSEError) -> JSONObject {
        var outer = DER.Reader(der)
        guard let content = outer.read(tag: 0x30), outer.isAtEnd else { throw malformed }
        var reader = DER.Reader(content)
        guard reader.read(tag: 0x02) == [1], let privateKey = reader.read(tag: 0x04) else { throw malformed }
        var curve = outerCurve
        if reader.nextTag == 0xA0, let parameters = reader.read(tag: 0xA0) {
            curve = DER.OID.curve(parameters) ?? curve
        }
        guard let curve, let width = ["P-256": 32, "P-384": 48, "P-521": 66][curve] else {
            throw .invalidKey("the EC key is not on P-256, P-384 or P-521")
        }
        guard reader.nextTag == 0xA1, let publicKey = reader.read(tag: 0xA1) else {
            throw .invalidKey("the EC key has no public point; write it with its public key")
        }
        var bits = DER.Reader(publicKey)
        guard let point = bits.read(tag: 0x03), point.count == 2 + 2 * width, point[0] == 0, point[1] == 0x04,
            privateKey.count <= width
        else { throw malformed }
        let d = [UInt8](repeating: 0, count: width - privateKey.count) + privateKey
        return [
            "kty": "EC", "crv": .string(curve), "x": .string(Base64URL.encode(Array(point[2..<(2 + width)]))),
            "y": .string(Base64URL.encode(Array(point[(2 + width)...]))), "d": .string(Base64URL.encode(d)),
        ]
    }

    /// `PrivateKeyInfo ::= SEQUENCE { version, AlgorithmIdentifier, privateKey OCTET STRING, ... }`
    private static func pkcs8Members(_ der: [UInt8]) throws(JOSEError) -> JSONObject {
        var outer = DER.Reader(der)
        guard let content = outer.read(tag: 0x30), outer.isAtEnd else { throw malformed }
        var reader = DER.Reader(content)
        guard reader.read(tag: 0x02) != nil, let algorithm = reader.read(tag: 0x30),
            let privateKey = reader.read(tag: 0x04)
        else { throw malformed }
        var identifier = DER.Reader(algorithm)
        guard let oid = identifier.read(tag: 0x06), oid.count < 0x80 else { throw malformed }
        let encodedOID = [0x06, UInt8(oid.count)] + oid
        if encodedOID == DER.OID.rsaEncryption { return try rsaMembers(pkcs1: privateKey) }
        guard encodedOID == DER.OID.ecPublicKey, let curveOID = identifier.read(tag: 0x06), curveOID.count < 0x80 else {
            throw .invalidKey("the PKCS #8 key is neither RSA nor EC")
        }
        return try ecMembers(sec1: privateKey, curve: DER.OID.curve([0x06, UInt8(curveOID.count)] + curveOID))
    }

    private static var malformed: JOSEError { .invalidKey("the key's DER is malformed") }
}
