import Foundation
import HealthSignInCore

/// A transport for interleaving tests: a request that matches a gate waits there until the test lets it through, so
/// a test can start an operation, do something else while its request is out, and then decide how the request ends.
///
/// ```swift
/// let transport = GatedTransport { request in try server.answer(request) }
/// let refresh = transport.hold { $0.url.path.hasSuffix("/token") }
/// let call = Task { try await core.connectedProviders() }
/// _ = await refresh.arrival()          // the refresh request is out
/// try await core.signOut()             // …meanwhile
/// refresh.release()                    // now the server answers it
/// ```
public final class GatedTransport: HTTPTransport, Sendable {
    private let respond: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    private let gates = LockedValue<[Gate]>([])
    private let recorded = LockedValue<[HTTPRequestMessage]>([])

    /// Creates a transport that answers requests with `respond` once their gate, if any, is released.
    public init(_ respond: @escaping @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage) {
        self.respond = respond
    }

    /// Holds the next request for which `matches` is true; later matching requests pass unless held again. With
    /// `afterServer`, the server handles the request first and its response is held instead (a response in flight).
    public func hold(afterServer: Bool = false, _ matches: @escaping @Sendable (HTTPRequestMessage) -> Bool) -> Gate {
        let gate = Gate(afterServer: afterServer, matches)
        gates.withValue { $0.append(gate) }
        return gate
    }

    /// Every request sent so far, in order.
    public var requests: [HTTPRequestMessage] { recorded.current }

    /// Waits at the first open gate the request matches, then answers it.
    public func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        recorded.withValue { $0.append(request) }
        let gate = gates.withValue { gates -> Gate? in
            guard let index = gates.firstIndex(where: { $0.matches(request) }) else { return nil }
            return gates.remove(at: index)
        }
        guard let gate else { return try await respond(request) }
        if gate.afterServer {
            let response = try await respond(request)
            try await gate.pass(request)
            return response
        }
        try await gate.pass(request)
        return try await respond(request)
    }

    /// One held request: the test waits for it to arrive and then lets it through or fails it.
    public final class Gate: Sendable {
        fileprivate let matches: @Sendable (HTTPRequestMessage) -> Bool
        fileprivate let afterServer: Bool
        private let state = LockedValue(State())

        private struct State {
            var arrived: HTTPRequestMessage?
            var arrivalWaiters: [CheckedContinuation<HTTPRequestMessage, Never>] = []
            var outcome: Result<Void, any Error>?
            var held: CheckedContinuation<Void, any Error>?
        }

        fileprivate init(afterServer: Bool, _ matches: @escaping @Sendable (HTTPRequestMessage) -> Bool) {
            self.afterServer = afterServer
            self.matches = matches
        }

        /// The held request, once it has arrived.
        public func arrival() async -> HTTPRequestMessage {
            await withCheckedContinuation { continuation in
                let request = state.withValue { state -> HTTPRequestMessage? in
                    if let arrived = state.arrived { return arrived }
                    state.arrivalWaiters.append(continuation)
                    return nil
                }
                if let request { continuation.resume(returning: request) }
            }
        }

        /// Lets the request through to the server.
        public func release() { finish(.success(())) }

        /// Fails the request with `error` instead of sending it on.
        public func fail(_ error: any Error) { finish(.failure(error)) }

        private func finish(_ outcome: Result<Void, any Error>) {
            let held = state.withValue { state -> CheckedContinuation<Void, any Error>? in
                state.outcome = outcome
                defer { state.held = nil }
                return state.held
            }
            held?.resume(with: outcome)
        }

        fileprivate func pass(_ request: HTTPRequestMessage) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (waiters, outcome) = state.withValue {
                    state -> ([CheckedContinuation<HTTPRequestMessage, Never>], Result<Void, any Error>?) in
                    state.arrived = request
                    defer { state.arrivalWaiters = [] }
                    if state.outcome == nil { state.held = continuation }
                    return (state.arrivalWaiters, state.outcome)
                }
                for waiter in waiters { waiter.resume(returning: request) }
                if let outcome { continuation.resume(with: outcome) }
            }
        }
    }
}
