import Configuration
import Foundation
import HealthSignInKoppeltaal2
import HealthSignInSMART
import HealthSignInVital

extension SMARTBackendClient.Configuration {
    /// A service's configuration read from `config`; the store and the options are the app's.
    ///
    /// | Key | Environment variable | Value |
    /// |---|---|---|
    /// | `smart.client.id` | `SMART_CLIENT_ID` | the client id (required) |
    /// | `smart.fhir.url` | `SMART_FHIR_URL` | the FHIR base URL (required) |
    /// | `smart.scope` | `SMART_SCOPE` | the scopes, e.g. `system/Observation.rs` (required) |
    /// | `smart.private.key` | `SMART_PRIVATE_KEY` | the signing key, a JWK or PEM (required, secret) |
    /// | `smart.key.id` | `SMART_KEY_ID` | the key's `kid`, for a PEM key |
    /// | `smart.key.algorithm` | `SMART_KEY_ALGORITHM` | `ES384` or `RS384`; by default the key type's |
    /// | `smart.store.key` | `SMART_STORE_KEY` | the store key; by default derived from the registration |
    ///
    /// ```swift
    /// let config = ConfigReader(provider: EnvironmentVariablesProvider())
    /// let smart = SMARTBackendClient(configuration: try .init(config: config, store: store))
    /// ```
    ///
    /// - Parameters:
    ///   - config: where the values are read.
    ///   - store: where the token is kept.
    ///   - options: the transport, URL policy, timeout, logger and middlewares of every request.
    /// - Throws: ``ConfigValueError`` naming the first value that is missing or unusable.
    public init(
        config: ConfigReader, store: any CredentialStore = InMemoryCredentialStore(), options: ClientOptions = .init()
    ) throws {
        let key = try config.privateKey("smart")
        let algorithm = try config.algorithm("smart", for: key) { $0 == .ec ? .es384 : .rs384 }
        let signer = try config.checked("smart.private.key", "cannot sign") {
            try ClientAssertionSigner(key: key, algorithm: algorithm)
        }
        self.init(
            clientID: try config.required("smart.client.id"), signer: signer, scope: try config.required("smart.scope"),
            fhirBaseURL: try config.url("smart.fhir.url"), store: store,
            storeKey: config.string(forKey: "smart.store.key"), options: options)
    }
}

extension Koppeltaal2BackendClient.Configuration {
    /// An application's configuration in a Koppeltaal 2.0 domain read from `config`; the store and the options are
    /// the app's.
    ///
    /// | Key | Environment variable | Value |
    /// |---|---|---|
    /// | `koppeltaal.client.id` | `KOPPELTAAL_CLIENT_ID` | the client id the domain gave (required) |
    /// | `koppeltaal.fhir.url` | `KOPPELTAAL_FHIR_URL` | the domain's FHIR base URL (required) |
    /// | `koppeltaal.private.key` | `KOPPELTAAL_PRIVATE_KEY` | the signing key, a JWK or PEM (required, secret) |
    /// | `koppeltaal.key.id` | `KOPPELTAAL_KEY_ID` | the key's `kid`, for a PEM key |
    /// | `koppeltaal.key.algorithm` | `KOPPELTAAL_KEY_ALGORITHM` | `RS512` (default), `RS384` or `ES384` |
    /// | `koppeltaal.trusted.hosts` | `KOPPELTAAL_TRUSTED_HOSTS` | the auth service's hosts, comma-separated |
    /// | `koppeltaal.store.key` | `KOPPELTAAL_STORE_KEY` | the store key; by default derived from the registration |
    ///
    /// - Parameters:
    ///   - config: where the values are read.
    ///   - store: where the token is kept.
    ///   - options: the transport, URL policy, timeout, logger and middlewares of every request.
    /// - Throws: ``ConfigValueError`` naming the first value that is missing or unusable.
    public init(
        config: ConfigReader, store: any CredentialStore = InMemoryCredentialStore(), options: ClientOptions = .init()
    ) throws {
        let key = try config.privateKey("koppeltaal")
        let algorithm = try config.algorithm("koppeltaal", for: key) { _ in .rs512 }
        let signer = try config.checked("koppeltaal.private.key", "cannot sign") {
            try Koppeltaal2BackendClient.signer(key: key, algorithm: algorithm)
        }
        self.init(
            clientID: try config.required("koppeltaal.client.id"), signer: signer,
            fhirBaseURL: try config.url("koppeltaal.fhir.url"), trustedHosts: config.list("koppeltaal.trusted.hosts"),
            store: store, storeKey: config.string(forKey: "koppeltaal.store.key"), options: options)
    }
}

extension VitalBackend.Configuration {
    /// A backend's Junction configuration read from `config`; the store and the options are the app's.
    ///
    /// | Key | Environment variable | Value |
    /// |---|---|---|
    /// | `vital.api.key` | `VITAL_API_KEY` | the team API key (required, secret) |
    /// | `vital.environment` | `VITAL_ENVIRONMENT` | `sandbox-us` (default), `sandbox-eu`, `production-us`, ... |
    /// | `vital.api.url` | `VITAL_API_URL` | the API host, with `vital.auth.url`, for a proxy or a test server |
    /// | `vital.auth.url` | `VITAL_AUTH_URL` | the auth host, with `vital.api.url` |
    ///
    /// - Parameters:
    ///   - config: where the values are read.
    ///   - store: where the Vital user id of each client user id is kept.
    ///   - options: the transport, URL policy, timeout, logger and middlewares of every request.
    /// - Throws: ``ConfigValueError`` naming the first value that is missing or unusable.
    public init(
        config: ConfigReader, store: any CredentialStore = InMemoryCredentialStore(), options: ClientOptions = .init()
    ) throws {
        let name = config.string(forKey: "vital.environment") ?? "sandbox-us"
        guard let environment = VitalEnvironment(name: name) else {
            throw ConfigValueError(
                key: "vital.environment", problem: "is not sandbox-us, sandbox-eu, production-us or production-eu")
        }
        var hosts = VitalHostMap()
        if config.string(forKey: "vital.api.url") != nil || config.string(forKey: "vital.auth.url") != nil {
            hosts = .all(VitalHosts(api: try config.url("vital.api.url"), auth: try config.url("vital.auth.url")))
        }
        self.init(
            apiKey: APIKey(try config.required("vital.api.key", isSecret: true)), environment: environment,
            hosts: hosts, store: store, options: options)
    }
}
