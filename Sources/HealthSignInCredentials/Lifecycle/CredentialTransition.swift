/// A lifecycle step in progress (signing in, activating, provisioning, authorizing, erasing), as
/// ``CredentialSession/transition(_:)`` hands it to the step's body.
///
/// Steps run one at a time, so the state a step reads stays its own while it waits for the network; only a refresh
/// of the credential it holds may land meanwhile, which is why ``update(_:)`` applies a change to the state as it is
/// then. Every write holds the store's lock and is stored before anyone sees it.
public struct CredentialTransition<Policy: CredentialPolicy>: Sendable {
    let session: CredentialSession<Policy>
    let id: UInt64

    /// The state as it is now.
    public func current() async throws -> Policy.State? {
        try await session.transitionState(id)
    }

    /// Stores `state`, replacing whatever is stored.
    public func store(_ state: Policy.State) async throws {
        try await session.transitionWrite(id) { _ in state }
    }

    /// Stores `transform` applied to the state as it is when the write happens; does nothing when nothing is stored.
    public func update(_ transform: @escaping @Sendable (Policy.State) -> Policy.State) async throws {
        try await session.transitionWrite(id) { $0.map(transform) }
    }

    /// Stores what `make` builds from the state as it is when the write happens (nil when nothing is stored), so that
    /// a step can add to the state without reading it first and racing a refresh or another instance.
    public func store(_ make: @escaping @Sendable (Policy.State?) -> Policy.State) async throws {
        try await session.transitionWrite(id) { make($0) }
    }

    /// Erases the stored state (also when it could not be decoded), ends every lease on the credential, and returns
    /// what was stored.
    ///
    /// - Parameter settlingRefresh: first wait for a refresh in flight to finish, so the value returned is the newest
    ///   (to revoke the refresh token a refresh has just rotated, rather than the one before it).
    @discardableResult
    public func erase(settlingRefresh: Bool = false) async throws -> Policy.State? {
        try await session.transitionErase(id, settlingRefresh: settlingRefresh)
    }
}

extension CredentialSession {
    /// Runs a lifecycle step after every step called before it has finished.
    ///
    /// The store is read again first, so the step decides on what is stored now.
    ///
    /// - Throws: `CancellationError` when the task is cancelled while waiting its turn, or what `body` throws.
    public func transition<Result: Sendable>(
        _ body: @Sendable (CredentialTransition<Policy>) async throws -> Result
    ) async throws -> Result {
        try await transitions.lock()
        defer { transitions.unlock() }
        transitionCount += 1
        let id = transitionCount
        activeTransition = id
        defer { activeTransition = nil }
        try? await storePendingWrite()
        try await reread()
        return try await body(CredentialTransition(session: self, id: id))
    }

    /// Erases the stored state as a step of its own; see ``CredentialTransition/erase(settlingRefresh:)``.
    @discardableResult
    public func erase(settlingRefresh: Bool = false) async throws -> State? {
        try await transition { try await $0.erase(settlingRefresh: settlingRefresh) }
    }

    func transitionState(_ id: UInt64) throws -> State? {
        guard activeTransition == id else { throw CredentialLifecycleError.transitionEnded }
        return value
    }

    func transitionWrite(_ id: UInt64, _ change: @Sendable (State?) -> State?) async throws {
        guard activeTransition == id else { throw CredentialLifecycleError.transitionEnded }
        try await underStoreLock {
            // Another instance may have rotated the credential since the step read it, and without a store lock it
            // may write between this read and the swap: then the change is applied again to what it wrote.
            for _ in 0..<3 {
                try await reread()
                let basis = storedBytes
                guard let next = change(value) else { return }
                if try await write(next, event: .stored, over: basis) { return }
            }
            throw CredentialLifecycleError.superseded
        }
    }

    func transitionErase(_ id: UInt64, settlingRefresh: Bool) async throws -> State? {
        guard activeTransition == id else { throw CredentialLifecycleError.transitionEnded }
        if settlingRefresh { try await refreshGate.lock() }
        defer { if settlingRefresh { refreshGate.unlock() } }
        leases.revoke()
        return try await underStoreLock {
            if settlingRefresh { try await reread() }
            let erased = value
            try await erase(event: .erased)
            return erased
        }
    }
}
