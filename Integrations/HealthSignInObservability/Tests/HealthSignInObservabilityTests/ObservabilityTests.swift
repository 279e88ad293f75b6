import Foundation
import HealthSignInCredentials
import HealthSignInHTTP
import HealthSignInObservability
import HealthSignInTesting
import HealthSignInVital
import InMemoryTracing
import MetricsTestKit
import Tracing
import XCTest

/// A Vital journey on the test kit's Junction server, observed: the backend mints a sign-in token, the app signs in,
/// calls the data API, renews its token and calls again, all within one server request's span.
final class ObservabilityTests: XCTestCase {
    private let tracer = InMemoryTracer()
    private let metrics = TestMetrics()
    private let server = VitalTestServer()

    private var hosts: VitalHostMap { .all(VitalHosts(api: server.apiURL, auth: server.authURL)) }
    private var middleware: ObservabilityMiddleware { ObservabilityMiddleware(tracer: tracer, metrics: metrics) }

    /// Runs `body` within a span standing for the server request in progress, and returns that span's context.
    private func withinServerRequest(_ body: () async throws -> Void) async throws -> InMemorySpanContext {
        let request = tracer.startSpan("POST /sign-in", ofKind: .server)
        try await ServiceContext.withValue(request.context) { try await body() }
        request.end()
        return try XCTUnwrap(request.context.inMemorySpanContext)
    }

    func testEverySDKRequestIsASpanOfTheServerRequestAndIsCounted() async throws {
        let store = ObservedCredentialStore(InMemoryCredentialStore(), metrics: metrics)
        let parent = try await withinServerRequest {
            let backend = VitalBackend(
                configuration: .init(
                    apiKey: APIKey(VitalTestServer.sandboxUSKey), environment: .sandboxUS, hosts: hosts,
                    transport: server.transport, middlewares: [middleware]))
            let grant = try await backend.signInToken(forClientUserID: "alice")
            let app = VitalSession(
                configuration: .init(
                    store: store, hosts: hosts, transport: server.transport, middlewares: [middleware]))
            _ = try await app.signIn(token: grant.signInToken)
            _ = try await app.connectedProviders()
            server.expireAccessTokens()
            _ = try await app.connectedProviders()
        }
        // The expired token is refused (401), renewed, and the call made again.
        let spans = tracer.finishedSpans.filter { $0.operationName.hasPrefix("Vital.") }
        XCTAssertEqual(
            spans.map { span in
                guard case .int64(let status) = span.attributes.get("http.response.status_code") else { return "-" }
                return "\(span.operationName) \(status)"
            },
            [
                "Vital.CreateUser 200", "Vital.CreateSignInToken 200", "Vital.ExchangeSignInToken 200",
                "Vital.GetConnectedProviders 200", "Vital.GetConnectedProviders 401", "Vital.RefreshToken 200",
                "Vital.GetConnectedProviders 200",
            ])
        let servers = try [server.apiURL, server.authURL].map { SpanAttribute.string(try XCTUnwrap($0.host)) }
        for span in spans {
            XCTAssertEqual(span.traceID, parent.traceID, span.operationName)
            XCTAssertEqual(span.parentSpanID, parent.spanID, "\(span.operationName) is a child of the server's span")
            XCTAssertEqual(span.kind, .client)
            XCTAssertEqual(span.attributes.get("healthsignin.family"), .string("Vital"))
            XCTAssertEqual(span.attributes.get("healthsignin.attempt"), .int64(1))
            XCTAssertTrue(servers.contains(span.attributes.get("server.address") ?? .string("")), span.operationName)
            XCTAssertNil(span.attributes.get("url.full"), "no path: it can name a user")
        }
        XCTAssertEqual(
            spans.map { $0.attributes.get("healthsignin.outcome") },
            [.string("success")] * 4 + [.string("client_error")] + [.string("success")] * 2)
        let renewal = try XCTUnwrap(spans.first { $0.operationName == "Vital.RefreshToken" })
        XCTAssertEqual(renewal.attributes.get("healthsignin.renewal"), .bool(true))
        XCTAssertEqual(renewal.attributes.get("healthsignin.grant_type"), .string("refresh_token"))

        XCTAssertEqual(metrics.counterTotal(label: MetricLabel.requests), 7)
        XCTAssertEqual(
            metrics.counterTotal(
                label: MetricLabel.requests,
                dimensions: [("family", "Vital"), ("operation", "GetConnectedProviders"), ("outcome", "success")]), 2)
        XCTAssertEqual(
            metrics.counterTotal(
                label: MetricLabel.requests,
                dimensions: [("family", "Vital"), ("operation", "GetConnectedProviders"), ("outcome", "client_error")]),
            1)
        XCTAssertEqual(metrics.counterTotal(label: MetricLabel.tokenRequests), 2, "the exchange and the renewal")
        XCTAssertEqual(metrics.counterTotal(label: MetricLabel.tokenRenewals), 1)
        XCTAssertEqual(metrics.timers(label: MetricLabel.requestDuration).flatMap(\.values).count, 7)
        XCTAssertFalse(metrics.timers(label: MetricLabel.storeDuration).isEmpty, "the session's store was timed")
        XCTAssertEqual(metrics.counterTotal(label: MetricLabel.storeFailures), 0)
    }

    func testFailuresAreOutcomesAndSpanErrors() async throws {
        let refusing = VitalBackend(
            configuration: .init(
                apiKey: APIKey("sk_us_wrong"), environment: .sandboxUS, hosts: hosts, transport: server.transport,
                middlewares: [middleware]))
        await XCTAssertThrowsErrorAsync(try await refusing.signInToken(forClientUserID: "alice"))
        let unreachable = VitalBackend(
            configuration: .init(
                apiKey: APIKey(VitalTestServer.sandboxUSKey), environment: .sandboxUS, hosts: hosts,
                transport: RecordingTransport { request in
                    throw TransportError(.cannotConnect, url: request.url, detail: "refused")
                },
                middlewares: [middleware]))
        await XCTAssertThrowsErrorAsync(try await unreachable.signInToken(forClientUserID: "alice"))
        let outcomes = tracer.finishedSpans.map { $0.attributes.get("healthsignin.outcome") }
        XCTAssertEqual(outcomes, [.string("client_error"), .string("transport_error")])
        for span in tracer.finishedSpans { XCTAssertEqual(span.status?.code, .error) }
        XCTAssertEqual(tracer.finishedSpans.last?.errors.count, 1, "the transport error is recorded on its span")
        XCTAssertEqual(
            metrics.counterTotal(
                label: MetricLabel.requests,
                dimensions: [("family", "Vital"), ("operation", "CreateUser"), ("outcome", "transport_error")]), 1)
    }

    func testTheObservedStoreIsItsBaseAndCountsFailures() async throws {
        let base = InMemoryCredentialStore()
        let store = ObservedCredentialStore(base, metrics: metrics)
        try await store.write(Data("v1".utf8), for: "k")
        let swapped = try await store.replace(Data("v1".utf8), with: Data("v2".utf8), for: "k")
        XCTAssertTrue(swapped)
        let stale = try await store.replace(Data("v1".utf8), with: Data("v3".utf8), for: "k")
        XCTAssertFalse(stale, "the base's compare-and-swap")
        let lock = try await store.lock("k")
        XCTAssertNotNil(lock, "the base's lock")
        lock?.release()
        XCTAssertNotNil(store.changes, "the base's change feed")
        let stored = try await base.read("k")
        XCTAssertEqual(stored, Data("v2".utf8))

        let failing = ObservedCredentialStore(UnreadableStore(), metrics: metrics)
        await XCTAssertThrowsErrorAsync(try await failing.read("k"))
        XCTAssertEqual(metrics.counterTotal(label: MetricLabel.storeFailures, dimensions: [("operation", "read")]), 1)
        XCTAssertEqual(
            metrics.timers(
                label: MetricLabel.storeDuration, dimensions: [("operation", "replace"), ("outcome", "success")]
            )
            .flatMap(\.values).count, 2)
    }

    /// The documentation's examples.
    func testTheDocumentedMiddlewareAndStore() throws {
        let apiKey = VitalTestServer.sandboxUSKey
        // snippet doc-observability-middleware
        let observed = ObservabilityMiddleware()
        let backend = VitalBackend(
            configuration: .init(apiKey: APIKey(apiKey), environment: .sandboxUS, middlewares: [observed]))
        // end snippet
        XCTAssertEqual(backend.configuration.options.middlewares.count, 1)
        // snippet doc-observed-store
        let store = ObservedCredentialStore(InMemoryCredentialStore())
        // end snippet
        XCTAssertTrue(store.base is InMemoryCredentialStore)
    }
}

/// A store whose every read fails.
private struct UnreadableStore: CredentialStore {
    struct Unreadable: Error {}
    func read(_ key: String) async throws -> Data? { throw Unreadable() }
    func write(_ data: Data, for key: String) async throws { throw Unreadable() }
    func remove(_ key: String) async throws { throw Unreadable() }
}

// swift-format-ignore: AlwaysUseLowerCamelCase
/// Asserts that `expression` throws.
func XCTAssertThrowsErrorAsync<T>(
    _ expression: @autoclosure () async throws -> T, file: StaticString = #filePath, line: UInt = #line
) async {
    do {
        _ = try await expression()
        XCTFail("no error was thrown", file: file, line: line)
    } catch {}
}

/// `count` copies of `element`.
private func * <Element>(elements: [Element], count: Int) -> [Element] {
    Array((0..<count).map { _ in elements }.joined())
}
