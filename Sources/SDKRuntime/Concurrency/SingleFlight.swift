/// Runs an operation at most once at a time: callers that arrive while it runs wait for the same result.
///
/// This is how credentials are refreshed: however many calls find a token expired at once, one refresh request is
/// made and every caller gets its result (or its error). The operation runs in its own task, so a caller that is
/// cancelled while waiting does not cancel it for the others.
///
/// ```swift
/// let refreshes = SingleFlight<Session>()
/// let fresh = try await refreshes.run { try await createAndStoreSession() }
/// ```
public actor SingleFlight<Value: Sendable> {
    private var inFlight: Task<Value, any Error>?
    /// How many times the operation has actually run.
    public private(set) var runCount = 0

    /// Creates an idle single-flight.
    public init() {}

    /// Whether an operation is running now.
    public var isRunning: Bool { inFlight != nil }

    /// Runs `operation`, or joins the run already in progress.
    public func run(_ operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let inFlight { return try await inFlight.value }
        let task = Task { try await operation() }
        inFlight = task
        runCount += 1
        defer { inFlight = nil }
        return try await task.value
    }
}
