#if canImport(AuthenticationServices) && !os(tvOS)
    import AuthenticationServices
    import Foundation

    /// An ``AuthorizationBrowser`` that shows the page in `ASWebAuthenticationSession`, the system's sign-in sheet,
    /// as RFC 8252 asks of native apps: the app never sees the user's credentials, and the session ends at the first
    /// navigation to the callback's scheme (a custom scheme such as `myapp`, which the app should own).
    ///
    /// ```swift
    /// let browser = WebAuthenticationBrowser { window }
    /// let context = try await session.authorize(with: browser)
    /// ```
    ///
    /// Cancelling the calling task closes the sheet. Not on tvOS, which has no web authentication session.
    public final class WebAuthenticationBrowser: AuthorizationBrowser {
        /// Whether the session shares no cookies with Safari (`prefersEphemeralWebBrowserSession`): the user signs
        /// in every time, and nothing of the sign-in stays behind. True by default, as a shared device wants.
        public let prefersEphemeralSession: Bool

        #if os(watchOS)
            /// Creates a browser; watchOS presents the session itself.
            public init(prefersEphemeralSession: Bool = true) {
                self.prefersEphemeralSession = prefersEphemeralSession
            }
        #else
            private let presentationAnchor: @MainActor @Sendable () -> ASPresentationAnchor

            /// Creates a browser that presents the sheet over the window `presentationAnchor` gives (asked on the
            /// main actor when the sheet opens).
            public init(
                prefersEphemeralSession: Bool = true,
                presentationAnchor: @escaping @MainActor @Sendable () -> ASPresentationAnchor
            ) {
                self.prefersEphemeralSession = prefersEphemeralSession
                self.presentationAnchor = presentationAnchor
            }
        #endif

        /// Shows `page` until it redirects to `callback`'s scheme, the user closes it, or the task is cancelled.
        public func authorize(_ page: URL, callback: AuthorizationCallback) async throws -> URL {
            let sheet = await Sheet()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<URL, any Error>) in
                    Task { @MainActor in
                        #if os(watchOS)
                            sheet.start(page, callback, ephemeral: prefersEphemeralSession, continuation)
                        #else
                            sheet.start(page, callback, ephemeral: prefersEphemeralSession, continuation) {
                                self.presentationAnchor()
                            }
                        #endif
                    }
                }
            } onCancel: {
                Task { @MainActor in sheet.cancel() }
            }
        }
    }

    /// One `ASWebAuthenticationSession`, kept on the main actor so that a cancellation can reach it.
    @MainActor
    private final class Sheet: NSObject {
        private var session: ASWebAuthenticationSession?
        private var isCancelled = false
        #if !os(watchOS)
            private var anchor: (() -> ASPresentationAnchor)?
        #endif

        #if os(watchOS)
            func start(
                _ page: URL, _ callback: AuthorizationCallback, ephemeral: Bool,
                _ continuation: CheckedContinuation<URL, any Error>
            ) {
                begin(page, callback, ephemeral: ephemeral, continuation)
            }
        #else
            func start(
                _ page: URL, _ callback: AuthorizationCallback, ephemeral: Bool,
                _ continuation: CheckedContinuation<URL, any Error>, anchor: @escaping () -> ASPresentationAnchor
            ) {
                self.anchor = anchor
                begin(page, callback, ephemeral: ephemeral, continuation)
            }
        #endif

        private func begin(
            _ page: URL, _ callback: AuthorizationCallback, ephemeral: Bool,
            _ continuation: CheckedContinuation<URL, any Error>
        ) {
            guard !isCancelled else { return continuation.resume(throwing: AuthorizationBrowserError.cancelled) }
            let session = ASWebAuthenticationSession(url: page, callbackURLScheme: callback.scheme) { url, error in
                continuation.resume(with: Self.outcome(url, error, callback))
            }
            session.prefersEphemeralWebBrowserSession = ephemeral
            #if !os(watchOS)
                session.presentationContextProvider = self
            #endif
            self.session = session
            if !session.start() {
                continuation.resume(throwing: AuthorizationBrowserError.unavailable("the session did not start"))
            }
        }

        func cancel() {
            isCancelled = true
            session?.cancel()
        }

        /// The redirect, or why there is none.
        nonisolated private static func outcome(_ url: URL?, _ error: (any Error)?, _ callback: AuthorizationCallback)
            -> Result<URL, any Error>
        {
            if let url {
                return callback.matches(url)
                    ? .success(url) : .failure(AuthorizationBrowserError.unexpectedRedirect(path: url.path))
            }
            if let error = error as? ASWebAuthenticationSessionError, error.code == .canceledLogin {
                return .failure(AuthorizationBrowserError.cancelled)
            }
            return .failure(AuthorizationBrowserError.unavailable(error.map { "\($0)" } ?? "no redirect"))
        }
    }

    #if !os(watchOS)
        extension Sheet: ASWebAuthenticationPresentationContextProviding {
            func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor {
                anchor?() ?? ASPresentationAnchor()
            }
        }
    #endif
#endif
