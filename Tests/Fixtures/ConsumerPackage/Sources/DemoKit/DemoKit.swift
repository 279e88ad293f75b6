import Foundation
import HealthSignInCore

/// The one public declaration of DemoKit: the generated client, its models and errors stay internal.
public func demoGreeting(for name: String, transport: any HTTPTransport) async throws -> String {
    let client = DemoAPIClient(configuration: .init(transport: transport))
    let greeting: Salutation = try await client.greeting(.init(name: name))
    return greeting.message
}
