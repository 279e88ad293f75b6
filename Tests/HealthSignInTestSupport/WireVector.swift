import Foundation
@_spi(Generated) import HealthSignInCore

/// A `request.http` fixture as a request to send again: to an in-process test server, with the values only that
/// server can issue (a code, a token, an id) swapped for ones it issued and everything else as recorded.
public struct WireVector: Sendable {
    /// The request as recorded.
    public let request: HTTPRequestMessage

    /// Reads `Tests/Fixtures/<path>`: `METHOD URL`, header lines, a blank line and the body.
    public init(_ path: String) throws {
        let text = try Fixtures.text(path)
        let parts = text.components(separatedBy: "\n\n")
        var lines = parts[0].split(separator: "\n").map(String.init)
        let start = lines.removeFirst().split(separator: " ", maxSplits: 1).map(String.init)
        guard start.count == 2, let url = URL(string: start[1]) else { throw WireVectorError.malformed(path) }
        var headers = HTTPHeaderFields()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw WireVectorError.malformed(path) }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let body = parts.count > 1 ? parts.dropFirst().joined(separator: "\n\n") : ""
        let trimmed = body.hasSuffix("\n") ? String(body.dropLast()) : body
        request = HTTPRequestMessage(
            method: HTTPRequestMethod(rawValue: start[0]), url: url, headers: headers,
            body: trimmed.isEmpty ? nil : Data(trimmed.utf8))
    }

    /// The request sent to `url` (the recorded one when nil), with the named form fields, query parameters and
    /// headers given new values, and a part of the path replaced.
    public func replayed(
        at url: URL? = nil, form: [String: String] = [:], query: [String: String] = [:],
        path: (old: String, new: String)? = nil, headers: [String: String] = [:]
    ) -> HTTPRequestMessage {
        var replayed = request
        for (name, value) in headers {
            replayed.headers.remove(name)
            replayed.headers.add(name, value)
        }
        var components = URLComponents(url: url ?? request.url, resolvingAgainstBaseURL: false)
        if url != nil {
            components?.percentEncodedQuery =
                URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
        }
        if let path, let current = components?.percentEncodedPath {
            components?.percentEncodedPath = current.replacingOccurrences(of: path.old, with: path.new)
        }
        if !query.isEmpty, let recorded = components?.percentEncodedQuery {
            components?.percentEncodedQuery = Self.replacing(query, in: recorded, encode: PercentEncoding.query)
        }
        replayed.url = components?.url ?? replayed.url
        if !form.isEmpty, let body = request.body {
            let text = String(decoding: body, as: UTF8.self)
            replayed.body = Data(Self.replacing(form, in: text, encode: PercentEncoding.form).utf8)
        }
        return replayed
    }

    /// `encoded` (name=value pairs joined by `&`) with the named pairs' values replaced, the others kept byte for
    /// byte.
    private static func replacing(_ values: [String: String], in encoded: String, encode: (String) -> String) -> String
    {
        encoded.split(separator: "&", omittingEmptySubsequences: false).map { pair in
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            guard let value = values[PercentEncoding.decode(name)] else { return String(pair) }
            return name + "=" + encode(value)
        }.joined(separator: "&")
    }
}

/// A fixture that is not a request.
public enum WireVectorError: Error {
    case malformed(String)
}
