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
        // The host as written: Foundation's components turn an A-label (xn--) into Unicode on some platforms.
        guard let encodedHost = Self.writtenHost(of: url.absoluteString) ?? components.percentEncodedHost,
            !encodedHost.isEmpty
        else {
            throw .invalidURL("the URL has no host")
        }
        isHTTPS = scheme == "https"
        if encodedHost.hasPrefix("[") {
            let literal = String(encodedHost.dropFirst().dropLast())
            guard encodedHost.hasSuffix("]"), Self.isIPv6(literal), let bytes = IPAddress.bytes(literal),
                bytes.count == 16
            else {
                throw .invalidURL("the host \(Self.printable(encodedHost)) is not an IPv6 address")
            }
            // ::ffff:a.b.c.d and ::a.b.c.d reach an IPv4 host that checks by address would not see.
            let mapped = bytes.prefix(10).allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            let compatible =
                bytes.prefix(12).allSatisfy { $0 == 0 } && bytes[12...].contains { $0 != 0 }
                && bytes != Array(repeating: 0, count: 15) + [1]
            guard !mapped, !compatible else {
                throw .invalidURL(
                    "the host \(Self.printable(encodedHost)) is an IPv4 address written as IPv6; write the IPv4 address"
                )
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
            // A name whose last label is a number is an IPv4 address to resolvers (127.1, 0x7f.0.0.1, 2130706433):
            // only the four decimal parts every check reads alike are sent.
            let last = host.split(separator: ".").last.map(String.init) ?? ""
            if Self.isNumericLabel(last), !Self.isCanonicalIPv4(host) {
                throw .invalidURL(
                    "the host \(Self.printable(encodedHost)) is an IPv4 address in another form than four decimal "
                        + "parts (such as 127.0.0.1)")
            }
            isAddress = Self.isAddressLiteral(host)
        }
        if let given = components.port {
            guard (1...65_535).contains(given) else { throw .invalidURL("the port \(given) is not 1 to 65535") }
            port = given
        } else {
            port = isHTTPS ? 443 : 80
        }
        let absolute = url.absoluteString
        guard absolute.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw .invalidURL("the URL holds characters that are not sent as they are")
        }
        self.url = absolute
    }

    /// Whether `host` is an IP address as written (dotted IPv4, or IPv6 without its brackets): no lookup names it.
    static func isAddressLiteral(_ host: String) -> Bool {
        host.contains(":")
            || (host.split(separator: ".", omittingEmptySubsequences: false).count == 4
                && host.split(separator: ".").allSatisfy { UInt8($0) != nil })
    }

    /// The host part of an absolute URL's text as written (an IPv6 literal with its brackets), or nil when the text
    /// has no authority.
    private static func writtenHost(of text: String) -> String? {
        guard let start = text.range(of: "://") else { return nil }
        let authority = text[start.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let hostAndPort = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? authority
        if hostAndPort.hasPrefix("["), let close = hostAndPort.firstIndex(of: "]") {
            return String(hostAndPort[...close])
        }
        return String(hostAndPort.prefix { $0 != ":" })
    }

    /// Whether `label` is what URL parsers and resolvers read as a number: decimal digits, or `0x` and hex digits.
    private static func isNumericLabel(_ label: String) -> Bool {
        let digits = label.hasPrefix("0x") ? label.dropFirst(2) : label[...]
        let hex = label.hasPrefix("0x")
        return label.hasPrefix("0x") && digits.isEmpty
            || !digits.isEmpty && digits.allSatisfy { hex ? $0.isHexDigit : ("0"..."9").contains($0) }
    }

    /// Whether `host` is an IPv4 address as four decimal parts of 0 to 255, without leading zeros.
    private static func isCanonicalIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy { ("0"..."9").contains($0) }
                    && (part == "0" || part.first != "0") && (Int(part) ?? 256) <= 255
            }
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

/// IP addresses as bytes, the one reading the transport's checks share.
enum IPAddress {
    /// The address's 4 or 16 bytes when `text` is an IPv4 address in dotted decimal or an IPv6 address, else nil.
    static func bytes(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}
