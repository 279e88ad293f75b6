import Foundation
import HealthSignInCore

/// What an in-process server made of one request: its response.
struct Handled {
    let response: HTTPResponseMessage
    /// Whether the server acted and then lost the response, as a connection that drops before the answer does.
    var losesResponse = false

    init(_ response: HTTPResponseMessage, losesResponse: Bool = false) {
        self.response = response
        self.losesResponse = losesResponse
    }
}

/// A family's in-process server, as the transport and the browser reach it.
protocol InProcessServer: TestServer {
    /// What every in-process server shares: its origins, faults, ledger and clock.
    var core: TestServerCore<Operation> { get }
    /// What `request` asks for, read from the request alone (its method, path and form), or nil when no endpoint
    /// answers its path: the ledger names a request by it even when a fault stops it before the server acts.
    func operation(of request: ReceivedRequest) -> Operation?
    /// Performs `operation` for `request`; called with no lock held, once per request, in the order requests arrive.
    func handle(_ request: ReceivedRequest, as operation: Operation) -> Handled
}

extension InProcessServer {
    /// Sends `message` through this server's core (see ``TestServerCore/answer(_:server:timeout:)``).
    func answer(_ message: HTTPRequestMessage, timeout: TimeInterval?) async throws -> HTTPResponseMessage {
        try await core.answer(message, server: self, timeout: timeout)
    }

    /// Whether the server answers at `url`'s origin.
    func serves(_ url: URL) -> Bool { core.serves(url) }
}

/// The names in-process servers give: origins and UUIDs.
enum TestServerNames {
    /// `https://ehr.test` (scheme, host and port, lowercased).
    static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        return scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")
    }

    /// A UUID named by `name`: the same in every run.
    static func namedUUID(_ name: String) -> String {
        var bytes = Array(CryptoPrimitives.sha256(Array(name.utf8)).prefix(16))
        bytes[6] = bytes[6] & 0x0F | 0x80
        bytes[8] = bytes[8] & 0x3F | 0x80
        return uuidText(bytes)
    }

    static func uuidText(_ bytes: [UInt8]) -> String {
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { range in
            String(hex.dropFirst(range.lowerBound).prefix(range.count))
        }.joined(separator: "-")
    }
}

/// What every in-process server shares: the origins it answers, the faults it plays, the ledger it keeps and the
/// clock its expiry reads; and the one path every request takes through them.
final class TestServerCore<Operation: TestServerOperation>: Sendable {
    let faults = TestServerFaults()
    let ledger = TestServerLedger<Operation>()
    let clock: any TimeSource
    let random: any RandomSource
    private let origins: LockedValue<Set<String>>

    init(origins: [URL], clock: any TimeSource, random: any RandomSource) {
        self.clock = clock
        self.random = random
        self.origins = LockedValue(Set(origins.compactMap(TestServerNames.origin)))
    }

    /// The server also answers at `url`'s origin.
    func serve(_ url: URL) {
        guard let origin = TestServerNames.origin(url) else { return }
        _ = origins.withValue { $0.insert(origin) }
    }

    /// Whether the server answers at `url`'s origin.
    func serves(_ url: URL) -> Bool { TestServerNames.origin(url).map { origins.current.contains($0) } ?? false }

    /// The current time on the server's clock.
    var now: Date { clock.now() }

    /// `count` random bytes as base64url, for tokens, codes and ids.
    func token(bytes count: Int = 32) -> String { Base64URL.encode(random.bytes(count: count)) }

    /// A version 4 UUID from the server's random source, lowercased.
    func uuid() -> String {
        var bytes = random.bytes(count: 16)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        return TestServerNames.uuidText(bytes)
    }

    /// Sends `message` through `server`: the origin check, the fault injected for its URL, the handler, the ledger.
    func answer<Server: InProcessServer>(_ message: HTTPRequestMessage, server: Server, timeout: TimeInterval?)
        async throws -> HTTPResponseMessage where Server.Operation == Operation
    {
        try Task.checkCancellation()
        if let timeout = message.timeout ?? timeout, timeout.isNaN || timeout <= 0 {
            throw ConfigurationError.invalidTimeout(timeout)
        }
        guard serves(message.url) else {
            throw TransportError(
                .cannotConnect, url: message.url, detail: "no in-process test server answers at this origin")
        }
        let received = ReceivedRequest(message)
        let operation = server.operation(of: received)
        let fault = faults.take(for: message.url)
        if let fault, !fault.serverActs {
            return try beforeServer(fault, message, operation: operation)
        }
        if case .slow(let seconds) = fault, let manual = clock as? ManualClock { manual.advance(by: seconds) }
        let handled = operation.map { server.handle(received, as: $0) } ?? Handled(.notFound)
        var response = handled.response
        if handled.losesResponse {
            ledger.record(.init(request: message, operation: operation, status: nil, fault: .loseResponse))
            throw TransportError(
                .connectionLost, url: message.url, detail: "the test server dropped the connection before answering")
        }
        if let fault {
            if let failure = Self.afterServer(fault, message: message, timeout: timeout) {
                ledger.record(.init(request: message, operation: operation, status: nil, fault: fault))
                throw failure
            }
            response = Self.damage(response, with: fault)
        }
        ledger.record(.init(request: message, operation: operation, status: response.status, fault: fault))
        if let limit = message.maximumResponseSize, response.body.count > limit {
            throw TransportError(
                .responseTooLarge, url: message.url, detail: "the response has more than \(limit) bytes")
        }
        return response
    }

    private func beforeServer(_ fault: TestServerFault, _ message: HTTPRequestMessage, operation: Operation?) throws
        -> HTTPResponseMessage
    {
        let response: HTTPResponseMessage
        switch fault {
        case .status(let status, let retryAfter):
            response = .empty(status, headers: retryAfter.map { ["Retry-After": String($0)] } ?? [:])
        case .errorPage(let status):
            response = .text(
                status, "<html><body><h1>Service Unavailable</h1></body></html>", type: "text/html; charset=utf-8")
        default:
            ledger.record(.init(request: message, operation: operation, status: nil, fault: fault))
            throw TransportError(.connectionLost, url: message.url, detail: "the test server dropped the connection")
        }
        ledger.record(.init(request: message, operation: operation, status: response.status, fault: fault))
        return response
    }

    /// The failure the client sees after the server acted, if the fault is one.
    private static func afterServer(_ fault: TestServerFault, message: HTTPRequestMessage, timeout: TimeInterval?)
        -> TransportError?
    {
        switch fault {
        case .loseResponse:
            return TransportError(
                .connectionLost, url: message.url, detail: "the test server dropped the connection before answering")
        case .slow(let seconds):
            guard let limit = message.timeout ?? timeout, seconds > limit else { return nil }
            return TransportError(.timedOut, url: message.url, detail: "no response within \(limit) s")
        default:
            return nil
        }
    }

    /// The response as a damaging fault leaves it.
    private static func damage(_ response: HTTPResponseMessage, with fault: TestServerFault) -> HTTPResponseMessage {
        var damaged = response
        let body = response.body
        switch fault {
        case .truncatedBody:
            damaged.body = body.prefix(body.count / 2)
        case .malformedBody:
            let end = body.firstIndex(of: UInt8(ascii: ">")).map { body.index(after: $0) } ?? body.startIndex
            damaged.body = body[body.startIndex..<end] + Data("<unclosed".utf8)
        case .wrongContentType:
            damaged.headers.remove("Content-Type")
            damaged.headers.add("Content-Type", "application/octet-stream")
        case .unknownMember:
            damaged.body = withUnknownMember(body, mediaType: response.mediaType)
        default:
            break
        }
        return damaged
    }

    /// A valid body with an element or member the client does not know.
    private static func withUnknownMember(_ body: Data, mediaType: String?) -> Data {
        let text = String(decoding: body, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if mediaType?.contains("json") == true, text.hasPrefix("{") {
            return Data(("{\"x-unknown-field\": {\"nested\": [1, 2]}, " + text.dropFirst()).utf8)
        }
        guard let closing = text.range(of: "</", options: .backwards) else { return body }
        let element = "<x-unknown-element attribute=\"1\"><child>text</child></x-unknown-element>"
        return Data((text[..<closing.lowerBound] + element + text[closing.lowerBound...]).utf8)
    }
}
