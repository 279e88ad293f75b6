import Foundation
import HealthSignInCore
import HealthSignInCredentials

/// Your backend's side of Vital sign-in: finds or creates the Vital user for one of your users and mints the
/// sign-in token your app signs in with. It holds the team API key, so it runs on servers only.
///
/// The Vital user id of each of your users is kept in ``Configuration/store``, so every mint after a user's first is
/// one call to Junction. Share the store of your fleet and every instance knows the users any of them has seen.
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
        /// Where the Vital user id of each client user id is kept, under `vital.user.` and a digest of the API host,
        /// the team key and the client user id (neither is written in clear). It is a cache of what Junction knows: a
        /// value that cannot be read or written costs the mint one more call, never the mint itself.
        public var store: any CredentialStore

        /// Creates a configuration.
        public init(
            apiKey: APIKey, environment: VitalEnvironment, hosts: VitalHostMap = .init(),
            urlPolicy: URLPolicy = .init(),
            transport: any HTTPTransport = DefaultHTTPTransport(), timeout: TimeInterval? = nil,
            logger: (any LogSink)? = nil,
            middlewares: [any HTTPClientMiddleware] = [],
            store: any CredentialStore = InMemoryCredentialStore()
        ) {
            self.apiKey = apiKey
            self.environment = environment
            self.hosts = hosts
            self.store = store
            self.options = ClientOptions(
                transport: transport, urlPolicy: urlPolicy, timeout: timeout, logger: logger, middlewares: middlewares)
        }

        /// A configuration in the shape of every server entry point of the SDK: who the backend is, where it
        /// calls, where it keeps what it learns, and the `ClientOptions` of its requests.
        ///
        /// - Parameters:
        ///   - apiKey: the team API key.
        ///   - environment: the environment the key belongs to (`VitalEnvironment(name: "sandbox-us")`).
        ///   - hosts: the hosts of each environment; override them for a proxy or a test server.
        ///   - store: where the Vital user id of each client user id is kept; the fleet's shared store.
        ///   - options: the transport, URL policy, timeout, logger and middlewares of every request.
        public init(
            apiKey: APIKey, environment: VitalEnvironment, hosts: VitalHostMap = .init(),
            store: any CredentialStore = InMemoryCredentialStore(), options: ClientOptions
        ) {
            (self.apiKey, self.environment, self.hosts, self.store) = (apiKey, environment, hosts, store)
            self.options = options
        }
    }

    /// The configuration.
    public let configuration: Configuration

    /// Creates a backend helper.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// A sign-in token for your user `clientUserID`: one call to Junction for a user the store knows, and for a user
    /// it does not, the Vital user is found or created first (and kept).
    ///
    /// - Throws: ``VitalClientUserIDError`` for an id Junction could not take as it is (nothing is sent),
    ///   ``VitalError`` from the API, `UnexpectedResponseError` (401 for a bad key, 422 for a rejected id),
    ///   `ConfigurationError.insecureURL` for a host that is not https, `TransportError`.
    public func signInToken(forClientUserID clientUserID: String) async throws -> VitalSignInTokenGrant {
        try VitalClientUserID.check(clientUserID)
        let client = try client()
        let key = userKey(for: clientUserID)
        if let known = try? await configuration.store.read(key),
            let userID = UUID(uuidString: String(decoding: known, as: UTF8.self))
        {
            do {
                return try await mint(for: userID, createdUser: false, with: client)
            } catch let error as VitalError where error.code == .userNotFound {
                // Deleted since it was kept: forget it, unless another mint has kept a newer one meanwhile.
                _ = try? await configuration.store.replace(known, with: nil, for: key)
            }
        }
        let user = try await user(forClientUserID: clientUserID, with: client)
        try? await configuration.store.write(Data(user.userID.uuidString.utf8), for: key)
        return try await mint(for: user.userID, createdUser: user.created, with: client)
    }

    /// The Vital user of `clientUserID`: created now, or, when it exists already, the one the conflict names (or
    /// the resolve endpoint finds).
    ///
    /// - Throws: ``VitalClientUserIDError`` for an id Junction could not take as it is (nothing is sent), or what
    ///   ``signInToken(forClientUserID:)`` throws.
    public func user(forClientUserID clientUserID: String) async throws -> (userID: UUID, created: Bool) {
        try VitalClientUserID.check(clientUserID)
        return try await user(forClientUserID: clientUserID, with: try client())
    }

    private func user(forClientUserID clientUserID: String, with client: VitalAPIClient) async throws -> (
        userID: UUID, created: Bool
    ) {
        do {
            let created = try await client.createUser(.init(clientUserID: clientUserID), apiKey: configuration.apiKey)
            return (created.userID, true)
        } catch let error as VitalError where error.httpStatus == 400 && error.code == .invalidRequestUppercase {
            if let existing = error.body.detail.userID { return (existing, false) }
            let resolved = try await client.resolveUser(.init(clientUserID: clientUserID), apiKey: configuration.apiKey)
            return (resolved.userID, false)
        }
    }

    private func mint(for userID: UUID, createdUser: Bool, with client: VitalAPIClient) async throws
        -> VitalSignInTokenGrant
    {
        let response = try await client.createSignInToken(.init(userID: userID), apiKey: configuration.apiKey)
        return VitalSignInTokenGrant(
            userID: response.userID, signInToken: response.signInToken, createdUser: createdUser)
    }

    /// `vital.user.` and a digest of the API host, the team key and `clientUserID`, so two teams or environments
    /// sharing a store keep their users apart.
    private func userKey(for clientUserID: String) -> String {
        let api = configuration.hosts.hosts(for: configuration.environment).api
        return CredentialKey.derivedKey(
            prefix: "vital.user",
            registrations: [
                CredentialRegistration(
                    family: "Vital", server: api.absoluteString, client: configuration.apiKey.value,
                    scope: clientUserID)
            ])
    }

    /// Deletes the Vital user `userID` and its data; apps signed in as the user sign out at their next refresh. The
    /// next mint for its client user id finds the kept id gone and creates a new Vital user.
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
