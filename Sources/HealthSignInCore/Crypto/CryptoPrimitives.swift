import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#else
    import HealthSignInLibcrypto
#endif

/// The cryptographic primitives the SDK needs, behind one small API.
///
/// On Apple platforms the work is done by CryptoKit; elsewhere by the system's OpenSSL `libcrypto`.
/// Nothing here implements a hash or a MAC by hand.
public enum CryptoPrimitives {
    /// The SHA-256 digest of `message` (32 bytes).
    public static func sha256(_ message: some ContiguousBytes) -> [UInt8] {
        #if canImport(CryptoKit)
            return message.withUnsafeBytes { Array(SHA256.hash(data: $0)) }
        #else
            var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
            message.withUnsafeBytes { buffer in
                let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
                digest.withUnsafeMutableBufferPointer { out in
                    _ = SHA256(base, buffer.count, out.baseAddress)
                }
            }
            return digest
        #endif
    }

    /// The SHA-384 digest of `message` (48 bytes).
    public static func sha384(_ message: some ContiguousBytes) -> [UInt8] {
        #if canImport(CryptoKit)
            return message.withUnsafeBytes { Array(SHA384.hash(data: $0)) }
        #else
            var digest = [UInt8](repeating: 0, count: Int(SHA384_DIGEST_LENGTH))
            message.withUnsafeBytes { buffer in
                let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
                digest.withUnsafeMutableBufferPointer { out in
                    _ = SHA384(base, buffer.count, out.baseAddress)
                }
            }
            return digest
        #endif
    }

    /// The SHA-512 digest of `message` (64 bytes).
    public static func sha512(_ message: some ContiguousBytes) -> [UInt8] {
        #if canImport(CryptoKit)
            return message.withUnsafeBytes { Array(SHA512.hash(data: $0)) }
        #else
            var digest = [UInt8](repeating: 0, count: Int(SHA512_DIGEST_LENGTH))
            message.withUnsafeBytes { buffer in
                let base = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
                digest.withUnsafeMutableBufferPointer { out in
                    _ = SHA512(base, buffer.count, out.baseAddress)
                }
            }
            return digest
        #endif
    }

    /// The HMAC-SHA256 of `message` under `key` (32 bytes).
    public static func hmacSHA256(key: some ContiguousBytes, message: some ContiguousBytes) -> [UInt8] {
        #if canImport(CryptoKit)
            let symmetricKey = key.withUnsafeBytes { SymmetricKey(data: $0) }
            return message.withUnsafeBytes { Array(HMAC<SHA256>.authenticationCode(for: $0, using: symmetricKey)) }
        #else
            // libcrypto wants real pointers even for empty inputs, so empty buffers get a one-byte stand-in.
            let keyBytes = key.withUnsafeBytes { $0.isEmpty ? [0] : Array($0) }
            let keyLength = key.withUnsafeBytes { $0.count }
            let messageBytes = message.withUnsafeBytes { $0.isEmpty ? [0] : Array($0) }
            let messageLength = message.withUnsafeBytes { $0.count }
            var mac = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            keyBytes.withUnsafeBufferPointer { keyBuffer in
                messageBytes.withUnsafeBufferPointer { messageBuffer in
                    mac.withUnsafeMutableBufferPointer { out in
                        _ = HMAC(
                            EVP_sha256(), keyBuffer.baseAddress, Int32(keyLength),
                            messageBuffer.baseAddress, messageLength, out.baseAddress, &length
                        )
                    }
                }
            }
            return Array(mac.prefix(Int(length)))
        #endif
    }

    /// `count` bytes from the platform's cryptographically secure random generator.
    public static func randomBytes(count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        #if canImport(CryptoKit)
            var generator = SystemRandomNumberGenerator()
            return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        #else
            var bytes = [UInt8](repeating: 0, count: count)
            let status = bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32(count)) }
            // RAND_bytes only fails when the system entropy source is unusable; there is no safe fallback.
            precondition(status == 1, "libcrypto RAND_bytes failed; the system has no usable entropy source")
            return bytes
        #endif
    }

    /// Whether `a` and `b` hold the same bytes, in time that depends only on their lengths.
    public static func constantTimeEqual(_ a: some ContiguousBytes, _ b: some ContiguousBytes) -> Bool {
        a.withUnsafeBytes { left in
            b.withUnsafeBytes { right in
                guard left.count == right.count else { return false }
                var difference: UInt8 = 0
                for index in 0..<left.count { difference |= left[index] ^ right[index] }
                return difference == 0
            }
        }
    }
}
