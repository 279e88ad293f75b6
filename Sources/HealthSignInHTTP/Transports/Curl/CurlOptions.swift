#if canImport(HealthSignInLibcurl)
    import Foundation
    import HealthSignInLibcurl

    /// Sets an easy handle's options, turning a refusal into a typed error (an option this libcurl does not know,
    /// or a value it refuses).
    struct CurlOptions {
        let handle: UnsafeMutableRawPointer
        let url: URL

        func set(_ option: CURLoption, _ value: Int) throws {
            try check(healthsignin_easy_setopt_long(handle, option, value), "option \(option.rawValue)")
        }

        func set(_ option: CURLoption, size value: Int) throws {
            try check(healthsignin_easy_setopt_off(handle, option, value), "option \(option.rawValue)")
        }

        /// Sets a string option; libcurl copies it.
        func set(_ option: CURLoption, _ value: String) throws {
            let code = value.withCString { healthsignin_easy_setopt_pointer(handle, option, $0) }
            try check(code, "option \(option.rawValue)")
        }

        func check(_ code: CURLcode, _ what: String) throws {
            guard code == CURLE_OK else {
                throw TransportError(
                    .other, url: url, detail: "libcurl refused \(what): \(String(cString: curl_easy_strerror(code)))")
            }
        }
    }

    /// libcurl's result codes as the SDK's transport errors.
    enum CurlError {
        static func transportError(_ code: CURLcode, url: URL) -> TransportError {
            let message = String(cString: curl_easy_strerror(code))
            switch code {
            case CURLE_OPERATION_TIMEDOUT:
                return TransportError(.timedOut, url: url, detail: "no response within the timeout")
            case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT:
                return TransportError(.cannotConnect, url: url, detail: message)
            case CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CONNECT_ERROR, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
                CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
                CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED:
                return TransportError(.insecureConnection, url: url, detail: message)
            case CURLE_PARTIAL_FILE, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_GOT_NOTHING, CURLE_HTTP2,
                CURLE_HTTP2_STREAM, CURLE_HTTP3:
                return TransportError(.connectionLost, url: url, detail: "the response was not complete: \(message)")
            case CURLE_FILESIZE_EXCEEDED:
                return TransportError(.responseTooLarge, url: url, detail: message)
            case CURLE_BAD_CONTENT_ENCODING:
                return TransportError(.unrequestedEncoding, url: url, detail: message)
            default:
                return TransportError(.other, url: url, detail: message)
            }
        }
    }
#endif
