import Foundation

/// Delivers each value sent to every current subscriber, each through its own `AsyncStream`.
///
/// Flows report what happened to a session (signed in, signed out because the server deleted the user) this way,
/// so any number of observers can follow it. A subscriber sees the values sent after it subscribed; it stops
/// receiving when its stream is dropped or its task is cancelled.
///
/// ```swift
/// let events = Broadcaster<String>()
/// let observer = events.subscribe()      // every value sent from now on
/// events.send("signed out")
/// for await event in observer { print(event) }
/// ```
package final class Broadcaster<Element: Sendable>: Sendable {
    private let subscribers = LockedValue<[UInt64: AsyncStream<Element>.Continuation]>([:])
    private let nextID = LockedValue<UInt64>(0)

    /// Creates a broadcaster without subscribers.
    package init() {}

    /// A stream of the values sent from now on. Values are buffered until read.
    package func subscribe() -> AsyncStream<Element> {
        let id = nextID.withValue { id -> UInt64 in
            id += 1
            return id
        }
        let (stream, continuation) = AsyncStream<Element>.makeStream()
        continuation.onTermination = { [subscribers] _ in
            _ = subscribers.withValue { $0.removeValue(forKey: id) }
        }
        subscribers.withValue { $0[id] = continuation }
        return stream
    }

    /// Sends `value` to every subscriber.
    package func send(_ value: Element) {
        for continuation in subscribers.current.values {
            continuation.yield(value)
        }
    }

    /// How many streams are subscribed now.
    package var subscriberCount: Int { subscribers.current.count }
}
