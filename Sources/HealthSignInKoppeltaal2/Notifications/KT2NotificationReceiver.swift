import Foundation
import HealthSignInCore

/// The receiving end of a Koppeltaal 2.0 rest-hook Subscription.
///
/// A notification says only that something matching the subscription changed: the FHIR server posts an empty body,
/// with the header line the Subscription's `channel.header` registered (there is no signature) and the trace
/// headers. The receiver checks that header in constant time and that the body is empty, then hands back the
/// trace to search with, so the search correlates to the notification.
///
/// ```swift
/// let receiver = KT2NotificationReceiver(header: "X-KTSubscription", value: secret)
/// let trace = try receiver.accept(headers: request.headers, body: request.body ?? Data())
/// for try await page in fhir.search(KT2Task.self, ["status": "completed"], trace: trace) { _ = page }
/// ```
public struct KT2NotificationReceiver: Sendable, CustomStringConvertible, CustomReflectable {
    /// The registered header's name, e.g. `Authorization` or `X-KTSubscription`.
    public let headerName: String
    private let expected: [UInt8]

    /// A receiver expecting `value` in the header `header`.
    public init(header: String, value: String) {
        headerName = header
        expected = Array(value.utf8)
    }

    /// The line to put in the Subscription's `channel.header`: `<name>: <value>`.
    public var channelHeader: String { headerName + ": " + String(decoding: expected, as: UTF8.self) }

    /// Accepts a notification: the registered header with the registered value, and no body.
    ///
    /// - Returns: the trace to search with: the notification's `X-Trace-Id` (or a new one) and its `X-Request-Id`
    ///   as the correlation id.
    /// - Throws: ``KT2NotificationError`` when the header is missing or wrong, or a body came.
    public func accept(headers: HTTPHeaderFields, body: Data) throws -> KT2Trace {
        try accept(body: body) { headers[$0] }
    }

    /// Accepts a notification whose header fields a web framework holds: `header` gives the value of a field by
    /// name (case-insensitive, as HTTP names are), or nil.
    ///
    /// - Throws: ``KT2NotificationError`` when the header is missing or wrong, or a body came.
    public func accept(body: Data, header: (String) -> String?) throws -> KT2Trace {
        let received = header(headerName).map { Array($0.utf8) } ?? []
        guard CryptoPrimitives.constantTimeEqual(received, expected), !expected.isEmpty else {
            throw KT2NotificationError.unauthenticated
        }
        guard body.isEmpty else { throw KT2NotificationError.unexpectedBody }
        var trace = KT2Trace(correlationID: header("X-Request-Id"))
        if let traceID = header("X-Trace-Id"), !traceID.isEmpty { trace.traceID = traceID }
        return trace
    }

    /// The header's name; its value is redacted.
    public var description: String { "KT2NotificationReceiver(\(headerName): \(Redaction.placeholder))" }

    /// A mirror that shows the same as the description: the header's value is redacted.
    public var customMirror: Mirror { Mirror(self, children: ["receiver": description]) }
}

/// Why a notification was refused.
public enum KT2NotificationError: SDKError, Hashable {
    /// The registered header is missing or has another value: answer 401.
    case unauthenticated
    /// The notification has a body, which a Koppeltaal 2.0 rest-hook never sends: answer 400.
    case unexpectedBody

    /// Nothing to do but refuse the request: the sender is not the subscription's server, or it is misconfigured.
    public var recovery: ErrorRecovery { .none }

    /// What was wrong.
    public var description: String {
        switch self {
        case .unauthenticated: return "Koppeltaal2 notification refused: the subscription's header is missing or wrong"
        case .unexpectedBody: return "Koppeltaal2 notification refused: a rest-hook notification has no body"
        }
    }
}
