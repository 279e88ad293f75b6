import Foundation

/// Owns one stored credential for its whole life: loading it, handing it to calls, refreshing it once for all
/// callers, applying lifecycle steps one at a time, and erasing it.
///
/// Every flow is built on one session with a protocol-specific ``CredentialPolicy``. The guarantees:
///
/// - **Served from memory.** A call that finds a usable credential in memory uses it without waiting for the store,
///   as long as the store's change feed (``CredentialStore/changes``) says nobody changed it; a store without a feed
///   is asked for the value's version first. While the feed's channel is down the store is read before use, and
///   while the store cannot be reached at all the credential last read from it is used until it needs refreshing.
/// - **Lazy load.** The store is read on first use. A value that cannot be decoded counts as nothing stored and is
///   reported once (``CredentialEvent/unreadableStoredValue``); erasing always clears it and a new value replaces it.
///   A store that cannot be read (a locked Keychain) is an error, never "signed out".
/// - **Serialized transitions.** Lifecycle steps (``transition(_:)``) run one at a time, in call order, even while
///   they wait for the network.
/// - **Persist before publish.** A new value is written to the store before any caller, status or event sees it.
/// - **Single-flight refresh.** However many calls find the credential expired (within the policy's skew, or
///   refused by the server as expired), one refresh runs and all of them get its result. A caller whose task is
///   cancelled stops waiting at once; the refresh goes on and its result is stored.
/// - **Nothing acts on a stale credential.** A refresh or refusal is applied only while the stored state still holds
///   the credential it started from; otherwise it is dropped and logged.
/// - **Shared stores.** A refresh holds the store's lock (``CredentialStore/lock(_:)``) and reads the store again
///   first: when another instance or process has already refreshed, its credential is used and nothing is sent.
///   Just before the refresh token goes out the lock is confirmed (``CredentialStoreLock/confirm()``), and what the
///   refresh brings is written fenced by it, so a holder whose lock passed to another neither spends nor overwrites.
///   Every write but an erase is a compare-and-swap (``CredentialStore/replace(_:with:for:)``) against the bytes
///   the write was decided on, so with a store that has no lock too, a refresh or refusal never overwrites or erases
///   what another instance stored meanwhile: the outcome is dropped and the stored credential used instead.
/// - **A refused token is not adopted.** A credential the server refused is not taken up again from the store; when
///   the one another instance stored is refused too, the call renews once more.
/// - **Erase wins.** After an erase returns, the credential is gone from the store and from memory, no refresh in
///   flight writes it back, and no request carries it again (``CredentialLease``), in this instance or in any other
///   sharing the store once the change has reached it: every call and every request first checks, through the
///   store's change feed or by asking the store, that it still holds the value.
/// - **A credential goes only where it was issued.** The state is stored with the registration it was issued for
///   (``CredentialPolicy/registration(of:)``), under a key derived from the session's registrations unless one was
///   configured (``CredentialKey``). A credential recorded for a registration the policy does not accept is never
///   sent, changed or erased: it counts as nothing stored, and when it sits under a configured key the session keeps
///   its own under its derived key from then on (``CredentialEvent/keyHeldByAnotherRegistration``). A state an
///   earlier version stored without a registration, under that key or the former default one, is used only when the
///   policy claims it, and is then recorded under this session's key.
public actor CredentialSession<Policy: CredentialPolicy> {
    /// The state the policy describes.
    public typealias State = Policy.State
    /// The refreshable part of the state.
    public typealias Credential = Policy.Credential

    /// What a call uses: the credential, and the lease its requests go out under.
    public struct Access: Sendable {
        /// The credential.
        public let credential: Credential
        /// The lease requests carrying the credential go through.
        public let lease: CredentialLease
        /// Whether this session's own refresh just obtained the credential (rather than finding it in memory or in the
        /// store).
        let isIssuedHere: Bool

        init(credential: Credential, lease: CredentialLease, isIssuedHere: Bool = false) {
            self.credential = credential
            self.lease = lease
            self.isIssuedHere = isIssuedHere
        }
    }

    /// Where the state is kept.
    public nonisolated let store: any CredentialStore
    /// The keys the state may be found under.
    public nonisolated let keys: CredentialKey
    /// The key the state is kept under now: the primary one, or the derived one once the primary one was found to
    /// hold another registration's credential.
    public nonisolated var key: String { activeKey.current }
    private nonisolated let activeKey: LockedValue<String>
    /// The protocol's rules.
    public nonisolated let policy: Policy
    private nonisolated let clock: any TimeSource
    private nonisolated let logger: (any LogSink)?
    private nonisolated let category: String
    private nonisolated let observe: @Sendable (CredentialChange<State>) -> Void
    private nonisolated let eventBroadcaster = Broadcaster<CredentialEvent>()
    private nonisolated let subscriberIDs = LockedValue<UInt64>(0)
    nonisolated let leases: LeaseBook
    let transitions = AsyncMutex()
    let refreshGate = AsyncMutex()
    /// Orders this session's reads and writes of the store, so what it holds in memory follows the store in order.
    let storeIO = AsyncMutex()

    private(set) var value: State?
    private var loaded = false
    /// The bytes the store held when this session last read or wrote it.
    private(set) var storedBytes: Data?
    /// A refresh's outcome the store failed to write: kept aside, since the server has already replaced the
    /// credential, never used before it is stored, and stored at the next use.
    private var pendingWrite: State?
    /// The registration whose credential the key holds, when this session has no other key to keep its own under.
    private var heldBy: CredentialRegistration?
    private var flight: SharedRun<Access>?
    /// The read of the store that calls finding their credential possibly changed share.
    private var readFlight: SharedRun<Bool>?
    /// The feed's mark for the key just before the store was last read (nil: unknown).
    private var confirmedMark: CredentialChangeMark?
    /// The value's version just before the store was last read, for stores without a feed (nil: unknown).
    private var confirmedVersion: Data?
    /// Credentials the server refused lately: never taken up again from the store.
    private var refused: [Credential] = []
    /// The last lease bound to the stored bytes, with those bytes.
    private var bound: (bytes: Data?, lease: CredentialLease)?
    /// The store's lock, while this session's refresh holds it (so its own writes need not wait for it, and are
    /// fenced by it).
    var heldStoreLock: (any CredentialStoreLock)?
    var activeTransition: UInt64?
    var transitionCount: UInt64 = 0
    private var subscribers: [UInt64: @Sendable (State?) -> Void] = [:]

    /// Creates a session; nothing is read until first use.
    ///
    /// - Parameters:
    ///   - store: where the state is kept.
    ///   - key: the keys it is kept under: configured or derived from the registrations, with the former default
    ///     one.
    ///   - policy: the protocol's rules.
    ///   - clock: decides whether the credential needs refreshing.
    ///   - logger: receives redacted lifecycle records.
    ///   - category: the log category, e.g. the family's name.
    ///   - observe: called on every change, after it is stored, with the state before and after (for the flow's own
    ///     events).
    public init(
        store: any CredentialStore, key: CredentialKey, policy: Policy, clock: any TimeSource = SystemClock(),
        logger: (any LogSink)? = nil, category: String,
        observe: @escaping @Sendable (CredentialChange<State>) -> Void = { _ in }
    ) {
        self.store = store
        keys = key
        let activeKey = LockedValue(key.primary)
        self.activeKey = activeKey
        self.policy = policy
        self.clock = clock
        self.logger = logger
        self.category = category
        self.observe = observe
        leases = LeaseBook()
    }

    /// Creates a session whose state is kept under exactly `key`; nothing is read until first use.
    public init(
        store: any CredentialStore, key: String, policy: Policy, clock: any TimeSource = SystemClock(),
        logger: (any LogSink)? = nil, category: String,
        observe: @escaping @Sendable (CredentialChange<State>) -> Void = { _ in }
    ) {
        self.init(
            store: store, key: CredentialKey(fixed: key), policy: policy, clock: clock, logger: logger,
            category: category, observe: observe)
    }

    // MARK: - Reading

    /// The stored state, loaded on first use; nil when nothing (or nothing readable) is stored. When nothing is
    /// held in memory the store is read again, so a value another instance stored is seen.
    ///
    /// - Throws: the store's error when it cannot be read.
    public func current() async throws -> State? {
        if !loaded || value == nil { try await reread() }
        return value
    }

    /// The state as the store holds it now, read without the session (for answers that must not wait, such as a
    /// synchronous status), where the session would find it; a value that cannot be decoded, or that is not this
    /// session's, is nil.
    ///
    /// - Throws: the store's error when it cannot be read.
    public nonisolated func storedState() async throws -> State? {
        let key = self.key
        var reading = policy.reading(try await store.read(key))
        if reading.owner != nil, key != keys.derived { reading = policy.reading(try await store.read(keys.derived)) }
        if case .nothing = reading, let former = keys.former {
            return policy.reading(try await store.read(former)).unrecordedState
        }
        return reading.state
    }

    /// Makes sure the state in memory is the stored one before a call uses it, reading the store only when it must:
    /// while the store's feed gives the mark last confirmed (or, without a feed, the version), it is.
    private func confirmCurrent() async throws {
        guard loaded, value != nil else {
            try await sharedReread()
            return
        }
        guard let feed = store.changes else {
            let version = try await store.version(of: key)
            if version == nil || version != confirmedVersion { try await sharedReread() }
            return
        }
        let mark = feed.mark(for: key)
        if let mark, mark == confirmedMark { return }
        if let mark, let confirmedMark, mark.epoch == confirmedMark.epoch {
            // The feed announced a change: it is read, and a store that cannot be read now fails the call.
            try await sharedReread()
            return
        }
        // The feed's channel is down, or came up since the value was read (so it cannot tell what happened before):
        // the store is read before use. A store out of reach cannot tell of a change either, and the credential last
        // read from it serves until it needs refreshing.
        do {
            try await sharedReread()
        } catch  where (error as? any SDKError)?.recovery == .retryLater {
            log(.debug, "the store cannot be reached; using the credential last read from it")
        }
    }

    /// A read of the store for calls that only need to see changes made before they began: concurrent callers share
    /// one, so a store that does not answer holds them all for one deadline, not one each.
    private func sharedReread() async throws {
        if let readFlight {
            _ = try await readFlight.value()
            return
        }
        let run = SharedRun { [self] in try await self.rereadAndLand() }
        readFlight = run
        _ = try await run.value()
    }

    private func rereadAndLand() async throws -> Bool {
        defer { readFlight = nil }
        return try await reread()
    }

    /// Reads the store and takes its value when it differs from the last one seen.
    ///
    /// - Returns: whether the value changed.
    @discardableResult
    func reread() async throws -> Bool {
        try await holdingStoreIO { try await rereadHoldingIO() }
    }

    /// Runs `body` holding ``storeIO``.
    private func holdingStoreIO<Result>(_ body: () async throws -> Result) async throws -> Result {
        try await storeIO.lock()
        defer { storeIO.unlock() }
        return try await body()
    }

    /// ``reread()`` for a caller that holds ``storeIO``.
    private func rereadHoldingIO() async throws -> Bool {
        // The mark and the version are taken before the value: a change after them moves them, and is seen next time.
        let mark = store.changes?.mark(for: key)
        let version = store.changes == nil ? try await store.version(of: key) : nil
        var data = try await store.read(key)
        if !loaded, data == nil, let moved = try await moveFromFormerKey() { data = moved }
        confirmedMark = mark
        confirmedVersion = version
        if loaded, data == storedBytes { return false }
        var reading = policy.reading(data)
        if case .foreign(let owner) = reading, moveToDerivedKey(leaving: owner) {
            confirmedMark = store.changes?.mark(for: key)
            confirmedVersion = store.changes == nil ? try await store.version(of: key) : nil
            data = try await store.read(key)
            reading = policy.reading(data)
        }
        // Recording is an improvement, not a need: a store that refuses the write still serves the state.
        if case .own(let state, recorded: false) = reading, let recorded = try? await record(state, storedAs: data) {
            data = recorded
            confirmedVersion = nil
        }
        let wasLoaded = loaded
        let before = value
        let decoded = reading.state
        let unreadable = reading.isUnreadable
        heldBy = reading.owner
        loaded = true
        storedBytes = data
        if let heldBy {
            log(.warning, "the store key holds the credential of another registration (\(heldBy)); it is left alone")
        } else if case .unclaimed = reading {
            log(.info, "the value stored by an earlier version is not this registration's; it counts as nothing stored")
        }
        guard decoded != before || unreadable else { return false }
        value = decoded
        // Calls that took the credential before another instance erased it must not send it now.
        if decoded == nil { leases.revoke() }
        if unreadable {
            log(.warning, "the stored value cannot be read; it counts as nothing stored until it is replaced or erased")
            announce(.unreadableStoredValue, before: before, after: nil)
        } else if wasLoaded {
            log(.info, "another instance changed the stored credential; using its value")
            announce(.adopted, before: before, after: decoded)
        } else {
            deliverToSubscribers()
        }
        return decoded != before
    }

    // MARK: - Using the credential

    /// A usable credential, refreshed first when the policy says it needs it.
    ///
    /// - Throws: the policy's missing-credential error, its unusable-credential error, or the refresh's error.
    public func access() async throws -> Access {
        try await storePendingWrite()
        try await confirmCurrent()
        guard let state = try startingState(), let credential = policy.credential(in: state) else {
            throw policy.missingCredentialError(in: value)
        }
        try policy.checkUsable(credential)
        if policy.needsRefresh(credential, at: clock.now()) { return try await refreshed(replacing: credential) }
        return Access(credential: credential, lease: boundLease())
    }

    /// A credential to use instead of `stale`: the current one when someone already replaced it, otherwise the
    /// result of the one refresh that runs for every caller.
    ///
    /// - Throws: `CancellationError` as soon as the caller's task is cancelled (the refresh goes on), or the
    ///   refresh's error.
    public func refreshed(replacing stale: Credential) async throws -> Access {
        if let state = value, let current = policy.credential(in: state), current != stale, isAdoptable(current) {
            return Access(credential: current, lease: boundLease())
        }
        let run = flight ?? startRefresh(trigger: stale)
        return try await run.value()
    }

    /// A credential to use after the server refused `refusedCredential` as expired: like
    /// ``refreshed(replacing:)``, and the refused credential is never taken up again, from memory or from the store.
    func renewed(afterRefusalOf refusedCredential: Credential) async throws -> Access {
        if !refused.contains(refusedCredential) {
            refused.append(refusedCredential)
            if refused.count > 4 { refused.removeFirst() }
        }
        return try await refreshed(replacing: refusedCredential)
    }

    /// Whether `credential`, found in memory or in the store, may be used instead of refreshing.
    private func isAdoptable(_ credential: Credential) -> Bool {
        !refused.contains(credential) && (try? policy.checkUsable(credential)) != nil
            && !policy.needsRefresh(credential, at: clock.now())
    }

    /// Runs `operation` with a usable credential; when it fails with the policy's expiry signal, the credential is
    /// refreshed once for all callers and `operation` is run once more with the new one. When that one is a credential
    /// another instance stored and the server refuses it too, the credential is renewed once more (with nothing left
    /// to adopt, by a refresh of this session's own) and `operation` runs a third and last time.
    public nonisolated func withCredential<Result: Sendable>(
        _ operation: @Sendable (Access) async throws -> Result
    ) async throws -> Result {
        var access = try await access()
        var (renewals, rereads) = (0, 0)
        while true {
            do {
                return try await operation(access)
            } catch CredentialLifecycleError.superseded
                where rereads == 0 && access.lease.isUnerasedHere && access.lease.wasSuperseded
            {
                // The lease refused the request: the store holds another credential. Asking it again could meet an
                // unreachable store, which refuses nothing, and fail a call that a replay serves.
                log(.debug, "another instance replaced the credential this call held; running it with the current one")
                rereads += 1
                access = try await accessRereading()
            } catch  where policy.isExpirySignal(error) && renewals < 2 && (renewals == 0 || !access.isIssuedHere) {
                log(.debug, "the server refused the credential as expired; renewing it")
                renewals += 1
                access = try await renewed(afterRefusalOf: access.credential)
            }
        }
    }

    private func startRefresh(trigger: Credential) -> SharedRun<Access> {
        let run = SharedRun { [self] in try await self.refresh(trigger: trigger) }
        flight = run
        return run
    }

    /// The refresh every waiting caller shares. It holds the refresh gate and the store's lock throughout.
    private func refresh(trigger: Credential) async throws -> Access {
        defer { flight = nil }
        try await refreshGate.lock()
        defer { refreshGate.unlock() }
        let storeLock = try await store.lock(key)
        heldStoreLock = storeLock
        defer {
            heldStoreLock = nil
            storeLock?.release()
        }
        try await storePendingWrite()
        try await reread()
        guard let state = try startingState(), let credential = policy.credential(in: state) else {
            throw policy.missingCredentialError(in: value)
        }
        try policy.checkUsable(credential)
        if credential != trigger, isAdoptable(credential) {
            return Access(credential: credential, lease: boundLease())
        }
        let isFirst = value == nil
        let fresh: Credential
        // The refresh token goes out only while the store still holds what this refresh read (another instance on a
        // store without a lock may erase or replace it while the refresh waits, for discovery say), and while this
        // refresh still holds the store's lock.
        let lease = boundLease(confirming: storeLock)
        var partial: (any Error)?
        do {
            fresh = try await policy.refresh(credential, lease: lease)
        } catch let error as CredentialLifecycleError
            where lease.isUnerasedHere && [.erased, .superseded].contains(error)
        {
            // Another instance changed the store while the refresh waited: what it holds now decides.
            return try await adoptStored(instead: CredentialLifecycleError.superseded)
        } catch CredentialStoreError.lockLost(let lockKey) {
            // The lock passed to another holder before the refresh token went out: that holder refreshes.
            log(.warning, "the store's lock passed to another holder before the refresh; nothing was sent")
            throw CredentialStoreError.lockLost(key: lockKey)
        } catch let error as PartialRefresh<Credential> {
            // The server answered: what it issued is stored before the error is reported.
            fresh = error.credential
            partial = error.error
        } catch {
            let refusal = policy.refusal(of: credential, error: error)
            guard try await apply(refusal, to: credential) else { return try await adoptStored(instead: refusal.error) }
            throw refusal.error
        }
        guard let latest = value ?? policy.initialState(), policy.credential(in: latest) == credential else {
            dropStale(
                "a refresh finished for a credential that was signed out or replaced meanwhile; its result is dropped")
            throw value.flatMap(policy.credential(in:)) == nil
                ? policy.missingCredentialError(in: value) : CredentialLifecycleError.superseded
        }
        let next = policy.state(latest, replacing: fresh)
        let basis = storedBytes
        let written: Bool
        do {
            written = try await write(next, event: .refreshed, over: basis)
        } catch {
            // The server has already replaced the credential: what it issued is kept aside, unused, until it is stored.
            log(.warning, "the refreshed credential could not be stored; it is kept aside and stored at the next use")
            pendingWrite = next
            throw error
        }
        guard written else { return try await adoptStored(instead: CredentialLifecycleError.superseded) }
        if let partial {
            log(.warning, "stored what the server issued; the refresh could not finish and is completed on next use")
            throw partial
        }
        log(.info, isFirst ? "obtained the credential" : "refreshed the credential")
        return Access(credential: fresh, lease: boundLease(), isIssuedHere: true)
    }

    /// Applies a refused refresh to `credential` if it is still the current one.
    ///
    /// - Returns: false, changing nothing, when another instance changed the store since this session read it.
    private func apply(_ refusal: CredentialRefusal<Credential>, to credential: Credential) async throws -> Bool {
        if case .keep = refusal.change { return true }
        guard let latest = value, policy.credential(in: latest) == credential else {
            dropStale("the server refused a credential that was signed out or replaced meanwhile; nothing is changed")
            return true
        }
        let basis = storedBytes
        switch refusal.change {
        case .keep:
            return true
        case .replace(let marked):
            guard try await write(policy.state(latest, replacing: marked), event: .markedAfterRefusal, over: basis)
            else {
                return false
            }
            log(.warning, "the server refused the credential; it is kept, marked")
        case .discard:
            let remaining = policy.stateWithoutCredential(latest)
            guard try await write(remaining, event: .discardedAfterRefusal, over: basis) else { return false }
            log(.warning, "the server refused the credential for good; it is erased")
            // Erasing all of the state ends the leases; erasing only the credential must end them too.
            if remaining != nil { leases.revoke() }
        }
        return true
    }

    /// After an outcome found the store changed by another instance (which refreshed, signed in or erased
    /// meanwhile): drops the outcome and uses what the store holds now.
    ///
    /// - Throws: the missing-credential error when nothing is stored now, `error` when what is stored cannot be used
    ///   as it is.
    private func adoptStored(instead error: any Error) async throws -> Access {
        dropStale("another instance changed the stored credential first; this outcome is dropped")
        try await reread()
        guard let state = value, let current = policy.credential(in: state) else {
            throw policy.missingCredentialError(in: value)
        }
        guard isAdoptable(current) else { throw error }
        return Access(credential: current, lease: boundLease())
    }

    /// The current lease, bound to what the store held when this session last read or wrote it: it refuses a request
    /// once the store holds nothing (`erased`) or anything else (`superseded`), whoever changed it. A store that
    /// cannot be read does not stop the request; the next access reports the store's error.
    private func boundLease() -> CredentialLease {
        // The same lease while nothing changed, so that what callers build on one (a client) is built once.
        if let bound, bound.bytes == storedBytes, bound.lease.isUnerasedHere { return bound.lease }
        let lease = leases.current(requiring: storedCheck().refusal)
        bound = (storedBytes, lease)
        return lease
    }

    /// The lease a refresh sends the refresh token under: the bound one's conditions, and first that the store's
    /// lock, when it has one, is still this refresh's (``CredentialStoreLock/confirm()``).
    private func boundLease(confirming storeLock: (any CredentialStoreLock)?) -> CredentialLease {
        guard let storeLock else { return boundLease() }
        return leases.current(requiring: storedCheck().refusal, confirming: storeLock.confirm)
    }

    private func storedCheck() -> StoredCredentialCheck {
        StoredCredentialCheck(
            store: store, key: key, bytes: storedBytes, mark: confirmedMark, version: confirmedVersion)
    }

    /// A usable credential after reading the store again, for a call whose credential another instance replaced.
    private func accessRereading() async throws -> Access {
        try await reread()
        return try await access()
    }

    private func dropStale(_ message: LogMessage) {
        log(.info, message)
        announce(.staleOutcomeDropped, before: value, after: value)
    }

    // MARK: - Writing

    /// Stores `newValue` (or removes the value, for nil) if the store still holds `basis`, the bytes the caller decided
    /// on (what this session had seen then), then makes it current and tells everyone. The swap is fenced by the
    /// store's lock when this session holds it. Whatever this session or another did to the store since the caller
    /// decided, the swap fails rather than write over it.
    ///
    /// - Returns: false, changing nothing, when another instance changed the store meanwhile.
    /// - Throws: ``CredentialStoreError/heldByAnotherRegistration(key:registration:)`` when the key holds another
    ///   registration's credential and this session has no other key.
    func write(_ newValue: State?, event: CredentialEvent, over basis: Data?) async throws -> Bool {
        try await holdingStoreIO {
            if let heldBy { throw CredentialStoreError.heldByAnotherRegistration(key: key, registration: heldBy) }
            let data = try newValue.map { try policy.encoded($0, for: key) }
            let expected = basis
            let mark = store.changes?.mark(for: key)
            if try await swap(expected, with: data) {
                commit(newValue, bytes: data, mark: mark, event: event)
                return true
            }
            // Another registration may have stored its credential under the configured key since it was read: the
            // value then goes to this session's derived key, if that holds what it was computed from.
            guard case .foreign(let owner) = policy.reading(try await store.read(key)),
                moveToDerivedKey(leaving: owner),
                try await swap(expected, with: data)
            else { return false }
            commit(newValue, bytes: data, mark: nil, event: event)
            return true
        }
    }

    /// One compare-and-swap under the session's key, fenced by the store's lock while this session holds it.
    private func swap(_ expected: Data?, with new: Data?) async throws -> Bool {
        guard let heldStoreLock else { return try await store.replace(expected, with: new, for: key) }
        return try await store.replace(expected, with: new, for: key, fencedBy: heldStoreLock)
    }

    /// Stores the refresh outcome a failed write kept aside, if the store still holds what this session last saw;
    /// when another instance changed it meanwhile, that instance's value wins.
    ///
    /// - Throws: the store's error, keeping the outcome aside.
    func storePendingWrite() async throws {
        guard let pending = pendingWrite else { return }
        if try await write(pending, event: .refreshed, over: storedBytes) {
            log(.info, "stored the refreshed credential a failed write had kept aside")
        } else {
            pendingWrite = nil
            log(.warning, "another instance changed the stored credential; the one kept aside is dropped")
            try await reread()
        }
    }

    /// Removes the stored value whatever it is now (an erase wins over every other write), then tells everyone. The
    /// removal is a swap too, so that no other instance's swap in progress lands after it.
    func erase(event: CredentialEvent) async throws {
        try await holdingStoreIO {
            var attempts = 0
            let mark = store.changes?.mark(for: key)
            while true {
                let stored = try await store.read(key)
                // Another registration's credential is never erased: this session's own is under its derived key.
                if case .foreign(let owner) = policy.reading(stored) {
                    if moveToDerivedKey(leaving: owner) { continue }
                    break
                }
                if try await swap(stored, with: nil) { break }
                attempts += 1
                if attempts == 8 { throw CredentialLifecycleError.superseded }
            }
            commit(nil, bytes: nil, mark: mark, event: event)
        }
    }

    // MARK: - Keys

    /// The state a call starts from: the stored one, else the policy's initial one.
    ///
    /// - Throws: ``CredentialStoreError/heldByAnotherRegistration(key:registration:)`` instead of starting from the
    ///   initial state when the key holds another registration's credential, which a new one could not replace.
    private func startingState() throws -> State? {
        if value == nil, let heldBy {
            throw CredentialStoreError.heldByAnotherRegistration(key: key, registration: heldBy)
        }
        return value ?? policy.initialState()
    }

    /// Moves this session to its derived key after finding `owner`'s credential under the configured one, which
    /// stays as it is.
    ///
    /// - Returns: false when the session already uses its derived key.
    private func moveToDerivedKey(leaving owner: CredentialRegistration) -> Bool {
        guard key != keys.derived else { return false }
        activeKey.withValue { $0 = keys.derived }
        log(.warning, "the configured key holds the credential of \(owner); this session moves to \(keys.derived)")
        announce(.keyHeldByAnotherRegistration, before: value, after: value)
        return true
    }

    /// Moves a state an earlier version stored under the former default key to this session's key, recorded, when
    /// the policy claims it.
    ///
    /// - Returns: the bytes the key holds afterwards, or nil when there was nothing to move.
    private func moveFromFormerKey() async throws -> Data? {
        guard let former = keys.former, former != key, let old = try await store.read(former),
            let state = policy.reading(old).unrecordedState, policy.registration(of: state) != nil
        else { return nil }
        let data = try policy.encoded(state, for: key)
        guard try await store.replace(nil, with: data, for: key) else { return try await store.read(key) }
        // Only the value that was moved is removed; one changed meanwhile (by an earlier version still running) stays.
        _ = try await store.replace(old, with: nil, for: former)
        log(.info, "moved the credential stored under the former default key to \(key)")
        return data
    }

    /// Records a claimed state stored without its registration, if the store still holds `data`.
    ///
    /// - Returns: the bytes stored, or nil when nothing was recorded.
    private func record(_ state: State, storedAs data: Data?) async throws -> Data? {
        guard policy.registration(of: state) != nil else { return nil }
        let recorded = try policy.encoded(state, for: key)
        return try await store.replace(data, with: recorded, for: key) ? recorded : nil
    }

    /// Makes `newValue`, just stored as `bytes` after the feed stood at `mark`, current: an erase ends every lease;
    /// everyone is told.
    private func commit(_ newValue: State?, bytes: Data?, mark: CredentialChangeMark?, event: CredentialEvent) {
        pendingWrite = nil
        confirmedMark = mark
        confirmedVersion = nil
        let before = value
        let hadBytes = storedBytes != nil
        storedBytes = bytes
        // Calls that took the credential while the erase was on its way must not send it now.
        if newValue == nil { leases.revoke() }
        value = newValue
        loaded = true
        if newValue != nil || before != nil || hadBytes { announce(event, before: before, after: newValue) }
    }

    /// Runs `body` holding the store's lock, unless this session's refresh already holds it (its outcome is then
    /// applied only if the credential is still current, so writing now is safe).
    func underStoreLock<Result>(_ body: () async throws -> Result) async throws -> Result {
        if heldStoreLock != nil { return try await body() }
        let lock = try await store.lock(key)
        heldStoreLock = lock
        defer {
            heldStoreLock = nil
            lock?.release()
        }
        return try await body()
    }

    // MARK: - Status and events

    /// The status as `status` derives it from the state: the current one first (once the store could be read), then
    /// each different one, in order.
    public nonisolated func statuses<Status: Equatable & Sendable>(
        _ status: @escaping @Sendable (State?) -> Status
    ) -> AsyncStream<Status> {
        let (stream, continuation) = AsyncStream<Status>.makeStream()
        let id = subscriberIDs.withValue { id -> UInt64 in
            id += 1
            return id
        }
        let last = LockedValue<Status?>(nil)
        let deliver: @Sendable (State?) -> Void = { state in
            let next = status(state)
            let changed = last.withValue { last -> Bool in
                guard last != next else { return false }
                last = next
                return true
            }
            if changed { continuation.yield(next) }
        }
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        Task { await self.subscribe(id, deliver) }
        return stream
    }

    /// Every ``CredentialEvent`` from now on.
    public nonisolated func events() -> AsyncStream<CredentialEvent> {
        eventBroadcaster.subscribe()
    }

    private func subscribe(_ id: UInt64, _ deliver: @escaping @Sendable (State?) -> Void) async {
        _ = try? await current()
        subscribers[id] = deliver
        if loaded { deliver(value) }
    }

    private func unsubscribe(_ id: UInt64) {
        subscribers[id] = nil
    }

    private func deliverToSubscribers() {
        for deliver in subscribers.values { deliver(value) }
    }

    private func announce(_ event: CredentialEvent, before: State?, after: State?) {
        observe(CredentialChange(event: event, before: before, after: after))
        eventBroadcaster.send(event)
        deliverToSubscribers()
    }

    nonisolated func log(_ level: LogEntry.Level, _ message: LogMessage) {
        logger.log(level, category, message)
    }
}
