import Foundation

/// Whether a link a resource server sent (a search's `next` page) stays under its base URL, so that the token may go
/// with it: same scheme, host and port, no userinfo, and a path under the base's as a server might read it.
///
/// The path is read as lenient servers read paths: percent-decoded once (so `%2F` separates and `%2e%2e` is `..`),
/// backslashes as slashes, each segment's `;` parameters dropped (`..;x` is `..`), and dot segments resolved
/// (RFC 3986 section 5.2.4). What is still encoded after one decoding (double encoding), and control characters such
/// as NUL, have no reading a client can be sure of, so a link with them is not under any base.
package enum ResourceLinkScope {
    /// Whether `link` is `base` or below it.
    package static func link(_ link: URL, isUnder base: URL) -> Bool {
        guard let link = URLComponents(url: link, resolvingAgainstBaseURL: false),
            let base = URLComponents(url: base, resolvingAgainstBaseURL: false),
            let scheme = link.scheme?.lowercased(), scheme == base.scheme?.lowercased(),
            let host = link.host?.lowercased(), host == base.host?.lowercased(),
            effectivePort(link.port, scheme: scheme) == effectivePort(base.port, scheme: scheme),
            link.user == nil, link.password == nil,
            let path = segments(link.percentEncodedPath), let basePath = segments(base.percentEncodedPath)
        else { return false }
        return path.starts(with: basePath)
    }

    /// The segments `encodedPath` names once read as a lenient server reads it, or nil when it has no sure reading.
    static func segments(_ encodedPath: String) -> [String]? {
        guard let decoded = encodedPath.removingPercentEncoding,
            !decoded.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }),
            !hasPercentEscape(decoded)
        else { return nil }
        var resolved: [String] = []
        for raw in decoded.replacingOccurrences(of: "\\", with: "/").split(
            separator: "/", omittingEmptySubsequences: true)
        {
            let segment = raw.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            switch segment {
            case "", ".": continue
            case "..": if resolved.popLast() == nil { return nil }
            default: resolved.append(String(segment))
            }
        }
        return resolved
    }

    private static func hasPercentEscape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.indices.contains { index in
            bytes[index] == UInt8(ascii: "%") && index + 2 < bytes.count
                && bytes[(index + 1)...(index + 2)].allSatisfy { $0.isHexDigit }
        }
    }

    private static func effectivePort(_ port: Int?, scheme: String) -> Int? {
        port ?? ["https": 443, "http": 80][scheme]
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
