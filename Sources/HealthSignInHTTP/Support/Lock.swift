import Foundation

/// A mutual-exclusion lock for the few runtime classes that guard plain stored state.
///
/// A thin wrapper over `NSLock` so that call sites read `lock.withLock { ... }` on every platform.
package final class Lock: @unchecked Sendable {
    // @unchecked: NSLock is thread-safe; this wrapper adds no state of its own.
    private let base = NSLock()

    package init() {}

    /// Runs `body` while holding the lock.
    package func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        base.lock()
        defer { base.unlock() }
        return try body()
    }
}

/// A value guarded by a lock, for sharing mutable state between tasks without an actor hop.
package final class LockedValue<Value: Sendable>: @unchecked Sendable {
    // @unchecked: `value` is only read or written while `lock` is held.
    private let lock = Lock()
    private var value: Value

    /// Creates a box holding `value`.
    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value and returns its result.
    package func withValue<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }

    /// A copy of the current value.
    package var current: Value { lock.withLock { value } }
}
