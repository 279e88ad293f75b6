// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInHealthVault
import HealthSignInCore

// The code of the README's HealthVault quick start and of the HealthVault getting-started article. Each region between
// `// snippet NAME` and `// end snippet` appears verbatim in the documentation, after this file's imports.

func healthVaultQuickStart() async throws {
    // snippet healthvault-quick-start
    let masterApplicationID = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!   // your app's id in HealthVault
    let browser = TerminalAuthorizationBrowser()   // in an app: WebAuthenticationBrowser { window }, or a web view
    let connection = HealthVaultConnection(configuration: .init(store: try CredentialStores.secure(service: "com.example.healthvault")))
    let shellPage = try await connection.provision(masterAppID: masterApplicationID)
    try await connection.authorize(shellPage, with: browser)   // the user picks the records in HealthVault's Shell
    for try await person in connection.authorizedPeople() {
        print(person.name, person.record.map(\.id))
    }
    // end snippet
}

// snippet healthvault-getting-started
/// What the app's user interface does; this article leaves it to the app.
protocol HealthVaultScreens {
    /// Shows `page` in a web view and returns the URL it ends on (`…/application/complete?…`).
    func showShell(_ page: URL) async throws -> URL
    func show(people: [PersonInfo])
}

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
func healthVaultRecordCalls() async throws {
    // snippet healthvault-records
    let connection = HealthVaultConnection(configuration: .init(store: try CredentialStores.secure(service: "com.example.healthvault")))
    let weightXML = "<weight><when><date><y>2026</y><m>11</m><d>26</d></date></when><value><kg>70.5</kg></value></weight>"
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
