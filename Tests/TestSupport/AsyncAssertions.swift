import XCTest

/// `XCTAssertEqual` for expressions that need `await`.
public func XCTAssertEqualAsync<T: Equatable>(
    _ expression: @autoclosure () async throws -> T, _ expected: @autoclosure () async throws -> T,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        let value = try await expression()
        let wanted = try await expected()
        XCTAssertEqual(value, wanted, message(), file: file, line: line)
    } catch {
        XCTFail("threw \(error) \(message())", file: file, line: line)
    }
}

/// `XCTUnwrap` for an async expression.
public func XCTUnwrapAsync<T>(_ expression: @autoclosure () async throws -> T?, file: StaticString = #filePath, line: UInt = #line) async throws -> T {
    let value = try await expression()
    return try XCTUnwrap(value, file: file, line: line)
}

/// `XCTAssertThrowsError` for an async expression; `handler` inspects the error.
public func XCTAssertThrowsErrorAsync<T>(
    _ expression: @autoclosure () async throws -> T, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line, _ handler: (any Error) -> Void = { _ in }
) async {
    do {
        _ = try await expression()
        XCTFail("did not throw \(message())", file: file, line: line)
    } catch {
        handler(error)
    }
}
