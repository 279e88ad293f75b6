import Foundation

/// A failure an in-process server plays on a request instead of, or on top of, its normal answer: the HTTP-level
/// faults of the emulator's fault injection, as values.
///
/// Inject one with ``TestServerFaults/inject(_:at:count:)``. Faults that strike before the server acts (a status, an
/// error page, a dropped connection) leave its state as it was; the others let it act first, as a lost or damaged
/// response does, so a refresh token it rotated is already dead when the client sees the failure.
///
/// What the SDK does after a fault on a token refresh (the README's "Reliability" tables, which the fault-matrix
/// tests check for every family against these servers and the emulator):
/// - Before the server acts (``status(_:retryAfter:)``, ``errorPage(status:)``, ``dropConnection``): the call fails
///   with `UnexpectedResponseError` (the delay a 503 or 429 asks for is `response.retryAfter(now:)`) or
///   `TransportError` of kind `connectionLost`; nothing stored changes, and the next call refreshes and succeeds. The
///   same in every family.
/// - After the server rotated the refresh token (``loseResponse``, ``slow(seconds:)`` beyond the client's timeout,
///   ``truncatedBody``, ``malformedBody``): the call fails and the stored grant is kept as it was, never erased for a
///   failure the server may not have seen; the next call sends the dead refresh token and gets the server's refusal,
///   which each family reads its own way: SMART signs out (`SignInError.needsSignIn`), Koppeltaal needs a new launch,
///   Vital keeps the user marked for re-authentication. HealthVault has no refresh token: its session is created
///   anew on the next call.
/// - ``wrongContentType`` and ``unknownMember``: the response is read as usual; the call succeeds.
public enum TestServerFault: Sendable, Hashable, CustomStringConvertible {
    /// Answers `status` with an empty body instead of acting, with `Retry-After: <seconds>` when given (a 500, a
    /// 503 for maintenance, a 429 for a rate limit).
    case status(Int, retryAfter: Int? = nil)
    /// Answers `status` with an HTML error page, as a proxy in front of the server does.
    case errorPage(status: Int)
    /// Closes the connection before the server reads the request: the client gets
    /// `TransportError` with kind `connectionLost`, and nothing changed at the server.
    case dropConnection
    /// The server acts, then the connection drops before the response arrives: the client gets `TransportError`
    /// with kind `connectionLost`, and whatever the server did stands.
    case loseResponse
    /// The answer takes `seconds`: the server's clock, when it is a ``ManualClock``, moves on by that much; when
    /// `seconds` is longer than the transport's timeout, the server acts and the client gets `TransportError` with
    /// kind `timedOut` (the server outlived the client's patience).
    case slow(seconds: TimeInterval)
    /// The server acts and the response is cut after half its body.
    case truncatedBody
    /// The server acts and the response's body breaks off after its first tag with an unclosed element.
    case malformedBody
    /// The server acts and the response says `Content-Type: application/octet-stream`.
    case wrongContentType
    /// The server acts and the response carries an element or member nobody asked for, which a client must ignore.
    case unknownMember

    /// Whether the server acts before the fault strikes.
    var serverActs: Bool {
        switch self {
        case .status, .errorPage, .dropConnection: return false
        case .loseResponse, .slow, .truncatedBody, .malformedBody, .wrongContentType, .unknownMember: return true
        }
    }

    /// `HTTP 503, Retry-After 30`
    public var description: String {
        switch self {
        case .status(let status, let retryAfter):
            return "HTTP \(status)" + (retryAfter.map { ", Retry-After \($0)" } ?? "")
        case .errorPage(let status): return "HTML error page (HTTP \(status))"
        case .dropConnection: return "dropped connection"
        case .loseResponse: return "lost response"
        case .slow(let seconds): return "answer after \(seconds) s"
        case .truncatedBody: return "truncated body"
        case .malformedBody: return "malformed body"
        case .wrongContentType: return "wrong content type"
        case .unknownMember: return "unknown member"
        }
    }
}
