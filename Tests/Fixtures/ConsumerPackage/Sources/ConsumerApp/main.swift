import DemoKit
import Foundation
import HealthSignInCore
import HealthSignInTesting

// Calls the client generated into DemoKit through a transport that answers like the service would.
let transport = RecordingTransport { request in
    let name = URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.queryItems?.first?.value ?? ""
    return HTTPResponseMessage(
        status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"message": "Hello, \#(name)"}"#.utf8))
}
print(try await demoGreeting(for: "consumer", transport: transport))
print(transport.requests.map { "\($0.method) \($0.url.absoluteString)" }.joined(separator: "\n"))
print(try sideBySide().joined(separator: "\n"))
