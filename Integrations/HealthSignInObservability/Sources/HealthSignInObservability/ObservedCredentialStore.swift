import Dispatch
import Foundation
import HealthSignInCredentials
import Metrics

/// A credential store that times every call to the store it wraps and counts the calls that throw, and is otherwise
/// that store: every requirement, the compare-and-swap, the fenced swap, the lock and the change feed, is the base's
/// own.
///
/// Metrics: `healthsignin_store_duration_seconds` (timer; dimensions `operation`, such as `read` or `replace`, and
/// `outcome`, `success` or `error`) and `healthsignin_store_failures_total` (counter; dimension `operation`). Taking
/// the lock is timed as `lock`, waiting included.
///
/// ```swift
/// let store = ObservedCredentialStore(InMemoryCredentialStore())
/// ```
public struct ObservedCredentialStore: CredentialStore {
    /// The store that keeps the values.
    public let base: any CredentialStore
    /// The metrics factory, or nil for the one bootstrapped in `MetricsSystem`.
    public let metrics: (any MetricsFactory)?

    /// Observes `base`.
    ///
    /// - Parameters:
    ///   - base: the store that keeps the values.
    ///   - metrics: where metrics go; nil for `MetricsSystem.factory`.
    public init(_ base: any CredentialStore, metrics: (any MetricsFactory)? = nil) {
        self.base = base
        self.metrics = metrics
    }

    /// The base's value under `key`.
    public func read(_ key: String) async throws -> Data? { try await observe("read") { try await base.read(key) } }

    /// Writes through the base.
    public func write(_ data: Data, for key: String) async throws {
        try await observe("write") { try await base.write(data, for: key) }
    }

    /// Removes through the base.
    public func remove(_ key: String) async throws { try await observe("remove") { try await base.remove(key) } }

    /// The base's answer.
    public func contains(_ key: String) async throws -> Bool {
        try await observe("contains") { try await base.contains(key) }
    }

    /// The base's version.
    public func version(of key: String) async throws -> Data? {
        try await observe("version") { try await base.version(of: key) }
    }

    /// The base's compare-and-swap.
    public func replace(_ expected: Data?, with new: Data?, for key: String) async throws -> Bool {
        try await observe("replace") { try await base.replace(expected, with: new, for: key) }
    }

    /// The base's fenced compare-and-swap.
    public func replace(
        _ expected: Data?, with new: Data?, for key: String, fencedBy lock: any CredentialStoreLock
    ) async throws -> Bool {
        try await observe("replace") { try await base.replace(expected, with: new, for: key, fencedBy: lock) }
    }

    /// The base's lock.
    public func lock(_ key: String) async throws -> (any CredentialStoreLock)? {
        try await observe("lock") { try await base.lock(key) }
    }

    /// The base's change feed.
    public var changes: (any CredentialChangeFeed)? { base.changes }

    /// Runs `call`, timing it and counting a failure.
    private func observe<Value>(_ operation: String, _ call: () async throws -> Value) async throws -> Value {
        let instruments = Instruments(factory: metrics)
        let started = DispatchTime.now().uptimeNanoseconds
        do {
            let value = try await call()
            instruments.time(
                MetricLabel.storeDuration, [("operation", operation), ("outcome", "success")], since: started)
            return value
        } catch {
            instruments.time(
                MetricLabel.storeDuration, [("operation", operation), ("outcome", "error")], since: started)
            instruments.count(MetricLabel.storeFailures, [("operation", operation)])
            throw error
        }
    }
}
