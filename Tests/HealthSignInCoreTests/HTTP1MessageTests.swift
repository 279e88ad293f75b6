import Foundation
import XCTest

@testable import HealthSignInCore

/// The HTTP/1.1 reader and writer of the Linux transport, on bytes: framing, bounds and refusals.
final class HTTP1MessageTests: XCTestCase {
    private func parse(
        _ text: String, limit: Int = 1_000, expectsBody: Bool = true, pieceSize: Int? = nil, close: Bool = false
    ) throws -> HTTPResponseMessage? {
        var parser = HTTP1ResponseParser(bodyLimit: limit, expectsBody: expectsBody)
        let bytes = Array(text.utf8)
        let size = pieceSize ?? max(bytes.count, 1)
        for start in stride(from: 0, to: bytes.count, by: size) {
            try parser.consume(bytes[start..<min(start + size, bytes.count)])
        }
        if close { try parser.finish() }
        return parser.response
    }

    private func assertFailure(
        _ text: String, limit: Int = 1_000, close: Bool = false, file: StaticString = #filePath, line: UInt = #line,
        _ check: (HTTP1ResponseParser.Failure) -> Bool
    ) {
        XCTAssertThrowsError(try parse(text, limit: limit, close: close), file: file, line: line) {
            guard let failure = $0 as? HTTP1ResponseParser.Failure else {
                return XCTFail("\($0)", file: file, line: line)
            }
            XCTAssertTrue(check(failure), "\(failure)", file: file, line: line)
        }
    }

    func testEveryFramingGivesTheSameResponseWhateverThePieces() throws {
        let framings = [
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\n\r\n2;ext=1\r\nhe\r\n3\r\nllo\r\n0\r\nT: x\r\n\r\n",
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 5\r\nX-A: 1\r\n\r\nhello",
            "HTTP/1.1 200 OK\nContent-Length: 5\nX-A:   1  \n\nhello",
        ]
        for text in framings {
            for pieceSize in [1, 2, 7, 1_000] {
                let response = try XCTUnwrap(try parse(text, pieceSize: pieceSize), "\(text.debugDescription)")
                XCTAssertEqual(response.status, 200)
                XCTAssertEqual(response.headers["X-A"], "1")
                XCTAssertEqual(String(decoding: response.body, as: UTF8.self), "hello")
            }
        }
        let untilClose = try XCTUnwrap(try parse("HTTP/1.0 200 OK\r\n\r\nhello", close: true))
        XCTAssertEqual(untilClose.body, Data("hello".utf8))
        XCTAssertEqual(try parse("HTTP/1.1 204 No Content\r\n\r\n")?.status, 204)
        XCTAssertEqual(try parse("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n", expectsBody: false)?.body, Data())
    }

    func testTheBodyLimitCountsTheBytesTheCallerReceives() {
        assertFailure("HTTP/1.1 200 OK\r\nContent-Length: 11\r\n\r\n", limit: 10) { $0 == .tooLarge($0.detail) }
        assertFailure("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nabcdef\r\n6\r\nabcdef\r\n", limit: 10)
        {
            if case .tooLarge = $0 { return true } else { return false }
        }
        assertFailure("HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 11), limit: 10) {
            if case .tooLarge = $0 { return true } else { return false }
        }
        let huge = "HTTP/1.1 200 OK\r\nX: " + String(repeating: "a", count: HTTP1ResponseParser.maximumHeadSize)
        assertFailure(huge) { if case .tooLarge = $0 { return true } else { return false } }
        let longChunkLine =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1;" + String(repeating: "e", count: 5_000)
        assertFailure(longChunkLine) { if case .tooLarge = $0 { return true } else { return false } }
    }

    func testCodingsNobodyAskedForAreRefusedBeforeTheBody() {
        for field in ["Content-Encoding: gzip", "Content-Encoding: identity, br", "Transfer-Encoding: gzip, chunked"] {
            assertFailure("HTTP/1.1 200 OK\r\n\(field)\r\n\r\n\u{1F}") {
                if case .unrequestedEncoding = $0 { return true } else { return false }
            }
        }
        XCTAssertNoThrow(try parse("HTTP/1.1 200 OK\r\nContent-Encoding: identity\r\nContent-Length: 0\r\n\r\n"))
    }

    func testMalformedResponsesAreRefused() {
        let malformed = [
            "HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 2000 OK\r\n\r\n", "ICY 200 OK\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "HTTP/1.1 200 OK\r\nContent-Length: 0x5\r\n\r\n",
            "HTTP/1.1 200 OK\r\nNo colon\r\n\r\n", "HTTP/1.1 200 OK\r\nBad Name: x\r\n\r\n",
            "HTTP/1.1 200 OK\r\nA: b\r\n folded\r\n\r\n", "HTTP/1.1 101 Switching Protocols\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n+5\r\nhello\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhelloX\r\n",
        ]
        for text in malformed {
            assertFailure(text) { if case .malformed = $0 { return true } else { return false } }
        }
        assertFailure("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhel", close: true) {
            if case .malformed = $0 { return true } else { return false }
        }
        assertFailure("", close: true) { if case .malformed = $0 { return true } else { return false } }
    }

    func testTheRequestFramesItselfAndKeepsTheFieldsInOrder() throws {
        let request = HTTPRequestMessage(
            method: .post, url: try XCTUnwrap(URL(string: "http://127.0.0.1:8080/a%20b/c?x=1&y=%2F")),
            headers: ["Content-Type": "application/x-www-form-urlencoded", "Content-Length": "999", "B": "2"],
            body: Data("a=b".utf8))
        XCTAssertEqual(
            String(decoding: try HTTP1Request.bytes(for: request), as: UTF8.self),
            "POST /a%20b/c?x=1&y=%2F HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nB: 2\r\nAccept-Encoding: identity\r\n"
                + "User-Agent: HealthSignInSDK\r\nContent-Length: 3\r\nConnection: close\r\n\r\na=b")
        let get = HTTPRequestMessage(method: .get, url: try XCTUnwrap(URL(string: "https://example.org")))
        XCTAssertEqual(
            String(decoding: try HTTP1Request.bytes(for: get), as: UTF8.self),
            "GET / HTTP/1.1\r\nHost: example.org\r\nAccept-Encoding: identity\r\nUser-Agent: HealthSignInSDK\r\n"
                + "Connection: close\r\n\r\n")
        var smuggling = get
        smuggling.headers = ["X": "a\r\nInjected: yes"]
        XCTAssertThrowsError(try HTTP1Request.bytes(for: smuggling))
        var method = get
        method.method = HTTPRequestMethod(rawValue: "GET / HTTP/1.1\r\nX:")
        XCTAssertThrowsError(try HTTP1Request.bytes(for: method))
    }
}

extension HTTP1ResponseParser.Failure {
    fileprivate var detail: String {
        switch self {
        case .malformed(let detail), .tooLarge(let detail), .unrequestedEncoding(let detail): return detail
        }
    }
}
