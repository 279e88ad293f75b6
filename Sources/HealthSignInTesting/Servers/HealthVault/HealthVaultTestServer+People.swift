import Foundation
import HealthSignInCore

/// GetAuthorizedPeople, GetPersonInfo and RemoveApplicationRecordAuthorization, and the rules on the offline person
/// and the record a signed request names.
extension HealthVaultTestServer {
    /// The request's offline person, which must be one the application is still authorized for.
    func offlinePerson(_ application: String, _ header: XMLElementView) throws(Failure) -> String? {
        guard let person = HealthVaultWire.text(header, "auth-session/offline-person-info/offline-person-id") else {
            return nil
        }
        guard state.current.people(of: application).contains(where: { $0.id == person }) else {
            throw Failure(.invalidPerson, "the offline person is not authorized for this application")
        }
        return person
    }

    /// The record-id of a record-scoped request, which the application and its offline person must be authorized
    /// for.
    func authorizedRecord(_ application: String, _ header: XMLElementView) throws(Failure) -> String {
        guard let record = HealthVaultWire.text(header, "record-id") else {
            throw Failure(.invalidXML, "record-scoped methods carry record-id")
        }
        let snapshot = state.current
        guard snapshot.people().contains(where: { $0.record == record }) else {
            throw Failure(.invalidRecord, "no such record")
        }
        let owners = snapshot.people(of: application).filter { $0.record == record }.map(\.id)
        guard !owners.isEmpty else { throw Failure(.accessDenied, "the application is not authorized for this record") }
        guard let person = try offlinePerson(application, header), owners.contains(person) else {
            throw Failure(.accessDenied, "the offline person has no access to this record")
        }
        return record
    }

    /// A person-info element with the given records.
    private static func personInfo(_ person: HealthVaultServerState.Person, records: [String]) -> String {
        let items = records.map { record in
            "<record id=\"\(record)\" record-custodian=\"true\" rel-type=\"1\" rel-name=\"Self\" state=\"Active\" "
                + "auth-expires=\"9999-12-31T23:59:59.999Z\" date-created=\"2016-07-12T22:14:36.69Z\" "
                + "max-size-bytes=\"4294967296\" size-bytes=\"1024\" app-record-auth-action=\"NoActionRequired\">"
                + XMLText.escaped(person.name) + "</record>"
        }.joined()
        return "<person-info><person-id>\(person.id)</person-id><name>\(XMLText.escaped(person.name))</name>"
            + items + "</person-info>"
    }

    func authorizedPeople(_ request: PlatformRequest) throws(Failure) -> HTTPResponseMessage {
        let application = try authenticatedSession(request)
        _ = try offlinePerson(application, request.header)
        let snapshot = state.current
        let cursor = HealthVaultWire.text(request.info, "parameters/person-id-cursor")
        let requestedSize = HealthVaultWire.text(request.info, "parameters/num-results")
        let size =
            try requestedSize.map { text throws(Failure) in try HealthVaultWire.integer(text, "num-results") }
            ?? snapshot.settings.pageSize
        let people = snapshot.people(of: application)
        var start = 0
        if let cursor { start = people.firstIndex { $0.id == cursor }.map { $0 + 1 } ?? people.count }
        let page = people.dropFirst(start).prefix(max(size, 0))
        let more = start + size < people.count
        let results = page.map { Self.personInfo($0, records: [$0.record]) }.joined()
        return HealthVaultWire.respond(
            info: "<response-results>\(results)<more-results>\(more)</more-results></response-results>",
            method: "GetAuthorizedPeople")
    }

    func personInfo(_ request: PlatformRequest) throws(Failure) -> HTTPResponseMessage {
        let application = try authenticatedSession(request)
        let person = try offlinePerson(application, request.header)
        let people = state.current.people(of: application)
        guard let first = people.first else {
            throw Failure(.accessDenied, "the application is not authorized for anyone")
        }
        let chosen = people.filter { $0.id == (person ?? first.id) }
        guard let shown = chosen.first else { throw Failure(.invalidPerson, "no such person") }
        return HealthVaultWire.respond(
            info: Self.personInfo(shown, records: chosen.map(\.record)), method: "GetPersonInfo")
    }

    func removeAuthorization(_ request: PlatformRequest) throws(Failure) -> HTTPResponseMessage {
        let application = try authenticatedSession(request)
        let record: String
        do throws(Failure) {
            record = try authorizedRecord(application, request.header)
        } catch {
            let asked = HealthVaultWire.text(request.header, "record-id")
            if error.status == .accessDenied,
                !state.current.people(of: application).contains(where: { $0.record == asked })
            {
                throw Failure(.authorizationDoesNotExist, "the application is not authorized for this record")
            }
            throw error
        }
        state.withValue { $0.released.append((application, record)) }
        return HealthVaultWire.respond()
    }
}
