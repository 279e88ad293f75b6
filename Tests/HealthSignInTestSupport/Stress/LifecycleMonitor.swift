import Foundation
import HealthSignInCore
import HealthSignInCredentials

/// The reference model of a stress run: it watches every write to the shared store and every request to the server,
/// and records each broken invariant.
///
/// - (a) Nothing reappears after an erase returned: no store write holds a grant erased earlier.
/// - (b) An older user's or grant's credential never overwrites a newer one: stored versions never go back.
/// - (c) A credential is stored before any request uses it.
/// - (d) No request carries a credential whose erase returned before the request's lease check read the store: for
///   the instance that erased it, no request at all; for other instances sharing the store, no refresh (they may
///   finish using an access token they already held until the server refuses it). A request is judged at that read,
///   not when it reaches the transport: nothing suspends between the two, but the thread may be preempted there for
///   as long as the system likes, as a request already on the network may take any time to arrive.
public final class LifecycleMonitor: Sendable {
    /// A credential a request carries: its grant (or application) and version, and whether it is a refresh.
    public struct Carried: Sendable {
        /// The credential's version.
        public let version: TokenLedger.Version
        /// Whether the request redeems it for a new one (a refresh, a new session) rather than using it.
        public let isRefresh: Bool

        /// Names a carried credential.
        public init(_ version: TokenLedger.Version, isRefresh: Bool) {
            self.version = version
            self.isRefresh = isRefresh
        }
    }

    private struct State {
        var written: Set<TokenLedger.Version> = []
        var lastWritten: TokenLedger.Version?
        /// Grants whose erase returned.
        var erased: Set<Int> = []
        var violations: [String] = []
        var trace: [String] = []
        var tally = StressTally()

        mutating func violate(_ text: String) {
            violations.append(text)
            trace.append("    VIOLATION " + text)
        }
    }

    private let state = LockedValue(State())
    private let storedVersion: @Sendable (Data) -> TokenLedger.Version?
    private let carried: @Sendable (HTTPRequestMessage) -> Carried?

    /// Creates a monitor that reads versions out of stored values and requests with these functions.
    public init(
        storedVersion: @escaping @Sendable (Data) -> TokenLedger.Version?,
        carried: @escaping @Sendable (HTTPRequestMessage) -> Carried?
    ) {
        self.storedVersion = storedVersion
        self.carried = carried
    }

    /// What was broken, in order.
    public var violations: [String] { state.current.violations }

    /// The steps and events of the run, in order.
    public var trace: [String] { state.current.trace }

    /// Adds a line to the trace.
    public func note(_ line: String) { state.withValue { $0.trace.append(line) } }

    /// What the run did.
    public var tally: StressTally { state.current.tally }

    /// Counts something the run did.
    public func count(_ name: String) { state.withValue { $0.tally.add(name) } }

    private func violation(_ text: String) { state.withValue { $0.violate(text) } }

    /// Records that an erase of every grant up to `grant` returned.
    public func eraseReturned(grantsUpTo grant: Int) {
        guard grant > 0 else { return }
        state.withValue { state in
            state.erased.formUnion(1...grant)
            state.trace.append("    erase returned: grants up to \(grant) are gone")
        }
    }

    /// Notes, for the thread reading the store, which grants were erased when it read: the read a lease check makes
    /// just before its request goes to the transport on the same thread.
    fileprivate func storeRead() {
        Thread.current.threadDictionary[threadKey] = ErasedAtRead(grants: state.current.erased)
    }

    /// The grants erased when this thread last read the store, consumed; nil when it has not read it since.
    private func erasedAtLastRead() -> Set<Int>? {
        let dictionary = Thread.current.threadDictionary
        defer { dictionary[threadKey] = nil }
        return (dictionary[threadKey] as? ErasedAtRead)?.grants
    }

    private var threadKey: String { "LifecycleMonitor.erasedAtRead.\(ObjectIdentifier(self).hashValue)" }

    fileprivate func stored(_ data: Data) {
        guard let version = storedVersion(data) else { return }
        state.withValue { state in
            state.trace.append("    stored \(version)")
            state.tally.add("store writes")
            if state.erased.contains(version.grant) {
                state.violate("(a) grant \(version.grant) was stored again (as \(version)) after its erase returned")
            }
            if let last = state.lastWritten, version < last {
                state.violate("(b) \(version) was stored over the newer \(last)")
            }
            state.lastWritten = max(state.lastWritten ?? version, version)
            state.written.insert(version)
        }
    }

    fileprivate func sending(_ request: HTTPRequestMessage, instance: Int, erasingInstance: Int) {
        guard let carried = carried(request) else { return }
        let erasedAtCheck = erasedAtLastRead()
        state.withValue { state in
            state.trace.append(
                "    instance \(instance) \(carried.isRefresh ? "refreshes" : "uses") \(carried.version)")
            state.tally.add(carried.isRefresh ? "refresh requests" : "authorized requests")
            if !carried.isRefresh, !state.written.contains(carried.version) {
                state.violate("(c) instance \(instance) sent \(carried.version) before it was stored")
            }
            let erased = (erasedAtCheck ?? state.erased).contains(carried.version.grant)
            if erased, carried.isRefresh || instance == erasingInstance {
                state.violate(
                    "(d) instance \(instance) sent \(carried.version)\(carried.isRefresh ? " to refresh it" : "") after its erase completed"
                )
            }
        }
    }

    /// A log sink that adds each record to the trace, prefixed with the instance that logged it.
    public func logger(instance: Int) -> any LogSink {
        ClosureLogSink { [self] record in self.note("    instance \(instance) logs: \(record.message)") }
    }

    /// `base`, with every write checked.
    public func store(_ base: any CredentialStore) -> any CredentialStore { MonitoredStore(base: base, monitor: self) }

    /// `send`, with every request checked and, drawing from `random`, delayed by a few scheduler yields and faulted
    /// now and then: unreachable, a response lost after the server acted, HTTP 500, HTTP 429. Requests for which
    /// `spare` is true are never faulted.
    public func transport(
        instance: Int, erasingInstance: Int = 1, random: StressRandom, faultRate: Double,
        spare: @escaping @Sendable (HTTPRequestMessage) -> Bool = { _ in false },
        _ send: @escaping @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) -> any HTTPTransport {
        RecordingTransport { [self] request in
            // A request counts as sent when the SDK hands it to the transport; the yields after stand for the
            // network, during which an erase may return without the request being the SDK's to stop. Draws come
            // from the stream of the operation that sends it.
            self.sending(request, instance: instance, erasingInstance: erasingInstance)
            let random = random.current
            for _ in 0..<random.int(in: 0...3) { await Task.yield() }
            let fault = !spare(request) && random.chance(faultRate) ? random.int(in: 0...3) : nil
            switch fault {
            case 0?:
                self.count("faults")
                throw TransportError(.cannotConnect, url: request.url, detail: "injected")
            case 2?:
                self.count("faults")
                return HTTPResponseMessage(status: 500, body: Data("injected".utf8))
            case 3?:
                self.count("faults")
                return HTTPResponseMessage(status: 429, headers: ["Retry-After": "1"], body: Data())
            default:
                break
            }
            let response = try await send(request)
            for _ in 0..<random.int(in: 0...3) { await Task.yield() }
            if fault == 1 {
                self.count("faults")
                throw TransportError(.connectionLost, url: request.url, detail: "injected after the server acted")
            }
            return response
        }
    }
}

/// The grants erased when a thread read the store.
private final class ErasedAtRead: Sendable {
    let grants: Set<Int>
    init(grants: Set<Int>) { self.grants = grants }
}

/// A store whose writes the monitor checks; locking goes to the base store.
private struct MonitoredStore: CredentialStore {
    let base: any CredentialStore
    let monitor: LifecycleMonitor

    func read(_ key: String) async throws -> Data? {
        monitor.storeRead()
        return try await base.read(key)
    }

    func write(_ data: Data, for key: String) async throws {
        monitor.stored(data)
        try await base.write(data, for: key)
    }

    func remove(_ key: String) async throws {
        monitor.count("store removals")
        monitor.note("    removed")
        try await base.remove(key)
    }

    func lock(_ key: String) async throws -> (any CredentialStoreLock)? { try await base.lock(key) }

    var changes: (any CredentialChangeFeed)? { base.changes.map { MonitoredFeed(base: $0, monitor: monitor) } }
}

/// The base store's change feed: asking it for a mark is how a lease check observes the store without reading it, so
/// the monitor notes the erased grants then, as it does at a read.
private struct MonitoredFeed: CredentialChangeFeed {
    let base: any CredentialChangeFeed
    let monitor: LifecycleMonitor

    func mark(for key: String) -> CredentialChangeMark? {
        monitor.storeRead()
        return base.mark(for: key)
    }
}

extension LifecycleMonitor {
    /// One operation of a step: a name for the trace and tally, and what it does.
    public typealias Operation = (name: String, run: @Sendable () async throws -> Void)

    /// Runs one step's operations concurrently and waits for all of them. A step that does not end within `seconds`
    /// is a deadlock: it is recorded as a violation and false is returned. Each operation's outcome is counted as
    /// `<name> ok` or `<name> threw <error type>`. Each operation draws from a stream of its own split from `random`.
    public func step(_ operations: [Operation], random: StressRandom, within seconds: Double = 60) async -> Bool {
        note("step: " + operations.map(\.name).joined(separator: " | "))
        let streams = operations.map { _ in random.split() }
        let work = Task<Void, any Error> { [self] in
            await withTaskGroup(of: String.self) { group in
                for (operation, stream) in zip(operations, streams) {
                    group.addTask {
                        do {
                            try await StressRandom.withStream(stream) { try await operation.run() }
                            return "\(operation.name) ok"
                        } catch {
                            return "\(operation.name) threw \(type(of: error))"
                        }
                    }
                }
                for await outcome in group {
                    self.count(outcome)
                    self.note("  " + outcome)
                }
            }
        }
        let finished = await outcome(of: work, within: seconds) != nil
        if !finished { violation("a step did not finish within \(Int(seconds)) s") }
        return finished
    }
}

extension LifecycleMonitor {
    /// Names an operation.
    public static func operation(_ name: String, _ run: @escaping @Sendable () async throws -> Void) -> Operation {
        (name, run)
    }

    /// Runs a sequence of `steps` steps, each after one of `events` (a change on the server, the clock or the app,
    /// noted in the trace) and each with one to three operations drawn from `operations`, and stops at the first step
    /// that does not finish.
    ///
    /// - Parameters:
    ///   - events: weighted changes between steps, by name; a weight left over means none.
    ///   - operations: weighted operations, asked anew for each draw (so they see the instances of the moment).
    public func run(
        steps: ClosedRange<Int>, random: StressRandom,
        events: [(weight: Int, choice: (name: String, apply: () -> Void))],
        operations: () -> [(weight: Int, choice: Operation)]
    ) async {
        for _ in 0..<random.int(in: steps) {
            let event = random.pick(events)
            if !event.name.isEmpty { note(event.name) }
            event.apply()
            let drawn = (0..<random.pick([(3, 1), (3, 2), (2, 3)])).map { _ in random.pick(operations()) }
            guard await step(drawn, random: random) else { return }
        }
    }
}
