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
    private let condition: (@Sendable () async -> CredentialLifecycleError?)?
    /// What must hold before each request besides (a lock still held), throwing when it does not.
    private let confirmation: (@Sendable () async throws -> Void)?
    /// Whether a request was refused because the store holds another credential now: for good, since the lease is
    /// bound to what the store held.
    private let supersededSeen = LockedValue(false)

    fileprivate init(
        epoch: UInt64, currentEpoch: LockedValue<UInt64>,
        condition: (@Sendable () async -> CredentialLifecycleError?)? = nil,
        confirmation: (@Sendable () async throws -> Void)? = nil
    ) {
        self.epoch = epoch
        self.currentEpoch = currentEpoch
        self.condition = condition
        self.confirmation = confirmation
    }

    /// Throws why a request may not go out now.
    fileprivate func check() async throws {
        if let refusal = await refusal {
            if refusal == .superseded { supersededSeen.withValue { $0 = true } }
            throw refusal
        }
        try await confirmation?()
        // The checks above wait for the store: an erase here that began meanwhile has ended the lease by now.
        guard isUnerasedHere else { throw CredentialLifecycleError.erased }
    }

    /// Whether requests may still carry the credential.
    public var isValid: Bool {
        get async { await refusal == nil }
    }

    /// Why requests may no longer carry the credential, or nil while they may.
    var refusal: CredentialLifecycleError? {
        get async {
            guard isUnerasedHere else { return .erased }
            return await condition?()
        }
    }

    /// Whether a request under this lease was refused because another instance replaced the credential.
    var wasSuperseded: Bool { supersededSeen.current }

    /// Whether this instance has not erased the credential since handing out the lease (whatever another instance
    /// did to the store).
    var isUnerasedHere: Bool { currentEpoch.current == epoch }

    /// `transport`, refusing to send once the credential is erased.
    public func guarding(_ transport: any HTTPTransport) -> any HTTPTransport {
        LeasedTransport(base: transport, lease: self)
    }
}

/// The leases of one session: ending them all is moving to the next erase epoch.
final class LeaseBook: Sendable {
    private let epoch = LockedValue<UInt64>(0)

    init() {}

    /// A lease for the credential as it is now, valid only while `condition` gives no refusal: for a credential bound
    /// to what the store held when it was handed out.
    ///
    /// - Parameter confirmation: also run before each request, throwing when it may not go out.
    func current(
        requiring condition: @escaping @Sendable () async -> CredentialLifecycleError?,
        confirming confirmation: (@Sendable () async throws -> Void)? = nil
    ) -> CredentialLease {
        CredentialLease(epoch: epoch.current, currentEpoch: epoch, condition: condition, confirmation: confirmation)
    }

    /// Ends every lease handed out so far.
    func revoke() {
        epoch.withValue { $0 += 1 }
    }
}

/// A transport that sends only while its lease is valid.
private struct LeasedTransport: HTTPTransport {
    let base: any HTTPTransport
    let lease: CredentialLease

    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        try await lease.check()
        return try await base.send(request)
    }
}
