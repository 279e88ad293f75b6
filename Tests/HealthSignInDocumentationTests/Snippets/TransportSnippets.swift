// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInCore

// The code of the README's section on the Linux transport.

#if canImport(Glibc)
    func curlTransportExample() -> CurlHTTPTransport {
        // snippet curl-transport
        let transport = CurlHTTPTransport(
            configuration: .init(
                timeout: 10, maximumIdleConnections: 64, maximumConnectionsPerHost: 8,
                proxy: .proxy(URL(string: "http://proxy.hospital.example:3128")!, bypass: ["fhir.internal"])))
        // end snippet
        return transport
    }
#endif
