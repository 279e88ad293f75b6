// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInHealthVault
import HealthSignInCore

// The code of the HealthVault tutorial, one region per step.

func healthVaultTutorialConnection() throws -> HealthVaultConnection {
    // snippet healthvault-tutorial-connection
    // One connection for the app's lifetime; the application instance and its session live in the Keychain.
    let connection = HealthVaultConnection(configuration: .init(
        store: try CredentialStores.secure(service: "com.example.healthvault"),
        instanceName: "My iPhone"
    ))
    // end snippet
    return connection
}

func healthVaultTutorialProvision(connection: HealthVaultConnection) async throws -> URL {
    // snippet healthvault-tutorial-provision
    // Creates this installation's application instance and returns the Shell page where the user authorizes it.
    let masterApplicationID = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!   // your app's id in HealthVault
    let shellPage = try await connection.provision(masterAppID: masterApplicationID)
    // end snippet
    return shellPage
}

func healthVaultTutorialComplete(connection: HealthVaultConnection, shellPage: URL) async throws {
    // snippet healthvault-tutorial-complete
    // Shows the Shell page and completes with the URL it ends on (…/application/complete?… or your action URL).
    // In an app: WebAuthenticationBrowser { window }, or a WKWebView (see "Records and the Shell").
    let browser = TerminalAuthorizationBrowser()
    let completion = try await connection.authorize(shellPage, with: browser)
    print(completion, try await connection.status())   // .connected from now on, across launches
    // end snippet
}

func healthVaultTutorialPeople(connection: HealthVaultConnection) async throws {
    // snippet healthvault-tutorial-people
    // Every page of the people who authorized the app; sessions are created and renewed as needed.
    for try await person in connection.authorizedPeople() {
        print(person.name, person.record.map(\.id))
    }
    // end snippet
}

func healthVaultTutorialWeights(connection: HealthVaultConnection) async throws {
    // snippet healthvault-tutorial-weights
    // Every weight in the selected record, newest first: the first response's full things, then the ones it listed
    // only by key, fetched in batches. An expired session is renewed and only the failed batch is sent again.
    let weightType = UUID(uuidString: "3d34d87e-7fc1-4153-800f-f56592cb0d17")!
    let weights = GetThings3.QueryGroup(filter: [.init(typeID: [weightType])], format: .init(section: [.core], xml: [""]))
    for try await batch in connection.things(weights) {
        for thing in batch.things { print(thing.thingID.id, thing.effDate ?? "", thing.dataXML?.text ?? "") }
        // Listed by the first response but changed or removed since: read them again by id if you need them.
        if !batch.unresolved.isEmpty { print("changed meanwhile:", batch.unresolved.map(\.id)) }
    }
    // end snippet
}

func healthVaultTutorialDisconnect(connection: HealthVaultConnection) async throws {
    // snippet healthvault-tutorial-disconnect
    // Releases every authorized record, then erases what was stored, even when the service cannot be reached.
    let disconnection = try await connection.disconnect()
    print(disconnection.unreleasedRecords.isEmpty ? "released everything" : "some records stay authorized")
    // end snippet
}
