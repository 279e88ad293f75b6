import AsyncHTTPClient
import Foundation
import HealthSignInAsyncHTTPClient
import Hummingbird
import Logging
import SignInBackend

/// Serves the example backend on 127.0.0.1:PORT (8080 by default), configured from the environment
/// (`BackendSettings.fromEnvironment`), until it is stopped (SIGINT or SIGTERM).
@main
struct SignInBackendServer {
    static func main() async throws {
        let logger = Logger(label: "sign-in-backend")
        let settings = try BackendSettings.fromEnvironment()
        let httpClient = HTTPClient(
            eventLoopGroupProvider: .singleton, configuration: AsyncHTTPClientTransport.clientConfiguration())
        do {
            let backend = try Backend(settings: settings, httpClient: httpClient, logger: logger)
            let port = Int(ProcessInfo.processInfo.environment["PORT"] ?? "") ?? 8080
            let app = Application(
                router: backend.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)),
                logger: logger)
            try await app.runService()
        } catch {
            try await httpClient.shutdown()
            throw error
        }
        try await httpClient.shutdown()
    }
}
