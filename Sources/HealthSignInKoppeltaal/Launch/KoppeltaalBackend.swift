import Foundation
import HealthSignInCore

/// The portal's side of a mobile launch: asking the Koppeltaal server for an activation code for one patient.
///
/// It authenticates with the calling application's own Basic credentials, which are unrelated to the OAuth client
/// the mobile app uses. Run it on the portal's server, never in the app.
public struct KoppeltaalBackend: Sendable {
    /// How the backend reaches the Koppeltaal server.
    public struct Configuration: Sendable {
        /// The OAuth2 base of the server, e.g. `https://ggz.koppeltaal.nl/OAuth2/Koppeltaal`.
        public var launchURL: URL
        /// The calling application's credentials.
        public var credentials: BasicCredentials
        /// The transport, URL policy, timeout and logger of every request; the clients the flow makes share them.
        public var options: ClientOptions
        /// Dates the code's expiry.
        public var clock: any TimeSource

        /// Creates a configuration.
        public init(
            launchURL: URL, credentials: BasicCredentials, urlPolicy: URLPolicy = .init(),
            transport: any HTTPTransport = DefaultHTTPTransport(), clock: any TimeSource = SystemClock(),
            timeout: TimeInterval? = nil, middlewares: [any HTTPClientMiddleware] = []
        ) {
            self.launchURL = launchURL
            self.credentials = credentials
            self.options = ClientOptions(
                transport: transport, urlPolicy: urlPolicy, timeout: timeout, middlewares: middlewares)
            self.clock = clock
        }
    }

    /// The configuration.
    public let configuration: Configuration

    /// Creates a backend.
    public init(configuration: Configuration) { self.configuration = configuration }

    /// A one-time activation code that launches `clientID` for `patient` on a mobile device.
    ///
    /// - Parameters:
    ///   - clientID: the target application to launch.
    ///   - patient: the absolute FHIR URL of the patient.
    ///   - user: the absolute FHIR URL of the acting user.
    ///   - resource: the activity to launch.
    ///   - intent: the launch intent, for servers that support it.
    /// - Throws: `OAuthError` or ``OperationOutcomeError`` from the server, `UnexpectedResponseError` (e.g. 401 for
    ///   wrong application credentials), `TransportError`.
    public func mobileLaunch(
        clientID: String, patient: String, user: String, resource: String? = nil, intent: String? = nil
    ) async throws -> ActivationCode {
        let client = KoppeltaalAPIClient(
            configuration: .init(servers: .init(launch: configuration.launchURL), options: configuration.options))
        let response = try await client.mobileLaunch(
            .init(clientID: clientID, patient: patient, user: user, resource: resource, intent: intent),
            credentials: configuration.credentials
        )
        let issued = configuration.clock.now()
        return ActivationCode(
            code: response.activationCode, validityInDays: response.expiresIn,
            expiresAt: issued.addingTimeInterval(TimeInterval(response.expiresIn) * 86_400)
        )
    }
}

/// A one-time code that lets the patient's mobile app activate itself.
public struct ActivationCode: Sendable, Hashable, RedactedDescription {
    /// The code, usually six digits (never printed: it grants access to health data).
    public let code: String
    /// How many days the server says the code is valid.
    public let validityInDays: Int
    /// When the code expires, counted from when it was received.
    public let expiresAt: Date

    /// Creates a code.
    public init(code: String, validityInDays: Int, expiresAt: Date) {
        (self.code, self.validityInDays, self.expiresAt) = (code, validityInDays, expiresAt)
    }

    /// The validity and expiry, with the code redacted.
    public var redactedFields: KeyValuePairs<String, Any> {
        ["code": Redaction.placeholder, "validityInDays": validityInDays, "expiresAt": expiresAt]
    }
}
