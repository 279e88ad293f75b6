/// Permission to send requests with a credential until it is erased.
///
/// Every access a ``CredentialSession`` hands out comes with a lease. Requests that carry the credential go through
/// ``guarding(_:)``: once the credential is erased (signing out, revoking, disconnecting, a dead grant), the lease
/// refuses them with ``CredentialLifecycleError/erased`` before they are sent, so a call that took the credential
/// just before the erase, or a replay after it, never sends it again.
public final class CredentialLease: Sendable {
    private let epoch: UInt64
    private let currentEpoch: LockedValue<UInt64>

    fileprivate init(epoch: UInt64, currentEpoch: LockedValue<UInt64>) {
        self.epoch = epoch
        self.currentEpoch = currentEpoch
    }

    /// Whether requests may still carry the credential.
    public var isValid: Bool { currentEpoch.current == epoch }

    /// `transport`, refusing to send once the credential is erased.
    public func guarding(_ transport: any HTTPTransport) -> any HTTPTransport {
        LeasedTransport(base: transport, lease: self)
    }
}

/// The leases of one session: one per erase epoch, so handing one out allocates nothing.
final class LeaseBook: Sendable {
    private let epoch = LockedValue<UInt64>(0)
    private let issued: LockedValue<CredentialLease>

    init() {
        issued = LockedValue(CredentialLease(epoch: 0, currentEpoch: epoch))
    }

    /// The lease for the credential as it is now.
    var current: CredentialLease { issued.current }

    /// Ends every lease handed out so far.
    func revoke() {
        let next = epoch.withValue { epoch -> UInt64 in
            epoch += 1
            return epoch
        }
        issued.withValue { $0 = CredentialLease(epoch: next, currentEpoch: epoch) }
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
