/// A first-in, first-out lock for `async` code: holders may suspend while they hold it.
///
/// An actor alone does not serialise `async` work: while one call awaits the network, the next may start. Steps that
/// must not interleave (signing in while signing out, two provisionings at once) take this lock. A task that is
/// cancelled while it waits stops waiting with `CancellationError`; the lock passes to the next in line.
///
/// ```swift
/// let lifecycle = AsyncMutex()
/// try await lifecycle.withLock { try await signIn(token) }
/// ```
package final class AsyncMutex: Sendable {
    private struct State {
        var isLocked = false
        var nextID: UInt64 = 0
        /// Waiters that asked but have not registered their continuation yet.
        var arriving: Set<UInt64> = []
        /// Arriving waiters whose task was cancelled before they registered.
        var cancelled: Set<UInt64> = []
        /// Registered waiters, first come first served.
        var queue: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    }

    private enum Registration {
        case acquired, cancelled, queued
    }

    private let state = LockedValue(State())

    /// Creates an unlocked mutex.
    package init() {}

    /// Waits until the lock is free and takes it.
    ///
    /// - Throws: `CancellationError` when the task is cancelled before it got the lock.
    package func lock() async throws {
        let id: UInt64? = state.withValue { state in
            guard state.isLocked else {
                state.isLocked = true
                return nil
            }
            state.nextID += 1
            state.arriving.insert(state.nextID)
            return state.nextID
        }
        guard let id else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let registration = state.withValue { state -> Registration in
                    state.arriving.remove(id)
                    if state.cancelled.remove(id) != nil { return .cancelled }
                    // The holder may have left since the first look.
                    guard state.isLocked else {
                        state.isLocked = true
                        return .acquired
                    }
                    state.queue.append((id, continuation))
                    return .queued
                }
                switch registration {
                case .acquired: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .queued: break
                }
            }
        } onCancel: {
            let waiter = state.withValue { state -> CheckedContinuation<Void, any Error>? in
                if state.arriving.contains(id) {
                    state.cancelled.insert(id)
                    return nil
                }
                guard let index = state.queue.firstIndex(where: { $0.id == id }) else { return nil }
                return state.queue.remove(at: index).continuation
            }
            waiter?.resume(throwing: CancellationError())
        }
    }

    /// Releases the lock, handing it to the longest waiter if there is one.
    package func unlock() {
        let next = state.withValue { state -> CheckedContinuation<Void, any Error>? in
            guard !state.queue.isEmpty else {
                state.isLocked = false
                return nil
            }
            return state.queue.removeFirst().continuation
        }
        next?.resume()
    }

    /// Runs `body` while holding the lock.
    package func withLock<Result>(_ body: () async throws -> Result) async throws -> Result {
        try await lock()
        defer { unlock() }
        return try await body()
    }
}
