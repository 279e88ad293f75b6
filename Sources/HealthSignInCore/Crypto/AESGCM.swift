import Foundation

#if canImport(CryptoKit)
    import CryptoKit
#else
    import HealthSignInLibcrypto
#endif

/// AES-256-GCM with a 12-byte nonce and a 16-byte tag: CryptoKit on Apple platforms, libcrypto's EVP elsewhere.
package enum AESGCM256 {
    /// `plaintext` sealed under `key` (32 bytes) with `nonce` (12 bytes), authenticating `associated` too: the
    /// ciphertext followed by the tag, or nil when the cipher failed.
    package static func seal(_ plaintext: Data, key: [UInt8], nonce: [UInt8], associated: Data) -> Data? {
        guard key.count == 32, nonce.count == 12 else { return nil }
        #if canImport(CryptoKit)
            guard let gcmNonce = try? AES.GCM.Nonce(data: nonce),
                let box = try? AES.GCM.seal(
                    plaintext, using: SymmetricKey(data: key), nonce: gcmNonce, authenticating: associated)
            else { return nil }
            return box.ciphertext + box.tag
        #else
            return run(encrypting: true, plaintext, key: key, nonce: nonce, associated: associated, tag: nil)
        #endif
    }

    /// The plaintext of `sealed` (ciphertext followed by the tag), or nil when it does not open: a wrong key, nonce
    /// or associated data, or bytes changed.
    package static func open(_ sealed: Data, key: [UInt8], nonce: [UInt8], associated: Data) -> Data? {
        guard key.count == 32, nonce.count == 12, sealed.count >= 16 else { return nil }
        let ciphertext = sealed.prefix(sealed.count - 16)
        let tag = sealed.suffix(16)
        #if canImport(CryptoKit)
            guard let gcmNonce = try? AES.GCM.Nonce(data: nonce),
                let box = try? AES.GCM.SealedBox(nonce: gcmNonce, ciphertext: ciphertext, tag: tag)
            else { return nil }
            return try? AES.GCM.open(box, using: SymmetricKey(data: key), authenticating: associated)
        #else
            return run(
                encrypting: false, Data(ciphertext), key: key, nonce: nonce, associated: associated, tag: Data(tag))
        #endif
    }

    #if !canImport(CryptoKit)
        /// One EVP pass; for decryption `tag` is checked at the end, and nil returned when it does not match.
        private static func run(
            encrypting: Bool, _ input: Data, key: [UInt8], nonce: [UInt8], associated: Data, tag: Data?
        ) -> Data? {
            guard let context = EVP_CIPHER_CTX_new() else { return nil }
            defer { EVP_CIPHER_CTX_free(context) }
            let initialize = encrypting ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
            guard initialize(context, EVP_aes_256_gcm(), nil, nil, nil) == 1,
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, 12, nil) == 1,
                initialize(context, nil, nil, key, nonce) == 1
            else { return nil }
            let update = encrypting ? EVP_EncryptUpdate : EVP_DecryptUpdate
            var length: Int32 = 0
            if !associated.isEmpty {
                let added = associated.withUnsafeBytes { buffer in
                    update(
                        context, nil, &length, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        Int32(buffer.count))
                }
                guard added == 1 else { return nil }
            }
            var output = [UInt8](repeating: 0, count: input.count + 16)
            var written: Int32 = 0
            if !input.isEmpty {
                let updated = input.withUnsafeBytes { buffer in
                    update(
                        context, &output, &written, buffer.baseAddress?.assumingMemoryBound(to: UInt8.self),
                        Int32(buffer.count))
                }
                guard updated == 1 else { return nil }
            }
            if var tag {
                let set = tag.withUnsafeMutableBytes {
                    EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, 16, $0.baseAddress)
                }
                guard set == 1 else { return nil }
                var final: Int32 = 0
                let finished = output.withUnsafeMutableBufferPointer {
                    EVP_DecryptFinal_ex(context, $0.baseAddress.map { $0 + Int(written) }, &final)
                }
                guard finished == 1 else { return nil }
                return Data(output[0..<Int(written + final)])
            }
            var final: Int32 = 0
            let finished = output.withUnsafeMutableBufferPointer {
                EVP_EncryptFinal_ex(context, $0.baseAddress.map { $0 + Int(written) }, &final)
            }
            guard finished == 1 else { return nil }
            var tagBytes = [UInt8](repeating: 0, count: 16)
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tagBytes) == 1 else { return nil }
            return Data(output[0..<Int(written + final)]) + Data(tagBytes)
        }
    #endif
}
