import HealthSignInCore
import XCTest

// Named after the XCTest assertion it stands in for.
// swift-format-ignore: AlwaysUseLowerCamelCase
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

// Named after the XCTest assertion it stands in for.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// `XCTUnwrap` for an async expression.
public func XCTUnwrapAsync<T>(
    _ expression: @autoclosure () async throws -> T?, file: StaticString = #filePath, line: UInt = #line
) async throws -> T {
    let value = try await expression()
    return try XCTUnwrap(value, file: file, line: line)
}

// Named after the XCTest assertion it stands in for.
// swift-format-ignore: AlwaysUseLowerCamelCase
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

/// The task's result if it finishes within `seconds`, or nil; the task itself goes on either way. For tests that
/// must tell "returned promptly" from "is still waiting" without hanging when it waits forever.
public func outcome<Success: Sendable>(
    of task: Task<Success, any Error>, within seconds: Double
) async -> Result<Success, any Error>? {
    let resumed = LockedValue(false)
    return await withCheckedContinuation { (continuation: CheckedContinuation<Result<Success, any Error>?, Never>) in
        let finish: @Sendable (Result<Success, any Error>?) -> Void = { result in
            let first = resumed.withValue { done -> Bool in
                defer { done = true }
                return !done
            }
            if first { continuation.resume(returning: result) }
        }
        let timer = Task {
            try? await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000))
            finish(nil)
        }
        Task {
            finish(await task.result)
            timer.cancel()
        }
    }
}

// Named after the XCTest assertion it stands in for.
// swift-format-ignore: AlwaysUseLowerCamelCase
/// `XCTAssertNil` for an async expression.
public func XCTAssertNilAsync<T>(
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
public func XCTAssertNotNilAsync<T>(
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
public func XCTAssertTrueAsync(
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
public func XCTAssertFalseAsync(
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
