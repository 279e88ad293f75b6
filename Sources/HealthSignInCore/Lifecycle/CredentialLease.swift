/// Permission to send requests with a credential while it is the one stored.
///
/// Every access a ``CredentialSession`` hands out comes with a lease. Requests that carry the credential go through
/// ``guarding(_:)``: once the credential is erased (signing out, revoking, disconnecting, a dead grant), the lease
/// refuses them with ``CredentialLifecycleError/erased`` before they are sent, so a call that took the credential
/// just before the erase, or a replay after it, never sends it again. That holds for another instance or process
/// sharing the store too: before each request the lease reads the store, and refuses when it holds no credential
/// (``CredentialLifecycleError/erased``) or another one (``CredentialLifecycleError/superseded``: a refresh or a new
/// sign-in there). A revoked grant's token is never sent, even after a new sign-in; ``CredentialSession``'s
/// `withCredential` runs its operation once more with the current credential after a `superseded` refusal.
public final class CredentialLease: Sendable {
    fileprivate let epoch: UInt64
    private let currentEpoch: LockedValue<UInt64>
    /// Why a request may not go out now, or nil when it may: checked just before each one.
    private let condition: (@Sendable () -> CredentialLifecycleError?)?

    fileprivate init(
        epoch: UInt64, currentEpoch: LockedValue<UInt64>,
        condition: (@Sendable () -> CredentialLifecycleError?)? = nil
    ) {
        self.epoch = epoch
        self.currentEpoch = currentEpoch
        self.condition = condition
    }

    /// Whether requests may still carry the credential.
    public var isValid: Bool { refusal == nil }

    /// Why requests may no longer carry the credential, or nil while they may.
    var refusal: CredentialLifecycleError? { isUnerasedHere ? condition?() : .erased }

    /// Whether this instance has not erased the credential since handing out the lease (whatever another instance
    /// did to the store).
    var isUnerasedHere: Bool { currentEpoch.current == epoch }

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
    private let condition: (@Sendable () -> CredentialLifecycleError?)?

    init(condition: (@Sendable () -> CredentialLifecycleError?)? = nil) {
        self.condition = condition
        issued = LockedValue(CredentialLease(epoch: 0, currentEpoch: epoch, condition: condition))
    }

    /// The lease for the credential as it is now.
    var current: CredentialLease { issued.current }

    /// The lease for the credential as it is now, valid only while `condition` (in place of the book's own) gives no
    /// refusal: for a credential bound to what the store held when it was handed out.
    func current(requiring condition: @escaping @Sendable () -> CredentialLifecycleError?) -> CredentialLease {
        CredentialLease(epoch: issued.current.epoch, currentEpoch: epoch, condition: condition)
    }

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
        if let refusal = lease.refusal { throw refusal }
        return try await base.send(request)
    }
}
