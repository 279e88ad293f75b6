import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

/// No request leaves with a header field HTTP cannot carry: a CR or LF in a value would end the header and smuggle in
/// others, whoever put it there (a caller's credential, a middleware); the check runs after the last middleware.
final class HeaderSyntaxTests: XCTestCase {
    private struct Adding: HTTPClientMiddleware {
        let name: String
        let value: String
        func intercept(
            _ request: HTTPRequestMessage, operation: OperationID,
            next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
        ) async throws -> HTTPResponseMessage {
            var request = request
            request.headers.add(name, value)
            return try await next(request)
        }
    }

    private func send(adding name: String, _ value: String) async throws -> RecordingTransport {
        let transport = RecordingTransport { _ in HTTPResponseMessage(status: 200) }
        let options = ClientOptions(transport: transport, middlewares: [Adding(name: name, value: value)])
        _ = try await options.send(
            HTTPRequestMessage(method: .get, url: URL(string: "https://api.example.com/v1")!),
            operation: OperationID(family: "Demo", method: "Ping"))
        return transport
    }

    func testFieldsWithControlCharactersOrNamesThatAreNotTokensAreNeverSent() async throws {
        let refused: [(String, String, String)] = [
            ("X-Trace", "a\r\nX-Injected: 1", "X-Trace"), ("X-Trace", "a\nb", "X-Trace"),
            ("X-Trace", "a\rb", "X-Trace"),
            ("X-Trace", "a\u{0}b", "X-Trace"), ("X-Trace", "a\u{7F}", "X-Trace"), ("X Trace", "a", "X Trace"),
            ("X-Trace:", "a", "X-Trace:"), ("", "a", ""), ("X-Trace\r\nHost", "a", "X-Trace??Host"),
        ]
        for (name, value, shown) in refused {
            await XCTAssertThrowsErrorAsync(try await send(adding: name, value), "\(name.debugDescription)") { error in
                XCTAssertEqual(error as? RequestEncodingError, .invalidHeaderField(shown))
            }
        }
        for (name, value) in [("X-Trace", "a\tb c"), ("X-Name", "Zoë"), ("x-!#$%&'*+-.^_`|~", "")] {
            let sent = try await send(adding: name, value)
            XCTAssertEqual(sent.requests.first?.headers[name], value)
        }
    }
}
