/// How a ``CredentialStore`` tells the sessions that use it that a value may have changed, so that a call holding a
/// usable credential need not ask the store first.
///
/// A session notes the mark of its key before it reads the value; while the mark is the same, nobody has changed
/// the value since (as far as the feed knows) and the session uses what it holds. A feed whose channel is down
/// answers nil, and the session reads the store before use.
public protocol CredentialChangeFeed: Sendable {
    /// A mark that moves whenever the value under `key` may have changed, or nil while the feed cannot tell.
    func mark(for key: String) -> CredentialChangeMark?
}

/// Where a ``CredentialChangeFeed`` stood for one key: equal marks mean no change the feed knows of came between.
public struct CredentialChangeMark: Hashable, Sendable {
    /// Moves whenever the feed may have missed changes (its channel was down), for every key at once.
    public var epoch: UInt64
    /// The number of changes to the key the feed has seen within the epoch.
    public var changes: UInt64

    /// Creates a mark.
    public init(epoch: UInt64, changes: UInt64) {
        self.epoch = epoch
        self.changes = changes
    }
}

/// A ``CredentialChangeFeed`` a store keeps by noting each change it learns of: its own writes, and the
/// notifications its server sends about everyone else's.
public final class CredentialChangeLog: CredentialChangeFeed {
    private struct State {
        var isLive: Bool
        var epoch: UInt64 = 0
        var changes: [String: UInt64] = [:]
    }

    private let state: LockedValue<State>

    /// Creates a log; a live one answers marks at once, one that is not answers nil until ``connected()``.
    public init(isLive: Bool) { state = LockedValue(State(isLive: isLive)) }

    /// Whether the feed can tell changes now.
    public var isLive: Bool { state.current.isLive }

    /// The key's mark, or nil while the feed is down.
    public func mark(for key: String) -> CredentialChangeMark? {
        state.withValue { state in
            state.isLive ? CredentialChangeMark(epoch: state.epoch, changes: state.changes[key, default: 0]) : nil
        }
    }

    /// Notes that the value under `key` may have changed.
    public func noteChange(of key: String) {
        state.withValue { $0.changes[key, default: 0] += 1 }
    }

    /// Notes that the channel is down: changes may be missed from now on, so no mark is given.
    public func disconnected() {
        state.withValue { state in
            state.isLive = false
            state.epoch += 1
            state.changes = [:]
        }
    }

    /// Notes that the channel is up again: every mark starts over, since anything may have changed while it was down.
    public func connected() {
        state.withValue { state in
            state.isLive = true
            state.epoch += 1
            state.changes = [:]
        }
    }
}
