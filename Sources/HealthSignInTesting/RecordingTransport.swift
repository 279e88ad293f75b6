import Foundation
import HealthSignInCore

/// A transport for tests: it records every request and answers from a closure or a list of canned responses.
///
/// ```swift
/// let transport = RecordingTransport(responses: [HTTPResponseMessage(status: 200, body: fixture)])
/// let client = HealthVaultAPIClient(configuration: .init(servers: .init(platform: url), transport: transport))
/// _ = try await client.newApplicationCreationInfo(applicationID: master)
/// XCTAssertEqual(transport.requests.first?.body, expectedBytes)
/// ```
public final class RecordingTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: `recorded` is only read or written while `lock` is held; `respond` is itself Sendable.
    private let lock = Lock()
    private var recorded: [HTTPRequestMessage] = []
    private let respond: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage

    /// Creates a transport that answers each request with `respond`.
    public init(respond: @escaping @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage) {
        self.respond = respond
    }

    /// Creates a transport that answers with `responses` in order, then fails with a clear error when they run out.
    public convenience init(responses: [HTTPResponseMessage]) {
        let queue = LockedValue(responses)
        self.init { request in
            guard let next = queue.withValue({ $0.isEmpty ? nil : $0.removeFirst() }) else {
                throw TransportError(.other, url: request.url, detail: "RecordingTransport has no response left")
            }
            return next
        }
    }

    /// The requests sent so far, in order.
    public var requests: [HTTPRequestMessage] { lock.withLock { recorded } }

    /// Records `request`, then answers it.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        lock.withLock { recorded.append(request) }
        return try await respond(request)
    }
}
