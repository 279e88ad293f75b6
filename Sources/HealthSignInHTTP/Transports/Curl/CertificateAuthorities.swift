#if canImport(HealthSignInLibcurl)
    import Foundation
    import HealthSignInLibcurl

    /// The certificate authorities a ``CurlHTTPTransport`` trusts: the system's and those of its extra file, read
    /// once into one OpenSSL store that every handshake of its engine's connections shares.
    final class CertificateAuthorities: @unchecked Sendable {
        // @unchecked: the store is made in `init`, never changed after, and OpenSSL locks its own reads of it.
        /// The store, or nil when an authorities file cannot be read.
        let store: OpaquePointer?
        /// Why the store could not be made, for the error of each `https` request.
        let problem: String?

        init(additional file: String?) {
            store = healthsignin_make_store(file)
            problem =
                store != nil
                ? nil
                : file.map { "the certificate authorities file \($0) cannot be read" }
                    ?? "the system's certificate authorities cannot be read"
        }

        deinit {
            if let store { X509_STORE_free(store) }
        }
    }
#endif
