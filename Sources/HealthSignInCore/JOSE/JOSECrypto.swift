import Foundation

#if canImport(CryptoKit)
    import CryptoKit
    import Security
#else
    import HealthSignInLibcrypto
#endif

/// The signatures of ``JWS``: CryptoKit (EC) and the Security framework (RSA) on Apple platforms, libcrypto
/// elsewhere. Keys are built from their JWK members as DER (PKCS#1 for RSA, SubjectPublicKeyInfo and SEC1 for EC).
enum JOSECrypto {
    /// The JWS signature of `input`: `R‖S` for ECDSA, the PKCS#1 v1.5 signature for RSA.
    static func sign(_ input: [UInt8], key: JSONWebKey, algorithm: JWSAlgorithm) throws(JOSEError) -> [UInt8] {
        #if canImport(CryptoKit)
            return try AppleJOSE.sign(input, key: key, algorithm: algorithm)
        #else
            return try LibcryptoJOSE.sign(input, key: key, algorithm: algorithm)
        #endif
    }

    /// Whether `signature` is `key`'s signature of `input`.
    static func verify(_ signature: [UInt8], of input: [UInt8], key: JSONWebKey, algorithm: JWSAlgorithm)
        throws(JOSEError) -> Bool
    {
        if key.keyType == .ec, signature.count != 2 * (key.coordinateWidth ?? 0) { return false }
        #if canImport(CryptoKit)
            return try AppleJOSE.verify(signature, of: input, key: key, algorithm: algorithm)
        #else
            return try LibcryptoJOSE.verify(signature, of: input, key: key, algorithm: algorithm)
        #endif
    }

    /// `RSAPublicKey ::= SEQUENCE { n, e }` (PKCS#1).
    static func rsaPublicKey(_ key: JSONWebKey) -> [UInt8] {
        DER.sequence([DER.integer(key.bytes("n")), DER.integer(key.bytes("e"))])
    }

    /// `RSAPrivateKey ::= SEQUENCE { 0, n, e, d, p, q, dp, dq, qi }` (PKCS#1).
    static func rsaPrivateKey(_ key: JSONWebKey) -> [UInt8] {
        DER.sequence([DER.integer(0)] + ["n", "e", "d", "p", "q", "dp", "dq", "qi"].map { DER.integer(key.bytes($0)) })
    }

    /// The uncompressed EC point `04‖x‖y`.
    static func ecPoint(_ key: JSONWebKey) -> [UInt8] { [0x04] + key.bytes("x") + key.bytes("y") }
}

#if canImport(CryptoKit)
    /// CryptoKit for ECDSA, whose raw signature form is JWS's; the Security framework for RSA.
    private enum AppleJOSE {
        static func sign(_ input: [UInt8], key: JSONWebKey, algorithm: JWSAlgorithm) throws(JOSEError) -> [UInt8] {
            do {
                switch algorithm {
                case .es256:
                    return Array(
                        try P256.Signing.PrivateKey(rawRepresentation: key.bytes("d")).signature(for: input)
                            .rawRepresentation)
                case .es384:
                    return Array(
                        try P384.Signing.PrivateKey(rawRepresentation: key.bytes("d")).signature(for: input)
                            .rawRepresentation)
                case .es512:
                    return Array(
                        try P521.Signing.PrivateKey(rawRepresentation: key.bytes("d")).signature(for: input)
                            .rawRepresentation)
                case .rs256, .rs384, .rs512:
                    let secKey = try rsaKey(JOSECrypto.rsaPrivateKey(key), keyClass: kSecAttrKeyClassPrivate)
                    var error: Unmanaged<CFError>?
                    guard
                        let signature = SecKeyCreateSignature(
                            secKey, rsaAlgorithm(algorithm), Data(input) as CFData, &error)
                    else { throw JOSEError.cryptographyFailed("sign with the RSA key") }
                    return Array(signature as Data)
                }
            } catch let error as JOSEError {
                throw error
            } catch {
                throw .invalidKey("the platform refused the key material")
            }
        }

        static func verify(_ signature: [UInt8], of input: [UInt8], key: JSONWebKey, algorithm: JWSAlgorithm)
            throws(JOSEError) -> Bool
        {
            do {
                switch algorithm {
                case .es256:
                    let publicKey = try P256.Signing.PublicKey(x963Representation: JOSECrypto.ecPoint(key))
                    return publicKey.isValidSignature(
                        try P256.Signing.ECDSASignature(rawRepresentation: signature), for: input)
                case .es384:
                    let publicKey = try P384.Signing.PublicKey(x963Representation: JOSECrypto.ecPoint(key))
                    return publicKey.isValidSignature(
                        try P384.Signing.ECDSASignature(rawRepresentation: signature), for: input)
                case .es512:
                    let publicKey = try P521.Signing.PublicKey(x963Representation: JOSECrypto.ecPoint(key))
                    return publicKey.isValidSignature(
                        try P521.Signing.ECDSASignature(rawRepresentation: signature), for: input)
                case .rs256, .rs384, .rs512:
                    let secKey = try rsaKey(JOSECrypto.rsaPublicKey(key), keyClass: kSecAttrKeyClassPublic)
                    var error: Unmanaged<CFError>?
                    return SecKeyVerifySignature(
                        secKey, rsaAlgorithm(algorithm), Data(input) as CFData, Data(signature) as CFData, &error)
                }
            } catch let error as JOSEError {
                throw error
            } catch {
                throw .invalidKey("the platform refused the key material")
            }
        }

        private static func rsaAlgorithm(_ algorithm: JWSAlgorithm) -> SecKeyAlgorithm {
            switch algorithm.digestBits {
            case 256: return .rsaSignatureMessagePKCS1v15SHA256
            case 384: return .rsaSignatureMessagePKCS1v15SHA384
            default: return .rsaSignatureMessagePKCS1v15SHA512
            }
        }

        private static func rsaKey(_ der: [UInt8], keyClass: CFString) throws(JOSEError) -> SecKey {
            let attributes: [CFString: Any] = [kSecAttrKeyType: kSecAttrKeyTypeRSA, kSecAttrKeyClass: keyClass]
            var error: Unmanaged<CFError>?
            guard let key = SecKeyCreateWithData(Data(der) as CFData, attributes as CFDictionary, &error) else {
                throw .invalidKey("the RSA key material is not a valid key")
            }
            return key
        }
    }
#else
    /// libcrypto's EVP interface; keys are read from DER built from the JWK members.
    private enum LibcryptoJOSE {
        static func sign(_ input: [UInt8], key: JSONWebKey, algorithm: JWSAlgorithm) throws(JOSEError) -> [UInt8] {
            let pkey = try privateKey(key)
            defer { EVP_PKEY_free(pkey) }
            guard let context = EVP_MD_CTX_new() else { throw .cryptographyFailed("allocate a digest context") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestSignInit(context, nil, digest(algorithm), nil, pkey) == 1 else {
                throw .cryptographyFailed("start signing")
            }
            var length = 0
            guard EVP_DigestSign(context, nil, &length, input, input.count) == 1 else {
                throw .cryptographyFailed("size the signature")
            }
            var signature = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &signature, &length, input, input.count) == 1 else {
                throw .cryptographyFailed("sign")
            }
            signature.removeLast(signature.count - length)
            guard key.keyType == .ec else { return signature }
            guard let raw = DER.rawSignature(fromDER: signature, width: key.coordinateWidth ?? 0) else {
                throw .cryptographyFailed("read the ECDSA signature")
            }
            return raw
        }

        static func verify(_ signature: [UInt8], of input: [UInt8], key: JSONWebKey, algorithm: JWSAlgorithm)
            throws(JOSEError) -> Bool
        {
            let pkey = try publicKey(key)
            defer { EVP_PKEY_free(pkey) }
            guard let context = EVP_MD_CTX_new() else { throw .cryptographyFailed("allocate a digest context") }
            defer { EVP_MD_CTX_free(context) }
            guard EVP_DigestVerifyInit(context, nil, digest(algorithm), nil, pkey) == 1 else {
                throw .cryptographyFailed("start verifying")
            }
            let checked = key.keyType == .ec ? DER.derSignature(fromRaw: signature) : signature
            return EVP_DigestVerify(context, checked, checked.count, input, input.count) == 1
        }

        private static func digest(_ algorithm: JWSAlgorithm) -> OpaquePointer? {
            switch algorithm.digestBits {
            case 256: return EVP_sha256()
            case 384: return EVP_sha384()
            default: return EVP_sha512()
            }
        }

        /// The curve's OID, for EC key structures.
        private static func curveOID(_ key: JSONWebKey) -> [UInt8] {
            switch key.curve {
            case "P-384": return DER.OID.p384
            case "P-521": return DER.OID.p521
            default: return DER.OID.p256
            }
        }

        private static func publicKey(_ key: JSONWebKey) throws(JOSEError) -> OpaquePointer {
            let spki: [UInt8]
            switch key.keyType {
            case .rsa:
                spki = DER.sequence([
                    DER.sequence([DER.OID.rsaEncryption, DER.null]), DER.bitString(JOSECrypto.rsaPublicKey(key)),
                ])
            case .ec:
                spki = DER.sequence([
                    DER.sequence([DER.OID.ecPublicKey, curveOID(key)]), DER.bitString(JOSECrypto.ecPoint(key)),
                ])
            }
            let pkey = spki.withUnsafeBufferPointer { buffer -> OpaquePointer? in
                var pointer: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_PUBKEY(nil, &pointer, buffer.count)
            }
            guard let pkey else { throw .invalidKey("the public key material is not a valid key") }
            return pkey
        }

        private static func privateKey(_ key: JSONWebKey) throws(JOSEError) -> OpaquePointer {
            let der: [UInt8]
            let type: Int32
            switch key.keyType {
            case .rsa:
                der = JOSECrypto.rsaPrivateKey(key)
                type = EVP_PKEY_RSA
            case .ec:
                der = DER.sequence([
                    DER.integer(1), DER.octetString(key.bytes("d")), DER.context(0, curveOID(key)),
                    DER.context(1, DER.bitString(JOSECrypto.ecPoint(key))),
                ])
                type = EVP_PKEY_EC
            }
            let pkey = der.withUnsafeBufferPointer { buffer -> OpaquePointer? in
                var pointer: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_PrivateKey(type, nil, &pointer, buffer.count)
            }
            guard let pkey else { throw .invalidKey("the private key material is not a valid key") }
            return pkey
        }
    }
#endif
