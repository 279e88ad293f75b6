import Foundation

/// An ``AuthorizationBrowser`` for command-line tools and servers, on every platform: it shows the authorization
/// page's address to a person, who opens it in any browser, signs in, and pastes back the address the browser ended
/// on.
///
/// The browser cannot open the app's redirect URI (a custom scheme, or a loopback address nothing listens on), so it
/// stops there with that address in its address bar: that is the line to paste.
///
/// ```swift
/// let context = try await session.authorize(with: TerminalAuthorizationBrowser())
/// ```
///
/// By default the page goes to standard error and the answer is read from standard input; give `show` and
/// `readAnswer` to use another channel (a chat message, a web form of your own).
public struct TerminalAuthorizationBrowser: AuthorizationBrowser {
    /// Shows the page to open and the callback whose address to paste back.
    public let show: @Sendable (_ page: URL, _ callback: AuthorizationCallback) -> Void
    /// The next line the person entered, or nil when there will be none (the input ended).
    public let readAnswer: @Sendable () async -> String?

    /// Creates a browser that shows pages with `show` and reads answers with `readAnswer`.
    public init(
        show: @escaping @Sendable (_ page: URL, _ callback: AuthorizationCallback) -> Void = Self.printToStandardError,
        readAnswer: @escaping @Sendable () async -> String? = Self.readStandardInput
    ) {
        self.show = show
        self.readAnswer = readAnswer
    }

    /// Shows `page`, then reads lines until one is an address; returns it when `callback` matches it.
    ///
    /// - Throws: ``AuthorizationBrowserError/cancelled`` when the input ends first,
    ///   ``AuthorizationBrowserError/unexpectedRedirect(path:)`` for an address that is not the callback's.
    public func authorize(_ page: URL, callback: AuthorizationCallback) async throws -> URL {
        show(page, callback)
        while let line = await readAnswer() {
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { continue }
            guard let url = URL(string: text), url.scheme != nil, callback.matches(url) else {
                throw AuthorizationBrowserError.unexpectedRedirect(path: URL(string: text)?.path ?? "")
            }
            return url
        }
        throw AuthorizationBrowserError.cancelled
    }

    /// Writes the page, and what to paste back, to standard error.
    public static let printToStandardError: @Sendable (URL, AuthorizationCallback) -> Void = { page, callback in
        let text = """
            Open this page in a browser and sign in:

                \(page.absoluteString)

            The browser then stops at an address starting with \(callback.url.absoluteString) \
            (it may say it cannot open it). Paste that whole address here and press Return:

            """
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Reads a line from standard input on a thread of its own, so no task's thread waits for the person.
    public static let readStandardInput: @Sendable () async -> String? = {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: readLine(strippingNewline: true)) }.start()
        }
    }
}
