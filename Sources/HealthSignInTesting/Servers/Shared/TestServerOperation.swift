import Foundation

/// What an in-process server takes a request for: one of the operations its server type lists in `all`.
///
/// Each server names its operations in a type of its own (``SMARTTestServer/Operation``,
/// ``KoppeltaalTestServer/Operation``, ``VitalTestServer/Operation``, ``HealthVaultTestServer/Operation``), so a
/// ledger query names only operations that server performs:
///
/// ```swift
/// XCTAssertEqual(server.ledger.count(.refreshToken), 1)
/// XCTAssertEqual(server.ledger.count(refused: .refreshToken), 0)
/// ```
public protocol TestServerOperation: Hashable, Sendable, CustomStringConvertible {
    /// The name the emulator counts the operation by, e.g. `token:refresh_token`.
    var name: String { get }
    /// Every operation the server performs.
    static var all: [Self] { get }
}

extension TestServerOperation {
    /// The ``name``.
    public var description: String { name }
}
