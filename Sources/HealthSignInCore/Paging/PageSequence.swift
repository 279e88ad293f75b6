/// The pages of a paged method, fetched one at a time as the sequence is iterated.
///
/// Each page is requested only after the previous one was consumed, and never twice: a server that hands back a
/// cursor it already gave ends the sequence with ``PagingError/repeatedCursor``.
///
/// ```swift
/// for try await page in client.getAuthorizedPeoplePages(session: session) {
///     people += page.responseResults.personInfo
/// }
/// ```
public struct PageSequence<Request: Equatable & Sendable, Page: Sendable>: AsyncSequence, Sendable {
    /// Each element is one page.
    public typealias Element = Page

    private let first: Request
    private let fetch: @Sendable (Request) async throws -> Page
    private let nextRequest: @Sendable (Request, Page) -> Request?

    /// Creates a sequence.
    ///
    /// - Parameters:
    ///   - first: the request for the first page.
    ///   - fetch: sends one request.
    ///   - next: the request for the page after `page`, or nil when `page` was the last.
    public init(
        first: Request,
        fetch: @escaping @Sendable (Request) async throws -> Page,
        next: @escaping @Sendable (_ request: Request, _ page: Page) -> Request?
    ) {
        self.first = first
        self.fetch = fetch
        self.nextRequest = next
    }

    /// Starts a new pass from the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pending: first, fetch: fetch, nextRequest: nextRequest)
    }

    /// Fetches pages on demand.
    public struct Iterator: AsyncIteratorProtocol {
        var pending: Request?
        /// Every request sent so far. Requests are only `Equatable`, and a sequence has few pages, so a repeat is
        /// looked for among them one by one.
        var sent: [Request] = []
        let fetch: @Sendable (Request) async throws -> Page
        let nextRequest: @Sendable (Request, Page) -> Request?

        /// The next page, or nil after the last.
        public mutating func next() async throws -> Page? {
            guard let request = pending else { return nil }
            pending = nil
            guard !sent.contains(request) else { throw PagingError.repeatedCursor }
            sent.append(request)
            let page = try await fetch(request)
            pending = nextRequest(request, page)
            return page
        }
    }
}

/// Paging stopped because the server misbehaved.
public enum PagingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server returned a cursor for a page that was already fetched; following it would loop forever.
    case repeatedCursor
    /// The server's link to the next page is not on the server the client is configured for: another origin, or
    /// outside its base URL's path. Nothing was sent, since the access token would go with it. Both URLs are shown
    /// without their query, where a search's parameters travel.
    case linkLeavesServer(link: String, server: String)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .repeatedCursor:
            return "The server returned a paging cursor that was already used; stopping to avoid a loop"
        case .linkLeavesServer(let link, let server):
            return "The server's link to the next page, \(link), is not under \(server); nothing was sent, since the "
                + "access token would go with it"
        }
    }
}

extension PageSequence {
    /// The items of every page, in order, fetching pages as iteration reaches them.
    public func items<Item: Sendable>(_ extract: @escaping @Sendable (Page) -> [Item]) -> PagedItems<
        Request, Page, Item
    > {
        PagedItems(pages: self, extract: extract)
    }
}

/// The items of a ``PageSequence``'s pages, one at a time.
public struct PagedItems<Request: Equatable & Sendable, Page: Sendable, Item: Sendable>: AsyncSequence, Sendable {
    /// Each element is one item.
    public typealias Element = Item

    let pages: PageSequence<Request, Page>
    let extract: @Sendable (Page) -> [Item]

    /// Starts a new pass from the first page.
    public func makeAsyncIterator() -> Iterator { Iterator(pages: pages.makeAsyncIterator(), extract: extract) }

    /// Walks the items of one page, then fetches the next.
    public struct Iterator: AsyncIteratorProtocol {
        var pages: PageSequence<Request, Page>.Iterator
        let extract: @Sendable (Page) -> [Item]
        var buffer: [Item] = []
        var position = 0

        /// The next item, or nil after the last page.
        public mutating func next() async throws -> Item? {
            while position == buffer.count {
                guard let page = try await pages.next() else { return nil }
                buffer = extract(page)
                position = 0
            }
            defer { position += 1 }
            return buffer[position]
        }
    }
}

extension PagingError: SDKError {
    /// `ErrorRecovery.none`: the server's paging is broken, which the caller cannot fix.
    public var recovery: ErrorRecovery { .none }
}
