import Dispatch

/// Runs blocking work (a disk write and its `fsync`, a Keychain query) on a thread of its own, so the task waiting
/// for it holds no thread of Swift's cooperative pool.
package func offloaded<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        blockingWork.async { continuation.resume(with: Swift.Result { try work() }) }
    }
}

/// The queue blocking work runs on: concurrent, apart from the cooperative pool.
private let blockingWork = DispatchQueue(label: "HealthSignIn.blocking-work", attributes: .concurrent)
