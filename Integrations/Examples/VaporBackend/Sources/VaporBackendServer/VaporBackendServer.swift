import Foundation
import Vapor
import VaporBackend

/// Serves the example backend on 127.0.0.1:PORT (8080 by default; Vapor's `serve --hostname --port` flags override
/// both), configured from the environment (`BackendSettings`, which lists the variables), once the SMART authorization
/// server has accepted the service's key, until it is stopped (SIGINT or SIGTERM). Vapor reads the log level from
/// `LOG_LEVEL`.
@main
enum VaporBackendServer {
    static func main() async throws {
        var environment = try Environment.detect()
        try LoggingSystem.bootstrap(from: &environment)
        let app = try await Application.make(environment)
        do {
            let settings = try BackendSettings.fromEnvironment()
            app.http.server.configuration.hostname = "127.0.0.1"
            app.http.server.configuration.port = settings.port
            let backend = try Backend.configure(app, settings: settings)
            try await backend.checkReadiness()
            try await app.execute()
        } catch {
            app.logger.report(error: error)
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }
}
