import AsyncHTTPClient
import Foundation
import HealthSignInAsyncHTTPClient
import HealthSignInCore
import HealthSignInLogging
import HealthSignInOAuth
import HealthSignInPostgres
import HealthSignInSMART
import HealthSignInVital
import Hummingbird
import Logging

/// The backend's parts, made once at start and shared by every request: the SDK's Junction and SMART clients, sending
/// through the server's AsyncHTTPClient, logging to its swift-log logger, and keeping the SMART service token in the
/// PostgreSQL store every instance shares (so a fleet asks the authorization server for one token, not one each).
public struct Backend: Sendable {
    /// Mints sign-in tokens with the team's API key.
    public let vital: VitalBackend
    /// Calls the FHIR server as the backend service.
    public let smart: SMARTBackendClient
    /// The app's sessions: bearer token to user.
    public let appSessions: [String: String]
    /// The patient the job syncs.
    public let patientID: String

    /// Makes the parts.
    ///
    /// - Parameter httpClient: the server's client, made with `AsyncHTTPClientTransport.clientConfiguration()`.
    /// - Throws: what the transport, the store or the key throw for a configuration they cannot use.
    // snippet on-a-server-backend
    public init(settings: BackendSettings, httpClient: HTTPClient, logger: Logger) throws {
        let transport = try AsyncHTTPClientTransport(client: httpClient)
        let sink = SwiftLogSink(logger)
        let urlPolicy = URLPolicy(allowsInsecureLoopback: settings.allowsLoopbackHTTP)
        vital = VitalBackend(
            configuration: .init(
                apiKey: settings.vitalAPIKey, environment: settings.vitalEnvironment, hosts: settings.vitalHosts,
                urlPolicy: urlPolicy, transport: transport, logger: sink))
        let store = try PostgresCredentialStore(
            configuration: .init(connection: settings.database, table: settings.databaseTable), logger: logger)
        let signer = try ClientAssertionSigner(key: settings.smartPrivateKey, algorithm: .es384)
        smart = SMARTBackendClient(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: settings.fhirBaseURL,
                    client: OAuthClientCredentials(clientID: settings.smartClientID, signer: signer)),
                scope: "system/Patient.rs system/Observation.rs",
                session: OAuthSessionSettings(
                    store: store, options: ClientOptions(transport: transport, urlPolicy: urlPolicy, logger: sink))))
        appSessions = settings.appSessions
        patientID = settings.smartPatientID
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
        router.post("sign-in-token") { request, _ -> SignInTokenResponse in
            try await signInToken(for: request)
        }
        router.post("jobs/observation-sync") { _, _ -> ObservationSyncJob.Result in
            try await ObservationSyncJob(smart: smart, patientID: patientID).run()
        }
        return router
    }

    /// A Junction sign-in token for the app user the request's bearer token signs in.
    // snippet on-a-server-sign-in-token
    func signInToken(for request: Request) async throws -> SignInTokenResponse {
        guard let authorization = request.headers[.authorization], authorization.hasPrefix("Bearer "),
            let user = appSessions[String(authorization.dropFirst("Bearer ".count))]
        else {
            throw HTTPError(.unauthorized, headers: [.wwwAuthenticate: "Bearer"], message: "sign in to the app first")
        }
        do {
            let grant = try await vital.signInToken(forClientUserID: user)
            return SignInTokenResponse(userID: grant.userID.uuidString.lowercased(), signInToken: grant.signInToken)
        } catch {
            throw BackendFailure(error)
        }
    }
    // end snippet
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

/// An SDK error as the backend's answer: 503 with `Retry-After` for what passes (`ErrorRecovery.retryLater`), 502
/// otherwise; the body is the error's description, which the SDK keeps free of secrets.
struct BackendFailure: HTTPResponseError {
    let error: any Error

    init(_ error: any Error) { self.error = error }

    var status: HTTPResponse.Status {
        (error as? any SDKError)?.recovery == .retryLater ? .serviceUnavailable : .badGateway
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if status == .serviceUnavailable { headers[.retryAfter] = "5" }
        let body = try JSONEncoder().encode(["error": String(describing: error)])
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}
