import Configuration
import HealthSignInAsyncHTTPClient
import HealthSignInConfiguration
import HealthSignInHummingbird
import HealthSignInLogging
import HealthSignInObservability
import HealthSignInPostgres
import HealthSignInSMART
import Hummingbird
import Logging
import PostgresNIO
import ServiceLifecycle

/// The smallest service on the SDK that a fleet can run: a SMART Backend Services client configured from the
/// environment, its token in the PostgreSQL store the instances share (on the app's own pool), its requests traced,
/// measured and logged on the request's logger, its errors answered by their recovery, and everything shut down
/// gracefully by one service group.
///
/// - Returns: the service group to run, and the client.
/// - Throws: `ConfigValueError` naming a value the environment lacks.
public func smallestService() throws -> (services: ServiceGroup, smart: SMARTBackendClient) {
    // snippet on-a-server-smallest
    let logger = Logger(label: "observations")
    let config = ConfigReader(provider: EnvironmentVariablesProvider())
    let postgres = PostgresClient(
        configuration: .init(
            host: config.string(forKey: "database.host", default: "127.0.0.1"),
            username: config.string(forKey: "database.user", default: "backend"),
            password: config.string(forKey: "database.password", isSecret: true), database: "backend", tls: .disable),
        backgroundLogger: logger)
    let store = try PostgresCredentialStore(client: postgres)
    let options = ClientOptions(
        transport: AsyncHTTPClientTransport(), logger: SwiftLogSink(logger), middlewares: [ObservabilityMiddleware()])
    let smart = SMARTBackendClient(configuration: try .init(config: config, store: store, options: options))

    let router = Router()
    router.add(middleware: HealthSignInMiddleware())
    router.get("patients/:id") { _, context in
        let patient = try await smart.fhir(.fhir("Patient", id: context.parameters.require("id")))
        return String(decoding: patient.body, as: UTF8.self)
    }
    let app = Application(router: router, logger: logger)
    let services = ServiceGroup(
        configuration: .init(services: [postgres, store, app], gracefulShutdownSignals: [.sigterm], logger: logger))
    // end snippet
    return (services, smart)
}
