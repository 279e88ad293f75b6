import Foundation

/// An error body of one of a schema's error formats, as a generated client decodes it: the body, the response that
/// carried it, the codes the schema's table names, and the server's explanation.
///
/// Every generated error type conforms (`OAuthError`, `HealthVaultError`, `VitalError`, `OperationOutcomeError`), so
/// its status, method, recovery and description are the same everywhere.
public protocol ServerErrorResponse: ProtocolError, Equatable {
    /// The decoded error body.
    associatedtype Body: Sendable & Equatable
    /// The codes of the schema's table; ``NoServerErrorCode`` when the schema lists none.
    associatedtype Code: ServerErrorCode
    /// The decoded error body.
    var body: Body { get }
    /// The response that carried the body.
    var origin: ServerErrorOrigin { get }
    /// Creates an error.
    init(body: Body, origin: ServerErrorOrigin)
    /// Every error code in the body, in order.
    var codes: [Code] { get }
    /// The server's explanation, when it gave one.
    var message: String? { get }
    /// The code or codes as ``description`` shows them after the error's name, each after a space; empty when the
    /// body has none.
    var shownCodes: String { get }
}

/// The response an error body came in: its HTTP status, the method that failed, and the recovery the family's
/// protocol gives the error's codes where it differs from the schema's table.
public struct ServerErrorOrigin: Sendable, Hashable {
    /// The HTTP status of the response.
    public let httpStatus: Int
    /// The method that failed, by its schema name.
    public let operation: String
    /// The recovery the family's protocol gives the codes, or nil for the schema's table.
    public let recovery: ErrorRecovery?

    /// Creates an origin.
    public init(httpStatus: Int, operation: String, recovery: ErrorRecovery? = nil) {
        self.httpStatus = httpStatus
        self.operation = operation
        self.recovery = recovery
    }
}

/// A code of a schema's error table: its documented recovery, and a description that names it.
public protocol ServerErrorCode: Sendable, Hashable, CustomStringConvertible {
    /// What a caller should do about this code.
    var recovery: ErrorRecovery { get }
}

/// The code type of an error format whose schema lists no codes: it has no values.
public enum NoServerErrorCode: ServerErrorCode {
    /// Never called: there is no value.
    public var recovery: ErrorRecovery { switch self {} }
    /// Never called: there is no value.
    public var description: String { switch self {} }
}

extension ServerErrorResponse {
    /// The HTTP status of the response that carried the error.
    public var httpStatus: Int { origin.httpStatus }

    /// The method that failed, by its schema name.
    public var operation: String { origin.operation }

    /// Creates an error whose recovery comes from the schema's code table.
    public init(body: Body, httpStatus: Int, operation: String) {
        self.init(body: body, origin: ServerErrorOrigin(httpStatus: httpStatus, operation: operation))
    }

    /// Creates an error whose recovery `codeRecovery` gives for its codes, for a protocol that gives some codes another
    /// meaning: the first code's recovery that calls for something.
    public init(body: Body, httpStatus: Int, operation: String, recovery codeRecovery: (Code) -> ErrorRecovery) {
        let codes = Self(body: body, httpStatus: httpStatus, operation: operation).codes
        let recovery = codes.lazy.map(codeRecovery).first { $0 != .none } ?? ErrorRecovery.none
        self.init(
            body: body, origin: ServerErrorOrigin(httpStatus: httpStatus, operation: operation, recovery: recovery))
    }

    /// What a caller should do about the error: the family's recovery where its protocol gives one, otherwise the
    /// recovery of the first code that calls for something.
    public var recovery: ErrorRecovery {
        origin.recovery ?? codes.lazy.map(\.recovery).first { $0 != .none } ?? .none
    }

    /// The codes as the schema's table names them.
    public var shownCodes: String { codes.map { " \($0)" }.joined(separator: ",") }

    /// The method, the code and the message; never the body's sensitive fields.
    public var description: String {
        "\(operation) failed: \(Self.self)" + shownCodes + (message.map { ": \($0)" } ?? "") + " (HTTP \(httpStatus))"
    }
}
