import Foundation
import HealthSignInCore

/// What every in-process test server lends the code under test: the network to send through, the clock it reads,
/// the faults it will play and the ledger of what it received.
///
/// ``HealthVaultTestServer``, ``KoppeltaalTestServer``, ``VitalTestServer``, ``SMARTTestServer`` and
/// ``Koppeltaal2TestServer`` conform, so a helper of an app's tests can be written once for any of them:
///
/// ```swift
/// func expectNothingSent(to server: some TestServer) {
///     XCTAssertTrue(server.ledger.entries.isEmpty, "\(server.ledger)")
/// }
/// ```
public protocol TestServer: AnyObject, Sendable {
    /// What the server takes each request for, as its ledger names it.
    associatedtype Operation: TestServerOperation
    /// The network to give the clients and browsers under test.
    var transport: TestServerTransport { get }
    /// The clock the server dates and expires by; give the clients under test the same one.
    var clock: any TimeSource { get }
    /// The faults the server will play.
    var faults: TestServerFaults { get }
    /// What the server received.
    var ledger: TestServerLedger<Operation> { get }
}

extension TestServer {
    /// The network, with requests that give up after `timeout` seconds of a ``TestServerFault/slow(seconds:)``
    /// answer.
    public func transport(timeout: TimeInterval) -> TestServerTransport { transport.timingOut(after: timeout) }
}

extension InProcessServer {
    /// The network to give the clients and browsers under test.
    public var transport: TestServerTransport { TestServerTransport(server: self, timeout: nil) }
    /// The clock the server dates and expires by; give the clients under test the same one.
    public var clock: any TimeSource { core.clock }
    /// The faults the server will play.
    public var faults: TestServerFaults { core.faults }
    /// What the server received.
    public var ledger: TestServerLedger<Operation> { core.ledger }
}
