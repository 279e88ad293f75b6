// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInHealthVault
import HealthSignInCore

// The code of the README's section on using a generated client directly.

func generatedClientExample() async throws {
    // snippet generated-client
    let masterApplicationID = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!   // your app's id in HealthVault
    let client = HealthVaultAPIClient(configuration: .init(
        servers: .init(platform: URL(string: "https://platform.healthvault-ppe.com/platform/wildcat.ashx")),
        envelope: .init(clientVersion: "MyApp/1.0 iOS 17.0")
    ))
    let created = try await client.newApplicationCreationInfo(applicationID: masterApplicationID)
    let application = HealthVaultApplicationCredential(applicationID: created.appID, sharedSecret: created.sharedSecret)
    let session = try await client.createAuthenticatedSessionToken(application: application)
    for try await page in client.getAuthorizedPeoplePages(
        session: HealthVaultSessionCredential(token: session.token.value, sharedSecret: session.sharedSecret)
    ) {
        print(page.responseResults.personInfo.map(\.name))
    }
    // end snippet
}
