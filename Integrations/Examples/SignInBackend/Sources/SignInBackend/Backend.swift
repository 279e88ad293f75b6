import AsyncHTTPClient
import Foundation
import HealthSignInAsyncHTTPClient
import HealthSignInConfiguration
import HealthSignInHummingbird
import HealthSignInLogging
import HealthSignInObservability
import HealthSignInPostgres
import HealthSignInSMART
import HealthSignInVital
import Hummingbird
import Logging
import PostgresNIO

/// The backend's parts, made once at start and shared by every request: the SDK's Junction and SMART clients, sending
/// through AsyncHTTPClient, logging to swift-log, traced and measured, and keeping what they are issued in the
/// PostgreSQL store every instance shares, on the app's own pool (so a fleet asks the authorization server for one
/// token, not one each).
public struct Backend: Sendable {
    /// Mints sign-in tokens with the team's API key.
    public let vital: VitalBackend
    /// Calls the FHIR server as the backend service.
    public let smart: SMARTBackendClient
    /// The store both keep their state in; a service of the app's service group.
    public let store: PostgresCredentialStore
    /// The app's sessions: bearer token to user.
    public let appSessions: [String: String]
    /// The patient the job syncs.
    public let patientID: String

    /// Makes the parts.
    ///
    /// - Parameters:
    ///   - settings: what the environment says.
    ///   - postgres: the app's PostgreSQL client, which its service group runs.
    ///   - httpClient: the app's HTTP client.
    ///   - logger: where the SDK's lines go outside a request.
    /// - Throws: `ConfigValueError` for a value the SDK cannot use, `PostgresCredentialStoreError` for a table name.
    // snippet on-a-server-backend
    public init(settings: BackendSettings, postgres: PostgresClient, httpClient: HTTPClient = .shared, logger: Logger)
        throws
    {
        let options = ClientOptions(
            transport: AsyncHTTPClientTransport(client: httpClient), urlPolicy: settings.urlPolicy,
            logger: SwiftLogSink(logger), middlewares: [ObservabilityMiddleware()])
        store = try PostgresCredentialStore(
            client: postgres, configuration: .init(table: settings.databaseTable, timeout: settings.databaseTimeout))
        vital = VitalBackend(configuration: try .init(config: settings.config, store: store, options: options))
        smart = SMARTBackendClient(configuration: try .init(config: settings.config, store: store, options: options))
        appSessions = settings.appSessions
        patientID = settings.patientID
    }
    // end snippet

    /// Checks, before the server reports ready, what a request would otherwise find late: that the SMART
    /// authorization server accepts this instance's key (a token request whose token is not kept). An instance started
    /// with the wrong key fails here, with the server's reason, instead of answering on the fleet's shared token until
    /// a renewal lands on it.
    ///
    /// - Throws: the SDK's error: `OAuthError` `invalid_client` for a key the server does not know.
    public func checkReadiness() async throws {
        try await smart.verifyCredentials()
    }

    /// The routes: `POST /sign-in-token` for the app, `POST /jobs/observation-sync` for the scheduler.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: HealthSignInMiddleware())
        router.post("sign-in-token") { request, _ -> SignInTokenResponse in
            try await signInToken(for: request)
        }
        router.post("jobs/observation-sync") { _, _ -> ObservationSyncJob.Result in
            try await ObservationSyncJob(smart: smart, patientID: patientID).run()
        }
        return router
    }

    /// A Junction sign-in token for the app user the request's bearer token signs in.
    func signInToken(for request: Request) async throws -> SignInTokenResponse {
        guard let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer "),
            let user = appSessions[String(authorization.dropFirst("Bearer ".count))]
        else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer"], message: "sign in to the app first")
        }
        let grant = try await vital.signInToken(forClientUserID: user)
        return SignInTokenResponse(userID: grant.userID.uuidString.lowercased(), signInToken: grant.signInToken)
    }
}

/// What `POST /sign-in-token` answers: the app passes `sign_in_token` to the Junction SDK (`VitalSession.signIn`).
public struct SignInTokenResponse: ResponseCodable {
    /// The Junction user.
    public let userID: String
    /// The sign-in token, single use and short-lived.
    public let signInToken: String

    enum CodingKeys: String, CodingKey {
        case userID = "user_id"
        case signInToken = "sign_in_token"
    }
}
