/// One challenge of a `WWW-Authenticate` header (RFC 7235), e.g. `Bearer error="invalid_token", error_description="…"`.
public struct AuthenticationChallenge: Sendable, Hashable {
    /// The scheme, e.g. `Bearer` or `Basic`.
    public let scheme: String
    /// The parameters by lowercase name, e.g. `error` → `invalid_token`.
    public let parameters: [String: String]

    /// Parses the first challenge of a header value, or returns nil when there is none.
    public init?(header: String) {
        var rest = Substring(header).drop { $0 == " " }
        let scheme = rest.prefix { $0 != " " && $0 != "," }
        guard !scheme.isEmpty else { return nil }
        rest = rest.dropFirst(scheme.count)
        var parameters: [String: String] = [:]
        while true {
            rest = rest.drop { $0 == " " || $0 == "," }
            let name = rest.prefix { $0 != "=" && $0 != " " && $0 != "," }
            guard !name.isEmpty, rest.dropFirst(name.count).first == "=" else { break }
            rest = rest.dropFirst(name.count + 1)
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                var escaped = false
                while let character = rest.first {
                    rest = rest.dropFirst()
                    if escaped {
                        value.append(character)
                        escaped = false
                    } else if character == "\\" {
                        escaped = true
                    } else if character == "\"" {
                        break
                    } else {
                        value.append(character)
                    }
                }
            } else {
                value = String(rest.prefix { $0 != "," && $0 != " " })
                rest = rest.dropFirst(value.count)
            }
            parameters[name.lowercased()] = value
        }
        self.scheme = String(scheme)
        self.parameters = parameters
    }
}

extension HTTPResponseMessage {
    /// The challenges of the response's `WWW-Authenticate` headers.
    public var authenticationChallenges: [AuthenticationChallenge] {
        headers.values("WWW-Authenticate").compactMap(AuthenticationChallenge.init(header:))
    }

    /// The `error` of a `Bearer` challenge (RFC 6750 §3), e.g. `invalid_token`, or nil.
    public var bearerError: String? {
        authenticationChallenges.first { $0.scheme.caseInsensitiveEquals("Bearer") }?.parameters["error"]
    }
}
