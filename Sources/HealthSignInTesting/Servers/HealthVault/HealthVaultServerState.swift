import Foundation
import HealthSignInCore

/// What the HealthVault test server remembers: master applications, the app instances created under them, their
/// sessions, the things of every record, the authorizations released, and the Shell pages waiting for the user.
struct HealthVaultServerState: Sendable {
    struct Application: Sendable {
        let master: String
        let secret: [UInt8]
        let creationToken: String
        /// The instance the user authorized it in, nil until then.
        var instance: String?
        var revoked = false
    }

    struct Session: Sendable {
        let application: String
        let secret: [UInt8]
        let instance: String
        let created: Date
        var expired = false
    }

    struct Thing: Sendable {
        let id: String
        var stamp: String
        var type: String
        let created: String
        var data: [UInt8]?
    }

    /// A Shell page the user has not answered yet.
    struct ShellTask: Sendable {
        let target: String
        let parameters: [String: String]
        /// The application it is for: the child created under the master, or the one named.
        let application: String
        /// The instance whose Shell showed the page, which holds the user's account.
        let instance: String
    }

    /// A person who authorized applications, with their one record.
    struct Person: Sendable {
        let id: String
        let name: String
        let record: String
    }

    var settings = HealthVaultTestServer.Settings()
    var masters: Set<String> = [HealthVaultTestServer.masterApplicationID.uuidString.lowercased()]
    var applications: [String: Application] = [:]
    /// Creation token → child application id, until the Shell uses it.
    var creationTokens: [String: String] = [:]
    var sessions: [String: Session] = [:]
    /// Record id → things, oldest first.
    var things: [String: [Thing]] = [:]
    /// (application, record) for every released authorization, in order.
    var released: [(application: String, record: String)] = []
    var shellTasks: [String: ShellTask] = [:]

    /// Every person; with an application, only those whose record it is still authorized for.
    func people(of application: String? = nil) -> [Person] {
        let released = Set(self.released.filter { $0.application == application }.map(\.record))
        return (0..<max(settings.people, 0)).compactMap { index in
            let person = Person(
                id: TestServerNames.namedUUID("healthvault-person-\(index)"), name: "Person \(index) & Co",
                record: TestServerNames.namedUUID("healthvault-record-\(index)"))
            return application == nil || !released.contains(person.record) ? person : nil
        }
    }
}
