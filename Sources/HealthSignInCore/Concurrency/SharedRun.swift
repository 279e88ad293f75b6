/// One run of an operation that any number of callers wait for.
///
/// The operation runs in its own task, started at once. A caller whose task is cancelled stops waiting with
/// `CancellationError` at once, and the run goes on for the others: a refresh that one impatient caller gave up on
/// still lands, and its result is still stored.
///
/// ```swift
/// let refresh = SharedRun { try await refreshAndStore() }
/// let fresh = try await refresh.value()     // from any number of callers
/// ```
package final class SharedRun<Value: Sendable>: Sendable {
    private struct State {
        var result: Result<Value, any Error>?
        var nextID: UInt64 = 0
        var arriving: Set<UInt64> = []
        var cancelled: Set<UInt64> = []
        var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
    }

    private let state = LockedValue(State())

    /// Starts `operation` now.
    package init(_ operation: @escaping @Sendable () async throws -> Value) {
        Task { [state] in
            let result: Result<Value, any Error>
            do { result = .success(try await operation()) } catch { result = .failure(error) }
            let waiters = state.withValue { state -> [CheckedContinuation<Value, any Error>] in
                state.result = result
                defer { state.waiters = [:] }
                return Array(state.waiters.values)
            }
            for waiter in waiters { waiter.resume(with: result) }
        }
    }

    /// Whether the operation has finished.
    package var isFinished: Bool { state.current.result != nil }

    /// The operation's result, waiting for it if needed.
    ///
    /// - Throws: the operation's error, or `CancellationError` as soon as the waiting task is cancelled.
    package func value() async throws -> Value {
        let id: UInt64 = state.withValue { state in
            state.nextID += 1
            state.arriving.insert(state.nextID)
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
                let ready = state.withValue { state -> Result<Value, any Error>? in
                    state.arriving.remove(id)
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if let result = state.result { return result }
                    state.waiters[id] = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withValue { state -> CheckedContinuation<Value, any Error>? in
                if state.arriving.contains(id) {
                    state.cancelled.insert(id)
                    return nil
                }
                return state.waiters.removeValue(forKey: id)
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
