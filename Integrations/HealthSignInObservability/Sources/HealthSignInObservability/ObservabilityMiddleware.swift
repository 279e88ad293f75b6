import Dispatch
import HealthSignInHTTP
import Metrics
import Tracing

/// A span and metrics for every request the SDK sends, as an `HTTPClientMiddleware` for a client's `middlewares`.
///
/// **Spans.** Each request is a client span named after its operation (`Vital.CreateSignInToken`,
/// `SMART.RequestToken`), a child of the span in progress (`ServiceContext.current`), so the SDK's requests join the
/// trace of the server request that made them. A token renewal is its own request and so its own span. Attributes:
/// `healthsignin.family`, `healthsignin.operation`, `healthsignin.outcome` (``RequestOutcome``),
/// `healthsignin.attempt` (1, then 2 and 3 for a client's retries), `healthsignin.grant_type` and
/// `healthsignin.renewal` for a token request, and the semantic conventions' `http.request.method`,
/// `server.address`, `server.port` and `http.response.status_code`. The path and query are left out: they can name
/// a patient or a user.
///
/// **Metrics**, each with the dimensions `family`, `operation` and `outcome`:
/// - `healthsignin_requests_total` (counter) and `healthsignin_request_duration_seconds` (timer);
/// - `healthsignin_token_requests_total` (counter), for requests that carry an OAuth `grant_type`, with `grant_type`;
/// - `healthsignin_token_renewals_total` (counter), for the `refresh_token` grant.
///
/// ```swift
/// let observed = ObservabilityMiddleware()
/// let backend = VitalBackend(
///     configuration: .init(apiKey: APIKey(apiKey), environment: .sandboxUS, middlewares: [observed]))
/// ```
///
/// Put it first in `middlewares`, so its span and timer cover the others.
public struct ObservabilityMiddleware: HTTPClientMiddleware {
    /// The tracer, or nil for the one bootstrapped in `InstrumentationSystem` when a request starts.
    public let tracer: (any Tracer)?
    /// The metrics factory, or nil for the one bootstrapped in `MetricsSystem`.
    public let metrics: (any MetricsFactory)?

    /// A middleware reporting to `tracer` and `metrics`, or to the systems the app bootstrapped.
    ///
    /// - Parameters:
    ///   - tracer: where spans go; nil for `InstrumentationSystem.tracer`.
    ///   - metrics: where metrics go; nil for `MetricsSystem.factory`.
    public init(tracer: (any Tracer)? = nil, metrics: (any MetricsFactory)? = nil) {
        self.tracer = tracer
        self.metrics = metrics
    }

    /// Sends `request` on within its span, and records its outcome.
    public func intercept(
        _ request: HTTPRequestMessage, operation: OperationID,
        next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        let grant = TokenGrant.type(of: request)
        let span = (tracer ?? InstrumentationSystem.tracer).startSpan(
            operation.description, context: ServiceContext.current ?? .topLevel, ofKind: .client)
        defer { span.end() }
        span.attributes["healthsignin.family"] = operation.family
        span.attributes["healthsignin.operation"] = operation.method
        span.attributes["healthsignin.attempt"] = OperationAttempt.number
        span.attributes["http.request.method"] = request.method.rawValue
        if let host = request.url.host { span.attributes["server.address"] = host }
        if let port = request.url.port { span.attributes["server.port"] = port }
        if let grant {
            span.attributes["healthsignin.grant_type"] = grant
            span.attributes["healthsignin.renewal"] = grant == TokenGrant.renewal
        }
        let started = DispatchTime.now().uptimeNanoseconds
        let outcome: RequestOutcome
        do {
            let response = try await ServiceContext.withValue(span.context) { try await next(request) }
            outcome = RequestOutcome(status: response.status)
            span.attributes["http.response.status_code"] = response.status
            finish(span, outcome, operation, grant, since: started)
            return response
        } catch {
            outcome = RequestOutcome(error: error)
            span.recordError(error)
            finish(span, outcome, operation, grant, since: started)
            throw error
        }
    }

    /// Sets the span's outcome and status, and records the metrics.
    private func finish(
        _ span: any Span, _ outcome: RequestOutcome, _ operation: OperationID, _ grant: String?, since started: UInt64
    ) {
        span.attributes["healthsignin.outcome"] = outcome.rawValue
        if outcome != .success { span.setStatus(SpanStatus(code: .error)) }
        let dimensions = [("family", operation.family), ("operation", operation.method), ("outcome", outcome.rawValue)]
        let instruments = Instruments(factory: metrics)
        instruments.count(MetricLabel.requests, dimensions)
        instruments.time(MetricLabel.requestDuration, dimensions, since: started)
        guard let grant else { return }
        instruments.count(MetricLabel.tokenRequests, dimensions + [("grant_type", grant)])
        if grant == TokenGrant.renewal { instruments.count(MetricLabel.tokenRenewals, dimensions) }
    }
}

/// The labels of the metrics the package records.
public enum MetricLabel {
    /// Requests sent, by family, operation and outcome.
    public static let requests = "healthsignin_requests_total"
    /// How long requests took, by family, operation and outcome.
    public static let requestDuration = "healthsignin_request_duration_seconds"
    /// Token requests (an OAuth `grant_type` in the body), by family, operation, outcome and grant type.
    public static let tokenRequests = "healthsignin_token_requests_total"
    /// Token renewals (the `refresh_token` grant), by family, operation and outcome.
    public static let tokenRenewals = "healthsignin_token_renewals_total"
    /// How long each call to a credential store took, by operation and outcome.
    public static let storeDuration = "healthsignin_store_duration_seconds"
    /// Calls to a credential store that threw, by operation.
    public static let storeFailures = "healthsignin_store_failures_total"
}
