import Foundation
import HealthSignInCore
import HealthSignInHealthVault

/// HealthVault SODA: provision this app instance, let the user authorize it in Shell, open a session, list people,
/// write and read a thing, and disconnect, releasing every record.
struct HealthVaultJourney {
    /// The Weight thing type.
    private static let weightType = UUID(uuidString: "3d34d87e-7fc1-4153-800f-f56592cb0d17")!
    let options: DemoOptions

    func run(_ steps: StepPrinter) async {
        steps.journey("HealthVault SODA")
        guard let master = options.masterApplicationID else {
            return say("  – skipped: set --healthvault-master-app (or --emulator)")
        }
        let policy = URLPolicy(allowsInsecureLoopback: options.allowsInsecureLoopback)
        let transport = DefaultHTTPTransport()
        let connection = HealthVaultConnection(
            configuration: .init(
                defaultPlatformURL: options.healthVaultPlatform, defaultShellURL: options.healthVaultShell,
                store: InMemoryCredentialStore(), instanceName: "HealthSignInDemo",
                client: .init(
                    transport: transport, urlPolicy: policy, envelope: .init(clientVersion: "HealthSignInDemo/1.0"))
            ))
        guard
            let shellPage = await steps.step(
                "provision",
                {
                    // The emulated user's account is in instance 2: the default Shell (instance 1's) bounces them.
                    if let emulator = options.emulator {
                        try await EmulatorControl.post(emulator, "healthvault", ["shell_instance": "2"])
                    }
                    let page = try await connection.provision(masterAppID: master)
                    return (page, "a child application was created; the user opens \(Redaction.url(page))")
                })
        else { return }
        guard
            await steps.step(
                "authorize",
                {
                    let completion = try await connection.authorize(
                        shellPage, with: options.shell.browser(transport: transport))
                    let instance = completion.instanceID.map { " on instance \($0)'s Shell" } ?? ""
                    return "Shell returned \(completion.target.rawValue)\(instance); authorized: "
                        + "\(try await connection.status())"
                })
        else { return }
        await steps.step("people") {
            var names: [String] = []
            for try await person in connection.authorizedPeople(pageSize: 2) { names.append(person.name) }
            return
                "\(names.count) authorized \(names.count == 1 ? "person" : "people"), read in pages of 2: \(names.joined(separator: ", "))"
        }
        await steps.step("record calls") {
            let written =
                #"<weight><when><date><y>2017</y><m>8</m><d>10</d></date></when><value><kg>81.6</kg></value></weight>"#
            let things = try await connection.withRecord { calls in
                let keys = try await calls.send { client, session, record in
                    let thing = PendingThing(typeID: Self.weightType, dataXML: try XMLFragment(wellFormed: written))
                    return try await client.putThings2(.init(thing: [thing]), recordID: record, session: session)
                }
                return try await calls.send { client, session, record in
                    let query = GetThings3.QueryGroup(
                        id: keys.thingID.map(\.id), format: .init(section: [.core], xml: [""]))
                    return try await client.getThings3(.init(group: [query]), recordID: record, session: session)
                }.group.flatMap(\.thing)
            }
            guard things.count == 1, things.first?.dataXML?.text == written else {
                throw DemoError("GetThings3 did not return the weight exactly as written: \(things)")
            }
            return "PutThings2 wrote a weight, GetThings3 read 1 back, its XML byte for byte"
        }
        await steps.step("disconnect") {
            let outcome = try await connection.disconnect()
            return
                "\(outcome.releasedRecords.count) record(s) released, \(outcome.unreleasedRecords.count) still authorized; "
                + "everything stored is erased: \(try await connection.status())"
        }
    }
}

/// A demo step could not go on.
struct DemoError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
