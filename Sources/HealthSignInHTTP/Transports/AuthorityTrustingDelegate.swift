#if canImport(Security)
    import Foundation
    import Security

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The delegate of ``DefaultHTTPTransport`` on Apple platforms when it is given extra certificate authorities:
    /// the server's trust is evaluated with the system's authorities and those of a PEM file.
    final class AuthorityTrustingDelegate: URLSessionHTTPTransportDelegate, @unchecked Sendable {
        // @unchecked: `anchors` is set once in `init` and only read after.
        /// The file's certificates, or nil when it cannot be read, which fails every TLS connection.
        private let anchors: [SecCertificate]?

        init(authorities file: URL) {
            anchors = (try? String(contentsOf: file, encoding: .utf8)).flatMap(Self.certificates(inPEM:))
            super.init()
        }

        override func urlSession(
            _ session: URLSession, didReceive challenge: URLAuthenticationChallenge,
            completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
        ) {
            // Only a server trust challenge carries a trust to evaluate.
            guard let trust = challenge.protectionSpace.serverTrust else {
                return completionHandler(.performDefaultHandling, nil)
            }
            guard let anchors, SecTrustSetAnchorCertificates(trust, anchors as CFArray) == errSecSuccess,
                SecTrustSetAnchorCertificatesOnly(trust, false) == errSecSuccess,
                SecTrustEvaluateWithError(trust, nil)
            else { return completionHandler(.cancelAuthenticationChallenge, nil) }
            completionHandler(.useCredential, URLCredential(trust: trust))
        }

        /// The certificates of a PEM file, or nil when it holds none or one that is not a certificate.
        private static func certificates(inPEM text: String) -> [SecCertificate]? {
            var certificates: [SecCertificate] = []
            var base64: String?
            for line in text.split(whereSeparator: \.isNewline).map({ $0.trimmingCharacters(in: .whitespaces) }) {
                if line == "-----BEGIN CERTIFICATE-----" {
                    base64 = ""
                } else if line == "-----END CERTIFICATE-----" {
                    guard let body = base64, let der = Data(base64Encoded: body),
                        let certificate = SecCertificateCreateWithData(nil, der as CFData)
                    else { return nil }
                    certificates.append(certificate)
                    base64 = nil
                } else if base64 != nil {
                    base64? += line
                }
            }
            return certificates.isEmpty ? nil : certificates
        }
    }
#endif
