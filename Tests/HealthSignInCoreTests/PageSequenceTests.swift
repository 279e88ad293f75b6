import HealthSignInCore
import XCTest

final class PageSequenceTests: XCTestCase {
    private struct Page: Sendable {
        let items: [Int]
        let more: Bool
    }

    private func pages(_ script: [Int: Page], log: LockedValue<[Int]>) -> PageSequence<Int, Page> {
        PageSequence(
            first: 0,
            fetch: { cursor in
                log.withValue { $0.append(cursor) }
                return script[cursor] ?? Page(items: [], more: false)
            }, next: { _, page in page.more ? page.items.last : nil })
    }

    func testFollowsCursorsAndStopsWhenNoMore() async throws {
        let log = LockedValue<[Int]>([])
        var seen: [Int] = []
        for try await page in pages([0: Page(items: [1, 2], more: true), 2: Page(items: [3], more: false)], log: log) {
            seen += page.items
        }
        XCTAssertEqual(seen, [1, 2, 3])
        XCTAssertEqual(log.current, [0, 2])
    }

    func testEmptyPageEndsTheSequence() async throws {
        let log = LockedValue<[Int]>([])
        var count = 0
        for try await _ in pages([0: Page(items: [], more: true)], log: log) { count += 1 }
        XCTAssertEqual(count, 1)
        XCTAssertEqual(log.current, [0])
    }

    func testARepeatedCursorStopsInsteadOfLooping() async throws {
        let log = LockedValue<[Int]>([])
        let sequence = pages([0: Page(items: [1], more: true), 1: Page(items: [1], more: true)], log: log)
        do {
            for try await _ in sequence {}
            XCTFail("expected PagingError")
        } catch {
            XCTAssertEqual(error as? PagingError, .repeatedCursor)
        }
        XCTAssertEqual(log.current, [0, 1], "no page is requested twice")
    }

    func testPagesAreFetchedLazily() async throws {
        let log = LockedValue<[Int]>([])
        var iterator = pages([0: Page(items: [1], more: true), 1: Page(items: [2], more: false)], log: log)
            .makeAsyncIterator()
        _ = try await iterator.next()
        XCTAssertEqual(log.current, [0])
    }
}
