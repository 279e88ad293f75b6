import Foundation

/// The URLs a FHIR server's base URL covers: its origin, and its path or below.
///
/// A URL counts only when it names the base's scheme, host and port (the scheme's default port when none is
/// written), carries no user info, and its path is the base's path or continues it after a `/` with no `.` or `..`
/// segment, which would climb out of it once a server resolved them.
struct FHIRServerScope {
    /// The configured base URL.
    let base: URL

    /// Whether `url` is on the server under the base's path.
    func contains(_ url: URL) -> Bool {
        guard let base = URLComponents(url: base, resolvingAgainstBaseURL: true),
            let candidate = URLComponents(url: url, resolvingAgainstBaseURL: true),
            candidate.user == nil, candidate.password == nil,
            let scheme = base.scheme?.lowercased(), candidate.scheme?.lowercased() == scheme,
            let host = base.host?.lowercased(), candidate.host?.lowercased() == host,
            Self.port(of: base, scheme: scheme) == Self.port(of: candidate, scheme: scheme)
        else { return false }
        var basePath = base.percentEncodedPath
        while basePath.hasSuffix("/") { basePath.removeLast() }
        let path = candidate.percentEncodedPath
        guard path == basePath || path.hasPrefix(basePath + "/") else { return false }
        return !path.split(separator: "/").contains { segment in
            let decoded = segment.removingPercentEncoding ?? String(segment)
            return decoded == "." || decoded == ".."
        }
    }

    private static func port(of components: URLComponents, scheme: String) -> Int? {
        components.port ?? ["http": 80, "https": 443][scheme]
    }
}
