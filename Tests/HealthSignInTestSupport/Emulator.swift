import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The protocol emulator (`Tests/Emulator/emulator.py`) running on 127.0.0.1, with its control endpoints.
public final class Emulator: Sendable {
    /// The running server.
    public let server: LocalServer

    /// The one emulator the integration tests share, started by the first that needs it; each test resets it
    /// (`control("reset")`) before it starts, so no state crosses from one test to the next.
    public static let shared = Result { try Emulator() }

    /// Starts the emulator; it stops when this object is released.
    public init() throws {
        server = try LocalServer(script: "Tests/Emulator/emulator.py")
    }

    /// `http://127.0.0.1:<port>`
    public var baseURL: URL { server.baseURL }

    /// A URL on the emulator.
    public func url(_ path: String) -> URL {
        URL(string: baseURL.absoluteString + path)!
    }

    /// Posts `body` as JSON to a control endpoint and returns the decoded answer.
    @discardableResult
    public func control(_ path: String, _ body: [String: any Sendable] = [:]) async throws -> [String: Any] {
        var request = URLRequest(url: url("/_control/" + path))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        return try await send(request)
    }

    /// Reads a control endpoint.
    public func read(_ path: String) async throws -> [String: Any] {
        try await send(URLRequest(url: url("/_control/" + path)))
    }

    /// `http://127.0.0.1:<port>` of the emulator served on a second port as well: another origin, for tests of a
    /// client that talks to several servers.
    public func secondOrigin() async throws -> URL {
        let port = try await control("second-origin")["port"] as? Int
        guard let port, let url = URL(string: "http://127.0.0.1:\(port)") else {
            throw EmulatorError.control("second-origin", "no port")
        }
        return url
    }

    /// Injects a fault into the next `count` requests whose path starts with `path`.
    public func inject(
        _ kind: String, path: String, count: Int = 1, status: Int? = nil, seconds: Double? = nil, retryAfter: Int? = nil
    ) async throws {
        var body: [String: any Sendable] = ["kind": kind, "path": path, "count": count]
        if let status { body["status"] = status }
        if let seconds { body["seconds"] = seconds }
        if let retryAfter { body["retry_after"] = retryAfter }
        try await control("faults", body)
    }

    /// Follows one redirect the way a browser would, returning the `Location` it points to (without loading it).
    public func visit(_ url: URL) async throws -> URL? {
        let (_, response) = try await Self.noRedirectSession.data(for: URLRequest(url: url))
        guard let http = response as? HTTPURLResponse, (300..<400).contains(http.statusCode),
            let location = http.value(forHTTPHeaderField: "Location")
        else { return nil }
        return URL(string: location, relativeTo: url)?.absoluteURL
    }

    private func send(_ request: URLRequest) async throws -> [String: Any] {
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw EmulatorError.control(request.url?.path ?? "", String(decoding: data, as: UTF8.self))
        }
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }

    private static let noRedirectSession = URLSession(
        configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
}

private final class NoRedirects: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// A control request to the emulator failed.
public enum EmulatorError: Error, CustomStringConvertible {
    case control(String, String)

    public var description: String {
        switch self {
        case .control(let path, let body): return "emulator control \(path) failed: \(body)"
        }
    }
}
