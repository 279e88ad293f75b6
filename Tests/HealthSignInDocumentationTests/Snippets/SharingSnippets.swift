// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInCore
import HealthSignInVital

// The code of the HealthSignInCore article on sharing a credential.

func sharedFileStore() throws {
    // snippet shared-file-store
    // In every process: the same directory, so the processes take turns to refresh
    let store = try FileCredentialStore(directory: URL(fileURLWithPath: "/var/lib/example/credentials"))
    let vital = VitalSession(configuration: .init(store: store))
    // end snippet
    _ = vital
}
