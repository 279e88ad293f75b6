#if canImport(Glibc) && canImport(HealthSignInLibcrypto)
    import Foundation
    import HealthSignInLibcrypto

    /// The TLS settings every connection of a transport shares (an OpenSSL `SSL_CTX`): TLS 1.2 or later, the peer's
    /// certificate verified against the system's authorities and any the configuration adds.
    final class TLSContext: @unchecked Sendable {
        // @unchecked: the context is configured once in init and only read afterwards, which OpenSSL allows from
        // any thread.
        let context: OpaquePointer

        /// - Throws: a reason when OpenSSL cannot make the context or read `authoritiesFile`.
        init(authoritiesFile: String?) throws(TLSSetupError) {
            guard let context = SSL_CTX_new(TLS_client_method()) else { throw TLSSetupError("no TLS context") }
            self.context = context
            guard healthsignin_ssl_ctx_set_min_tls12(context) == 1 else { throw TLSSetupError("TLS 1.2 unavailable") }
            SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
            guard SSL_CTX_set_default_verify_paths(context) == 1 else {
                throw TLSSetupError("the system's certificate authorities could not be loaded")
            }
            if let authoritiesFile, SSL_CTX_load_verify_locations(context, authoritiesFile, nil) != 1 {
                throw TLSSetupError("the certificate authorities in \(authoritiesFile) could not be loaded")
            }
        }

        deinit { SSL_CTX_free(context) }
    }

    /// Why a transport's TLS settings could not be made.
    struct TLSSetupError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// A TLS client connection over a ``TCPConnection``.
    ///
    /// OpenSSL works on two memory buffers and this class moves bytes between them and the socket, so every wait
    /// is the connection's (bounded by the deadline, ended by a stop) and no write can raise `SIGPIPE`.
    final class TLSChannel: ByteChannel {
        private let connection: TCPConnection
        private let ssl: OpaquePointer
        /// What arrived from the peer, for OpenSSL to read; owned by `ssl`.
        private let incoming: OpaquePointer
        /// What OpenSSL wrote for the peer; owned by `ssl`.
        private let outgoing: OpaquePointer
        private let url: URL
        private var peerClosed = false
        private var scratch = [UInt8](repeating: 0, count: 16_384)

        /// Connects with TLS, checking that the peer's certificate is valid for `host`.
        init(connection: TCPConnection, context: TLSContext, host: String, url: URL) throws {
            guard let ssl = SSL_new(context.context), let incoming = BIO_new(BIO_s_mem()),
                let outgoing = BIO_new(BIO_s_mem())
            else { throw TransportError(.insecureConnection, url: url, detail: "TLS could not be set up") }
            SSL_set_bio(ssl, incoming, outgoing)
            self.connection = connection
            self.ssl = ssl
            self.incoming = incoming
            self.outgoing = outgoing
            self.url = url
            SSL_set_connect_state(ssl)
            let named: Bool
            if Self.isIPAddress(host) {
                named = X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host) == 1
            } else {
                named = healthsignin_ssl_set_server_name(ssl, host) == 1 && SSL_set1_host(ssl, host) == 1
            }
            guard named else { throw TransportError(.insecureConnection, url: url, detail: "bad TLS host name") }
            try handshake()
        }

        deinit { SSL_free(ssl) }

        private static func isIPAddress(_ host: String) -> Bool {
            var address = in6_addr()
            return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
        }

        private func handshake() throws {
            while true {
                ERR_clear_error()
                let result = SSL_do_handshake(ssl)
                try flush()
                if result == 1 { return }
                switch SSL_get_error(ssl, result) {
                case SSL_ERROR_WANT_READ:
                    guard try fill() else { throw failure("the server closed the connection during the handshake") }
                case SSL_ERROR_WANT_WRITE: continue
                default:
                    let verification = SSL_get_verify_result(ssl)
                    if verification != X509_V_OK {
                        let reason = X509_verify_cert_error_string(verification).map { String(cString: $0) }
                        throw failure("the server's certificate was refused: \(reason ?? "code \(verification)")")
                    }
                    throw failure("the TLS handshake failed")
                }
            }
        }

        func write(_ data: Data) throws {
            var offset = 0
            while offset < data.count {
                ERR_clear_error()
                let written = data.withUnsafeBytes { buffer -> Int32 in
                    guard let base = buffer.baseAddress else { return 0 }
                    return SSL_write(ssl, base + offset, Int32(min(buffer.count - offset, 16_384)))
                }
                try flush()
                if written > 0 {
                    offset += Int(written)
                    continue
                }
                switch SSL_get_error(ssl, written) {
                case SSL_ERROR_WANT_READ:
                    guard try fill() else { throw lost("the server closed the connection") }
                case SSL_ERROR_WANT_WRITE: continue
                default: throw lost("TLS failed while sending")
                }
            }
        }

        func read(into buffer: inout [UInt8]) throws -> Int {
            while true {
                ERR_clear_error()
                let count = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
                try flush()
                if count > 0 { return Int(count) }
                switch SSL_get_error(ssl, count) {
                case SSL_ERROR_ZERO_RETURN: return 0
                case SSL_ERROR_WANT_READ:
                    // A close without TLS's close_notify ends the stream too; the response's framing tells
                    // whether it was complete.
                    guard try fill() else { return 0 }
                case SSL_ERROR_WANT_WRITE: continue
                default: throw lost("TLS failed while receiving")
                }
            }
        }

        /// Sends what OpenSSL has written for the peer.
        private func flush() throws {
            while BIO_ctrl_pending(outgoing) > 0 {
                let count = scratch.withUnsafeMutableBytes { BIO_read(outgoing, $0.baseAddress, Int32($0.count)) }
                guard count > 0 else { return }
                try connection.write(Data(scratch[..<Int(count)]))
            }
        }

        /// Hands OpenSSL what arrives next from the peer; false once the peer closed the connection.
        private func fill() throws -> Bool {
            guard !peerClosed else { return false }
            let count = try connection.read(into: &scratch)
            guard count > 0 else {
                peerClosed = true
                return false
            }
            let written = scratch.withUnsafeBytes { BIO_write(incoming, $0.baseAddress, Int32(count)) }
            guard written == Int32(count) else { throw lost("TLS could not take the received bytes") }
            return true
        }

        private func failure(_ detail: String) -> TransportError {
            TransportError(.insecureConnection, url: url, detail: detail)
        }

        private func lost(_ detail: String) -> TransportError {
            TransportError(.connectionLost, url: url, detail: detail)
        }
    }
#endif
