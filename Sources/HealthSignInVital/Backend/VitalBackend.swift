import Foundation
import HealthSignInCore

/// Your backend's side of Vital sign-in: finds or creates the Vital user for one of your users and mints the
/// sign-in token your app signs in with. It holds the team API key, so it runs on servers only.
///
/// ```swift
/// let vital = VitalBackend(configuration: .init(apiKey: APIKey(teamKey), environment: .sandboxUS))
/// let grant = try await vital.signInToken(forClientUserID: user.id)
/// return ["sign_in_token": grant.signInToken]
/// ```
///
/// Mint a token only when the app is signed out or reconciliation asks for one, not on every launch.
public struct VitalBackend: Sendable {
    /// The team's key and environment.
    public struct Configuration: Sendable {
        /// The team API key, sent in `x-vital-api-key` and never logged.
        public var apiKey: APIKey
        /// The environment the key belongs to.
        public var environment: VitalEnvironment
        /// The hosts of each environment; override them for a proxy or a test server.
        public var hosts: VitalHostMap
        /// The transport, URL policy, timeout and logger of every request; the clients the flow makes share them.
        public var options: ClientOptions

        /// Creates a configuration.
        public init(
            apiKey: APIKey, environment: VitalEnvironment, hosts: VitalHostMap = .init(),
            urlPolicy: URLPolicy = .init(),
            transport: any HTTPTransport = DefaultHTTPTransport(), timeout: TimeInterval? = nil,
            logger: (any LogSink)? = nil,
            middlewares: [any HTTPClientMiddleware] = []
        ) {
            self.apiKey = apiKey
            self.environment = environment
            self.hosts = hosts
            self.options = ClientOptions(
                transport: transport, urlPolicy: urlPolicy, timeout: timeout, logger: logger, middlewares: middlewares)
        }
    }

    /// The configuration.
    public let configuration: Configuration

    /// Creates a backend helper.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// A sign-in token for your user `clientUserID`, creating the Vital user first when there is none.
    ///
    /// - Throws: ``VitalError`` from the API (e.g. `USER_NOT_FOUND`), `UnexpectedResponseError` (401 for a bad key,
    ///   422 for a rejected id), `ConfigurationError.insecureURL` for a host that is not https, `TransportError`.
    public func signInToken(forClientUserID clientUserID: String) async throws -> VitalSignInTokenGrant {
        let user = try await user(forClientUserID: clientUserID)
        let response = try await client().createSignInToken(.init(userID: user.userID), apiKey: configuration.apiKey)
        return VitalSignInTokenGrant(
            userID: response.userID, signInToken: response.signInToken, createdUser: user.created)
    }

    /// The Vital user of `clientUserID`: created now, or, when it exists already, the one the conflict names (or
    /// the resolve endpoint finds).
    public func user(forClientUserID clientUserID: String) async throws -> (userID: UUID, created: Bool) {
        let client = try client()
        do {
            let created = try await client.createUser(.init(clientUserID: clientUserID), apiKey: configuration.apiKey)
            return (created.userID, true)
        } catch let error as VitalError where error.httpStatus == 400 && error.code == .invalidRequestUppercase {
            if let existing = error.body.detail.userID { return (existing, false) }
            let resolved = try await client.resolveUser(.init(clientUserID: clientUserID), apiKey: configuration.apiKey)
            return (resolved.userID, false)
        }
    }

    /// Deletes the Vital user `userID` and its data; apps signed in as the user sign out at their next refresh.
    public func deleteUser(_ userID: UUID) async throws {
        _ = try await client().deleteUser(.init(userID: userID), apiKey: configuration.apiKey)
    }

    /// A client for the environment's API host, once the policy accepts it.
    private func client() throws -> VitalAPIClient {
        let api = configuration.hosts.hosts(for: configuration.environment).api
        try configuration.options.urlPolicy.check(api)
        return VitalAPIClient(configuration: .init(servers: .init(api: api), options: configuration.options))
    }
}

/// A sign-in token for the app, with the user it signs in.
public struct VitalSignInTokenGrant: Sendable, Hashable, RedactedDescription {
    /// The Vital user.
    public let userID: UUID
    /// The sign-in token to hand to the app (never printed).
    public let signInToken: String
    /// Whether the Vital user was created by this call.
    public let createdUser: Bool

    /// Creates a grant.
    public init(userID: UUID, signInToken: String, createdUser: Bool) {
        (self.userID, self.signInToken, self.createdUser) = (userID, signInToken, createdUser)
    }

    /// The user, with the token redacted.
    public var redactedFields: KeyValuePairs<String, Any> {
        ["userID": userID, "signInToken": Redaction.placeholder, "createdUser": createdUser]
    }
}
