import Foundation

/// A failure below HTTP: the request never produced a response.
///
/// These are transient by nature; the SDK never treats one as proof that a credential is bad.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, coarsely.
    public enum Kind: String, Sendable, Hashable {
        /// No response arrived within the timeout.
        case timedOut
        /// The host could not be resolved or reached.
        case cannotConnect
        /// The connection dropped before the response was complete.
        case connectionLost
        /// The server's TLS identity could not be verified, or TLS failed.
        case insecureConnection
        /// The response was bigger than the request's size limit; it was stopped as it streamed.
        case responseTooLarge
        /// The response's body came in a content or transfer coding that was not asked for (the SDK asks for
        /// `identity`); it was refused before any of it was decoded.
        case unrequestedEncoding
        /// Anything else the transport reported.
        case other
    }

    /// The category of the failure.
    public let kind: Kind
    /// The host the request was for (never the path or query, which may carry codes).
    public let host: String?
    /// A short explanation from the transport, free of URLs and credentials.
    public let detail: String

    /// Creates a transport error for a request to `url`.
    public init(_ kind: Kind, url: URL?, detail: String) {
        self.kind = kind
        self.host = url?.host
        self.detail = detail
    }

    /// Whether retrying later may succeed (every kind but an insecure connection, a response over its size limit
    /// and an encoding nobody asked for).
    public var isTransient: Bool { ![.insecureConnection, .responseTooLarge, .unrequestedEncoding].contains(kind) }

    /// A one-line explanation.
    public var description: String {
        "Transport error (\(kind.rawValue))" + (host.map { " talking to \($0)" } ?? "") + ": \(detail)"
    }
}

extension TransportError: SDKError {
    /// ``ErrorRecovery/retryLater`` when ``isTransient``, otherwise ``ErrorRecovery/none``.
    public var recovery: ErrorRecovery { isTransient ? .retryLater : .none }
}
