/// Permission to send requests with a credential until it is erased.
///
/// Every access a ``CredentialSession`` hands out comes with a lease. Requests that carry the credential go through
/// ``guarding(_:)``: once the credential is erased (signing out, revoking, disconnecting, a dead grant), the lease
/// refuses them with ``CredentialLifecycleError/erased`` before they are sent, so a call that took the credential
/// just before the erase, or a replay after it, never sends it again. That holds for an erase by another instance
/// or process sharing the store too: before each request the lease asks the store, and refuses when it holds no
/// credential.
public final class CredentialLease: Sendable {
    private let epoch: UInt64
    private let currentEpoch: LockedValue<UInt64>
    /// What must also still hold for a request to go out, checked just before each one.
    private let condition: (@Sendable () -> Bool)?

    fileprivate init(epoch: UInt64, currentEpoch: LockedValue<UInt64>, condition: (@Sendable () -> Bool)? = nil) {
        self.epoch = epoch
        self.currentEpoch = currentEpoch
        self.condition = condition
    }

    /// Whether requests may still carry the credential.
    public var isValid: Bool { isUnerasedHere && condition?() != false }

    /// Whether this instance has not erased the credential since handing out the lease (whatever another instance
    /// did to the store).
    var isUnerasedHere: Bool { currentEpoch.current == epoch }

    /// This lease, valid only while `condition` also holds: for a request computed from state that another
    /// instance may change meanwhile, such as a refresh of what a store without a lock held.
    func requiring(_ condition: @escaping @Sendable () -> Bool) -> CredentialLease {
        let own = self.condition
        return CredentialLease(epoch: epoch, currentEpoch: currentEpoch) { own?() != false && condition() }
    }

    /// `transport`, refusing to send once the credential is erased.
    public func guarding(_ transport: any HTTPTransport) -> any HTTPTransport {
        LeasedTransport(base: transport, lease: self)
    }
}

/// The leases of one session: one per erase epoch, so handing one out allocates nothing.
final class LeaseBook: Sendable {
    private let epoch = LockedValue<UInt64>(0)
    private let issued: LockedValue<CredentialLease>
    /// What every lease also requires, e.g. that the shared store still holds a credential.
    private let condition: (@Sendable () -> Bool)?

    init(condition: (@Sendable () -> Bool)? = nil) {
        self.condition = condition
        issued = LockedValue(CredentialLease(epoch: 0, currentEpoch: epoch, condition: condition))
    }

    /// The lease for the credential as it is now.
    var current: CredentialLease { issued.current }

    /// Ends every lease handed out so far.
    func revoke() {
        let next = epoch.withValue { epoch -> UInt64 in
            epoch += 1
            return epoch
        }
        issued.withValue { $0 = CredentialLease(epoch: next, currentEpoch: epoch, condition: condition) }
    }
}

/// A transport that sends only while its lease is valid.
private struct LeasedTransport: HTTPTransport {
    let base: any HTTPTransport
    let lease: CredentialLease

    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        guard lease.isValid else { throw CredentialLifecycleError.erased }
        return try await base.send(request)
    }
}
