import Foundation
@_spi(Generated) import HealthSignInCore
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
        for (name, value) in [("X-Trace", "a\tb c"), ("X-Name", "Zoe"), ("x-!#$%&'*+-.^_`|~", "")] {
            let sent = try await send(adding: name, value)
            XCTAssertEqual(sent.requests.first?.headers[name], value)
        }
    }

    /// RFC 9110 §5.5: a value starts and ends with a visible character, and the SDK sends visible US-ASCII only, since
    /// a server may read other bytes as Latin-1 (obs-text) rather than the UTF-8 they were sent as.
    func testValuesAreVisibleASCIIWithoutSpaceOrTabAtEitherEnd() async throws {
        let refused: [(String, String)] = [
            ("X-Name", "Zoë"), ("X-Name", "é"), ("X-Emoji", "🙂"), ("X-Name", "Zo\u{A0}e"),
            ("X-Trace", " leading"), ("X-Trace", "trailing "), ("X-Trace", "\tleading"), ("X-Trace", "trailing\t"),
            ("X-Trace", " "), ("X-Trace", "\t"),
        ]
        for (name, value) in refused {
            XCTAssertFalse(HTTPHeaderFields.isFieldValue(value), value.debugDescription)
            var fields = HTTPHeaderFields()
            fields.add(name, value)
            XCTAssertThrowsError(try fields.checkSyntax(), value.debugDescription) { error in
                XCTAssertEqual(error as? RequestEncodingError, .invalidHeaderField(name))
            }
            await XCTAssertThrowsErrorAsync(try await send(adding: name, value), value.debugDescription) { error in
                XCTAssertEqual(error as? RequestEncodingError, .invalidHeaderField(name))
            }
        }
        for value in ["a b", "a\tb", "a  \t  b", "", "x", "!\"#~", "Bearer abc.def"] {
            XCTAssertTrue(HTTPHeaderFields.isFieldValue(value), value.debugDescription)
            let sent = try await send(adding: "X-Trace", value)
            XCTAssertEqual(sent.requests.first?.headers["X-Trace"], value)
        }
    }

    /// A generated client's own default headers are checked the same way before anything is sent.
    func testAGeneratedClientsDefaultHeaderIsCheckedToo() async throws {
        let transport = RecordingTransport { _ in HTTPResponseMessage(status: 200) }
        let core = HTTPClientCore(
            family: "Demo", options: ClientOptions(transport: transport), headers: ["X-Client": "Zoë "])
        let builder = try core.request(
            .get, server: URL(string: "https://api.example.com"), serverName: "api", path: "/v1/ping")
        await XCTAssertThrowsErrorAsync(try await core.send(builder, operation: "Ping", errors: [])) { error in
            XCTAssertEqual(error as? RequestEncodingError, .invalidHeaderField("X-Client"))
        }
        XCTAssertEqual(transport.requests.count, 0, "nothing was sent")
    }
}
