import Foundation
import Hummingbird
import Logging
import PostgresNIO
import ServiceLifecycle
import SignInBackend

/// Serves the example backend on 127.0.0.1:PORT (8080 by default), configured from the environment
/// (`BackendSettings`), in one service group with its PostgreSQL client and store, until SIGINT or SIGTERM shuts the
/// group down gracefully: the server stops taking requests, then the store closes, then the client.
@main
struct SignInBackendServer {
    static func main() async throws {
        let logger = Logger(label: "sign-in-backend")
        let settings = try BackendSettings.fromEnvironment()
        let postgres = PostgresClient(configuration: settings.database, backgroundLogger: logger)
        let backend = try Backend(settings: settings, postgres: postgres, logger: logger)
        let app = Application(
            router: backend.router(), configuration: .init(address: .hostname("127.0.0.1", port: settings.port)),
            logger: logger)
        let services = ServiceGroup(
            configuration: .init(
                services: [postgres, backend.store, app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await services.run()
    }
}
