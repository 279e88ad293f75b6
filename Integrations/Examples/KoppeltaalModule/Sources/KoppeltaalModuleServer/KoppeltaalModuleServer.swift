import Foundation
import Hummingbird
import KoppeltaalModule

/// Serves the example module on 127.0.0.1:PORT (8080 by default), configured from the environment
/// (`ModuleSettings.fromEnvironment`), until it is stopped (SIGINT or SIGTERM).
@main
struct KoppeltaalModuleServer {
    static func main() async throws {
        let module = try Module(settings: try ModuleSettings.fromEnvironment())
        let port = Int(ProcessInfo.processInfo.environment["PORT"] ?? "") ?? 8080
        let app = Application(
            router: module.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await app.runService()
    }
}
