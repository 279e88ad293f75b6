import AsyncHTTPClient
import Foundation
import HealthSignInAsyncHTTPClient
import HealthSignInConfiguration
import HealthSignInCore
import HealthSignInLogging
import HealthSignInObservability
import HealthSignInSMART
import HealthSignInVapor
import HealthSignInVital
import Logging
import Vapor

/// The backend's parts, made once at start and shared by every request: the SDK's Junction and SMART clients,
/// configured from the settings' `ConfigReader`, sending through the app's AsyncHTTPClient, logging through swift-log,
/// traced and measured, with their routes.
///
/// The SMART service token and the Junction user ids are kept in memory: one instance asks the authorization server
/// for one token, and a restarted instance asks again. The instances of a fleet share a store instead, such as the
/// PostgreSQL one of `HealthSignInPostgres`, so that they ask for one token between them.
///
/// The handlers throw the SDK's errors as they are: `HealthSignInMiddleware`, which ``configure(_:settings:)``
/// installs, logs each on the request's logger and answers it by its recovery (503 with `Retry-After` for an upstream
/// that is down for now, 502 for one that refused, 500 for this server's configuration).
public struct Backend: Sendable {
    /// Mints sign-in tokens with the team's API key.
    public let vital: VitalBackend
    /// Calls the FHIR server as the backend service.
    public let smart: SMARTBackendClient
    /// The app's sessions: bearer token to user.
    public let appSessions: [String: String]
    /// The patient the job syncs.
    public let patientID: String

    /// Makes the parts: one `ClientOptions` (the app's HTTP client, the settings' URL policy, swift-log, and spans
    /// and metrics by `ObservabilityMiddleware`) and one in-memory store, shared by both clients, which read their own
    /// values from `settings.config`.
    ///
    /// - Parameters:
    ///   - settings: what the environment configures.
    ///   - httpClient: the client the SDK sends through: the app's, `app.http.client.shared`.
    ///   - logger: where the SDK's lines go outside a request (within one, the middleware sends them to the
    ///     request's logger).
    /// - Throws: `ConfigValueError` naming the first value of the SDK's that is missing or unusable.
    public init(settings: BackendSettings, httpClient: HTTPClient, logger: Logger) throws {
        let options = ClientOptions(
            transport: AsyncHTTPClientTransport(client: httpClient), urlPolicy: settings.urlPolicy,
            logger: SwiftLogSink(logger), middlewares: [ObservabilityMiddleware()])
        let store = InMemoryCredentialStore()
        vital = VitalBackend(configuration: try .init(config: settings.config, store: store, options: options))
        smart = SMARTBackendClient(configuration: try .init(config: settings.config, store: store, options: options))
        appSessions = settings.appSessions
        patientID = settings.patientID
    }

    /// Sets `app` up as the backend: the SDK's clients on the app's HTTP client and logger, `HealthSignInMiddleware`
    /// after Vapor's own, and the routes.
    ///
    /// - Returns: the backend, whose ``checkReadiness()`` the server runs before it serves.
    /// - Throws: what ``init(settings:httpClient:logger:)`` throws.
    @discardableResult
    public static func configure(_ app: Application, settings: BackendSettings) throws -> Backend {
        let backend = try Backend(settings: settings, httpClient: app.http.client.shared, logger: app.logger)
        app.middleware.use(HealthSignInMiddleware())
        try app.register(collection: backend)
        return backend
    }

    /// Checks, before the server serves, what a request would otherwise find late: that the SMART authorization
    /// server accepts this instance's key, with a token request whose token is not kept.
    ///
    /// - Throws: the SDK's error: `OAuthError` `invalid_client` for a key the server does not know.
    public func checkReadiness() async throws {
        try await smart.verifyCredentials()
    }

    /// A Junction sign-in token for the app user the request's bearer token signs in.
    ///
    /// - Throws: `Abort(.unauthorized)` for a request without a session of the app; the SDK's errors.
    func signInToken(for request: Request) async throws -> SignInTokenResponse {
        guard let token = request.headers.bearerAuthorization?.token, let user = appSessions[token] else {
            throw Abort(.unauthorized, headers: ["WWW-Authenticate": "Bearer"], reason: "Sign in to the app first.")
        }
        let grant = try await vital.signInToken(forClientUserID: user)
        return SignInTokenResponse(userID: grant.userID.uuidString.lowercased(), signInToken: grant.signInToken)
    }
}

extension Backend: RouteCollection {
    /// The routes: `POST /sign-in-token` for the app, `POST /jobs/observation-sync` for the scheduler.
    public func boot(routes: any RoutesBuilder) throws {
        routes.post("sign-in-token") { request async throws -> SignInTokenResponse in
            try await signInToken(for: request)
        }
        routes.post("jobs", "observation-sync") { _ async throws -> ObservationSyncJob.Summary in
            try await ObservationSyncJob(smart: smart, patientID: patientID).run()
        }
    }
}

/// What `POST /sign-in-token` answers: the app passes `sign_in_token` to the Junction SDK (`VitalSession.signIn`).
public struct SignInTokenResponse: Content, Equatable {
    /// The Junction user, a lowercase UUID.
    public let userID: String
    /// The sign-in token, single use and short-lived.
    public let signInToken: String

    /// Creates a response.
    public init(userID: String, signInToken: String) {
        self.userID = userID
        self.signInToken = signInToken
    }

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case signInToken = "sign_in_token"
    }
}
