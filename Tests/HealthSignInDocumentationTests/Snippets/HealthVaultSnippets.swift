// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInHealthVault
import HealthSignInCore

// The code of the README's HealthVault quick start and of the HealthVault getting-started article. Each region between
// `// snippet NAME` and `// end snippet` appears verbatim in the documentation, after this file's imports.

func healthVaultQuickStart(masterApplicationID: UUID, completionURL: URL) async throws {
    // snippet healthvault-quick-start
    let connection = HealthVaultConnection(configuration: .init(store: try CredentialStores.secure(service: "com.example.healthvault")))
    let shellPage = try await connection.provision(masterAppID: masterApplicationID)   // open in a web view
    // when the web view reaches …/application/complete?…:
    try await connection.completeAuthorization(redirect: completionURL)
    for try await person in connection.authorizedPeople() {
        print(person.name, person.record.map(\.id))
    }
    // end snippet
    _ = shellPage
}

/// What the app's user interface does; the getting-started article leaves it to the app.
protocol HealthVaultScreens {
    /// Shows `page` in a web view and returns the URL it ends on (`…/application/complete?…`).
    func showShell(_ page: URL) async throws -> URL
    func show(people: [PersonInfo])
}

// snippet healthvault-getting-started
/// Connects this app instance to HealthVault once, then reads the people who authorized it.
func connectAndListPeople(masterApplicationID: UUID, screens: some HealthVaultScreens) async throws {
    let connection = HealthVaultConnection(configuration: .init(
        store: try CredentialStores.secure(service: "com.example.healthvault"),
        instanceName: "My iPhone"
    ))
    switch try await connection.status() {
    case .notProvisioned:
        let page = try await connection.provision(masterAppID: masterApplicationID)
        try await connection.completeAuthorization(redirect: try await screens.showShell(page))
    case .awaitingAuthorization(let page):
        try await connection.completeAuthorization(redirect: try await screens.showShell(page))
    case .connected:
        break
    }
    do {
        var people: [PersonInfo] = []
        for try await person in connection.authorizedPeople(pageSize: 50) { people.append(person) }
        screens.show(people: people)
    } catch HealthVaultConnectionError.reauthorizationRequired(let page, _) {
        // The user withdrew the app's access: ask again, then try once more.
        try await connection.completeAuthorization(redirect: try await screens.showShell(page))
    } catch HealthVaultConnectionError.reprovisionRequired {
        // The app instance was removed in HealthVault: start over.
        try await connection.disconnect(releasingRecords: false)
    }
}
// end snippet

/// Writes a weight to the selected record and reads it back, then disconnects.
func healthVaultRecordCalls(connection: HealthVaultConnection, weightXML: String) async throws {
    // snippet healthvault-records
    let weightType = UUID(uuidString: "3d34d87e-7fc1-4153-800f-f56592cb0d17")!
    let stored = try await connection.withRecord { calls in
        // Each send is one request; after an expired session only that request is sent again.
        let keys = try await calls.send { client, session, record in
            let thing = PendingThing(typeID: weightType, dataXML: try XMLFragment(wellFormed: weightXML))
            return try await client.putThings2(.init(thing: [thing]), recordID: record, session: session)
        }
        return try await calls.send { client, session, record in
            let query = GetThings3.QueryGroup(id: keys.thingID.map(\.id), format: .init(section: [.core], xml: [""]))
            return try await client.getThings3(.init(group: [query]), recordID: record, session: session)
        }
    }
    print(stored.group.first?.thing.first?.dataXML?.text ?? "")   // the XML exactly as written

    let disconnection = try await connection.disconnect()
    for unreleased in disconnection.unreleasedRecords {
        print("still authorized: \(unreleased.record.id) (\(unreleased.error))")
    }
    // end snippet
}
