/// Runs operations one after another, in the order they were submitted, even when they suspend.
///
/// An actor alone does not serialise `async` work: while one call awaits the network, the next may start. Flows
/// whose steps must not interleave (signing in while signing out, two sign-ins at once) submit them here.
///
/// ```swift
/// let lifecycle = SerialQueue()
/// try await lifecycle.run { try await signIn(token) }
/// ```
public actor SerialQueue {
    private var tail: Task<Void, Never>?

    /// Creates an idle queue.
    public init() {}

    /// Runs `operation` after every operation submitted before it has finished, and returns its result.
    public func run<Result: Sendable>(_ operation: @escaping @Sendable () async throws -> Result) async throws -> Result {
        let previous = tail
        let task = Task<Result, any Error> {
            await previous?.value
            return try await operation()
        }
        tail = Task { _ = try? await task.value }
        return try await task.value
    }
}
