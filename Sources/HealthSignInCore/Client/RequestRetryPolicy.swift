import Foundation

/// Which requests a client sends again after a temporary failure, and how long it waits.
///
/// Only methods whose schema marks them `idempotent` (reads) are retried, never writes or session creation, and only
/// after an error whose ``ProtocolError/recovery`` is `ErrorRecovery.retryLater` (HTTP 5xx, 408, 425 or 429
/// without a protocol status; a protocol status declared temporary, such as HealthVault's status 1). A
/// `Retry-After` is honoured up to ``maxRetryAfter``; a longer one ends the retries and the error is thrown.
public struct RequestRetryPolicy: Sendable {
    /// How many times a request is sent again: 0, 1 or 2.
    public let maxRetries: Int
    /// The wait before the first retry, doubled before the second, when the server names none.
    public let delay: TimeInterval
    /// The longest `Retry-After` waited for.
    public let maxRetryAfter: TimeInterval
    private let sleep: @Sendable (TimeInterval) async throws -> Void

    /// No retries.
    public static let none = RequestRetryPolicy(maxRetries: 0)
    /// Reads are sent up to twice more, after 0.5 s and 1 s or what `Retry-After` asks (up to 10 s).
    public static let idempotentReads = RequestRetryPolicy(maxRetries: 2)

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - maxRetries: how many times a request is sent again, clamped to 0...2.
    ///   - delay: the wait before the first retry (doubled for the second) when the server names none.
    ///   - maxRetryAfter: the longest `Retry-After` waited for.
    ///   - sleep: how to wait (tests pass one that records the waits).
    public init(
        maxRetries: Int, delay: TimeInterval = 0.5, maxRetryAfter: TimeInterval = 10,
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = RequestRetryPolicy.taskSleep
    ) {
        self.maxRetries = min(max(maxRetries, 0), 2)
        // `max(0, x)`, not `max(x, 0)`: a NaN is then 0 (no wait, and no `Retry-After` honoured), never kept.
        self.delay = max(0, delay)
        self.maxRetryAfter = max(0, maxRetryAfter)
        self.sleep = sleep
    }

    /// Waits with `Task.sleep`; cancelling the task ends the wait and the retries. Any interval is accepted: a
    /// negative or NaN one waits not at all, and one beyond a year waits a year.
    public static let taskSleep: @Sendable (TimeInterval) async throws -> Void = { seconds in
        let bounded = seconds.isNaN ? 0 : min(max(seconds, 0), 365 * 86_400)
        try await Task.sleep(nanoseconds: UInt64(bounded * 1_000_000_000))
    }

    /// Runs `attempt`, and for an idempotent request runs it again after each temporary failure the policy allows.
    ///
    /// - Parameters:
    ///   - idempotent: whether sending the request again is safe; when false `attempt` runs once.
    ///   - now: the current time, to read a `Retry-After` date.
    ///   - attempt: sends the request and reads the response, once per try.
    public func run<Value>(
        idempotent: Bool, now: @Sendable () -> Date = Date.init, _ attempt: () async throws -> Value
    ) async throws -> Value {
        var retries = 0
        return try await Self.retrying(delay: delay, sleep: sleep, attempt) { error, backoff in
            guard idempotent, retries < maxRetries, (error as? any ProtocolError)?.recovery == .retryLater else {
                return nil
            }
            let asked = (error as? UnexpectedResponseError)?.response.retryAfter(now: now())
            if let asked, asked > maxRetryAfter { return nil }
            retries += 1
            return asked ?? backoff
        }
    }

    /// The retry loop every family that retries shares: runs `attempt`, and after each failure for which `wait`
    /// names a wait, sleeps that long and runs it again; any other failure is thrown. The backoff `wait` is offered
    /// starts at `delay` and doubles after each retry; cancelling the task ends the sleep and the loop.
    ///
    /// - Parameters:
    ///   - delay: the first backoff.
    ///   - sleep: how to wait.
    ///   - attempt: one try.
    ///   - wait: given the failure and the backoff, how long to wait before the next try, or nil to throw it: where
    ///     a family decides what it retries, how often and until when.
    @_spi(Generated)
    public static func retrying<Value>(
        delay: TimeInterval, sleep: @Sendable (TimeInterval) async throws -> Void = taskSleep,
        _ attempt: () async throws -> Value, wait: (any Error, _ backoff: TimeInterval) -> TimeInterval?
    ) async throws -> Value {
        var backoff = delay
        var number = 1
        while true {
            do {
                // Bound only when it differs from what this task sees (the first try, outside another's retry, sees
                // 1 already), so a call that is not retried pays nothing for it.
                if number == OperationAttempt.number { return try await attempt() }
                return try await OperationAttempt.$number.withValue(number) { try await attempt() }
            } catch {
                number += 1
                guard let pause = wait(error, backoff) else { throw error }
                try await sleep(pause)
                backoff *= 2
            }
        }
    }
}
