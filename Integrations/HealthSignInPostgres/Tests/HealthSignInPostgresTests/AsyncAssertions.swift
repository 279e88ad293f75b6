import XCTest

// The assertions of the SDK's test support, for expressions that need await.

// Named after the XCTest assertion it stands in for.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// `XCTAssertEqual` for expressions that need `await`.
func XCTAssertEqualAsync<T: Equatable>(
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

// Named after the XCTest assertion it stands in for.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// `XCTUnwrap` for an async expression.
func XCTUnwrapAsync<T>(
    _ expression: @autoclosure () async throws -> T?, file: StaticString = #filePath, line: UInt = #line
) async throws -> T {
    let value = try await expression()
    return try XCTUnwrap(value, file: file, line: line)
}

// Named after the XCTest assertion it stands in for.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// `XCTAssertThrowsError` for an async expression; `handler` inspects the error.
func XCTAssertThrowsErrorAsync<T>(
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

// Named after the XCTest assertion it stands in for.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// `XCTAssertNil` for an async expression.
func XCTAssertNilAsync<T>(
    _ expression: @autoclosure () async throws -> T?, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        let value = try await expression()
        XCTAssertNil(value, message(), file: file, line: line)
    } catch {
        XCTFail("threw \(error) \(message())", file: file, line: line)
    }
}

// Named after the XCTest assertion it stands in for.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// `XCTAssertNotNil` for an async expression.
func XCTAssertNotNilAsync<T>(
    _ expression: @autoclosure () async throws -> T?, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        let value = try await expression()
        XCTAssertNotNil(value, message(), file: file, line: line)
    } catch {
        XCTFail("threw \(error) \(message())", file: file, line: line)
    }
}

// Named after the XCTest assertion it stands in for.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// `XCTAssertTrue` for an async expression.
func XCTAssertTrueAsync(
    _ expression: @autoclosure () async throws -> Bool, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        let value = try await expression()
        XCTAssertTrue(value, message(), file: file, line: line)
    } catch {
        XCTFail("threw \(error) \(message())", file: file, line: line)
    }
}

// Named after the XCTest assertion it stands in for.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// `XCTAssertFalse` for an async expression.
func XCTAssertFalseAsync(
    _ expression: @autoclosure () async throws -> Bool, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        let value = try await expression()
        XCTAssertFalse(value, message(), file: file, line: line)
    } catch {
        XCTFail("threw \(error) \(message())", file: file, line: line)
    }
}
