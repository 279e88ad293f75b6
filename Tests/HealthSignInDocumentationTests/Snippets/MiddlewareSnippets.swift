// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInCore
import HealthSignInVital

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

// The code of the README's section on middleware and the transport.

func middlewareExample() throws -> VitalSession {
    // snippet middleware
    /// Tags every request and reports how long each operation took.
    struct Instrumentation: HTTPClientMiddleware {
        func intercept(
            _ request: HTTPRequestMessage, operation: OperationID,
            next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
        ) async throws -> HTTPResponseMessage {
            var request = request
            request.headers["X-Client"] = "MyApp/1.0"
            let start = Date()
            defer { print("\(operation) took \(Date().timeIntervalSince(start)) s") }  // e.g. Vital.RefreshToken
            return try await next(request)
        }
    }

    // Your own URLSessionConfiguration: proxies, connection limits, waitsForConnectivity on Apple platforms.
    let sessionConfiguration = URLSessionConfiguration.default
    sessionConfiguration.httpMaximumConnectionsPerHost = 4
    let transport = URLSessionHTTPTransport(sessionConfiguration: sessionConfiguration)
    let store = try CredentialStores.secure(service: "com.example.vital")

    return VitalSession(configuration: .init(store: store, transport: transport, middlewares: [Instrumentation()]))
    // end snippet
}
