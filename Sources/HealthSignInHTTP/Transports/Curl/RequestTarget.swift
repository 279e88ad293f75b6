import Foundation

/// Where a request goes, checked before anything is sent so that the host connected to is the host the URL names.
struct RequestTarget: Sendable {
    /// The URL as it is sent.
    let url: String
    /// The host, without an IPv6 literal's brackets.
    let host: String
    /// Whether the host is an IP address literal.
    let isAddress: Bool
    /// The port, given or the scheme's.
    let port: Int
    /// Whether the scheme is `https`.
    let isHTTPS: Bool

    /// - Throws: ``RequestEncodingError/invalidURL(_:)`` for a URL that is not `http` or `https`, whose host is empty
    ///   or holds anything but ASCII letters, digits, `-`, `.` (or an IPv6 literal), whose port is not 1 to 65535, or
    ///   that carries userinfo (libcurl would send it as `Authorization: Basic`).
    init(_ url: URL) throws(RequestEncodingError) {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { throw .invalidURL("only http and https URLs can be sent") }
        try HTTPRequestMessage(method: .get, url: url).checkNoUserinfo()
        guard let encodedHost = components.percentEncodedHost, !encodedHost.isEmpty else {
            throw .invalidURL("the URL has no host")
        }
        isHTTPS = scheme == "https"
        if encodedHost.hasPrefix("[") {
            let literal = String(encodedHost.dropFirst().dropLast())
            guard encodedHost.hasSuffix("]"), Self.isIPv6(literal) else {
                throw .invalidURL("the host \(Self.printable(encodedHost)) is not an IPv6 address")
            }
            host = literal
            isAddress = true
        } else {
            guard encodedHost.utf8.allSatisfy(Self.isHostByte) else {
                throw .invalidURL(
                    "the host \(Self.printable(encodedHost)) holds characters other than ASCII letters, digits, '-' "
                        + "and '.'; write an internationalized name in its IDNA form (xn--)")
            }
            host = encodedHost.lowercased()
            isAddress = Self.isAddressLiteral(host)
        }
        if let given = components.port {
            guard (1...65_535).contains(given) else { throw .invalidURL("the port \(given) is not 1 to 65535") }
            port = given
        } else {
            port = isHTTPS ? 443 : 80
        }
        guard let absolute = components.url?.absoluteString, absolute.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { throw .invalidURL("the URL holds characters that are not sent as they are") }
        self.url = absolute
    }

    /// Whether `host` is an IP address as written (dotted IPv4, or IPv6 without its brackets): no lookup names it.
    static func isAddressLiteral(_ host: String) -> Bool {
        host.contains(":")
            || (host.split(separator: ".", omittingEmptySubsequences: false).count == 4
                && host.split(separator: ".").allSatisfy { UInt8($0) != nil })
    }

    private static func isHostByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x2D || byte == 0x2E
    }

    private static func isIPv6(_ text: String) -> Bool {
        !text.isEmpty && text.contains(":")
            && text.utf8.allSatisfy { isHostByte($0) && $0 != 0x2D || $0 == 0x3A }
    }

    /// The host as an error message may show it: control characters replaced.
    private static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }
}
