import Foundation
import HealthSignInCore

/// PutThings and GetThings: things kept per record, their data-xml exactly as received; updates by version stamp;
/// queries newest first, at most `max`, at most `max-full` (and the server's cap) in full and the rest as keys.
extension HealthVaultTestServer {
    typealias Thing = HealthVaultServerState.Thing

    func putThings(_ request: PlatformRequest) throws(Failure) -> HTTPResponseMessage {
        let application = try authenticatedSession(request)
        let record = try authorizedRecord(application, request.header)
        let elements = HealthVaultWire.all(request.info, "thing")
        guard !elements.isEmpty else { throw Failure(.invalidXML, "PutThings needs at least one thing") }
        var contents = try HealthVaultWire.dataXMLRegions(HealthVaultWire.region(request.body, "info") ?? [])
            .makeIterator()
        let created = HealthVaultWire.thingDate(now)
        var stored = state.current.things[record] ?? []
        var keys: [String] = []
        for element in elements {
            guard let type = HealthVaultWire.text(element, "type-id") else {
                throw Failure(.invalidXML, "a thing needs its type-id")
            }
            let data = element.child("data-xml") != nil ? contents.next() : nil
            let index: Int
            if let key = element.child("thing-id") {
                guard let found = stored.firstIndex(where: { $0.id == key.text }) else {
                    throw Failure(.invalidThing, "no such thing in this record")
                }
                guard key.attribute("version-stamp") == stored[found].stamp else {
                    throw Failure(.versionStampMismatch, "the version-stamp is not the latest")
                }
                index = found
            } else {
                stored.append(Thing(id: core.uuid(), stamp: "", type: type, created: created))
                index = stored.count - 1
            }
            stored[index].stamp = core.uuid()
            stored[index].type = type
            if let data { stored[index].data = data }
            keys.append("<thing-id version-stamp=\"\(stored[index].stamp)\">\(stored[index].id)</thing-id>")
        }
        // All things of one request are written together or not at all.
        state.withValue { $0.things[record] = stored }
        return HealthVaultWire.respond(info: keys.joined(), method: "PutThings")
    }

    func getThings(_ request: PlatformRequest) throws(Failure) -> HTTPResponseMessage {
        let application = try authenticatedSession(request)
        let record = try authorizedRecord(application, request.header)
        let groups = HealthVaultWire.all(request.info, "group")
        guard !groups.isEmpty else { throw Failure(.invalidXML, "GetThings needs at least one group") }
        let snapshot = state.current
        let stored = Array((snapshot.things[record] ?? []).reversed())
        var results: [String] = []
        for group in groups {
            results += try answer(group, stored: stored, settings: snapshot.settings)
        }
        return HealthVaultWire.respond(info: results.joined(), method: "GetThings", version: 3)
    }

    /// The group's answer (and, for an attacker's answer, a group of its own before it).
    private func answer(_ group: XMLElementView, stored: [Thing], settings: Settings) throws(Failure) -> [String] {
        guard let format = group.child("format") else { throw Failure(.missingFormat, "every group needs a format") }
        let ids = Set(HealthVaultWire.all(group, "id").map(\.text))
        let keyElements = HealthVaultWire.all(group, "key")
        guard keyElements.allSatisfy({ $0.attribute("version-stamp") != nil }) else {
            throw Failure(.invalidXML, "a key needs its version-stamp")
        }
        let keys = Set(keyElements.map { $0.text + "|" + ($0.attribute("version-stamp") ?? "") })
        let filters = HealthVaultWire.all(group, "filter")
        let types = filters.map { Set(HealthVaultWire.all($0, "type-id").map(\.text)) }
        func selected(_ thing: Thing) -> Bool {
            let byID = ids.contains(thing.id) || keys.contains(thing.id + "|" + thing.stamp)
            let byFilter = types.allSatisfy { $0.isEmpty || $0.contains(thing.type) }
            // The id and key clause is ORed with the filters; with neither, every thing matches.
            return ids.isEmpty && keys.isEmpty ? byFilter : byID || (!filters.isEmpty && byFilter)
        }
        var matches = stored.filter(selected)
        if let max = group.attribute("max") { matches = Array(matches.prefix(try HealthVaultWire.integer(max, "max"))) }
        var full = settings.maximumFullThings
        if let maxFull = group.attribute("max-full") {
            full = min(full, try HealthVaultWire.integer(maxFull, "max-full"))
        }
        let core = HealthVaultWire.all(format, "section").contains { $0.text == "core" }
        let withXML = format.child("xml") != nil
        var rendered = matches.prefix(max(full, 0)).map { Self.render($0, core: core, xml: withXML) }.joined()
        rendered += matches.dropFirst(max(full, 0)).map(Self.renderKey).joined()
        if settings.addsUnrequestedThing, !keys.isEmpty { rendered += Self.render(planted, core: core, xml: withXML) }
        let opening =
            group.attribute("name").map {
                "<group name=\"\(XMLText.escaped($0).replacingOccurrences(of: "\"", with: "&quot;"))\">"
            }
            ?? "<group>"
        var answers: [String] = []
        if settings.addsExtraGroup {
            answers.append(opening + Self.render(planted, core: core, xml: withXML) + "</group>")
        }
        answers.append(opening + rendered + "</group>")
        return answers
    }

    /// A weight that no record holds, for answers that carry what nobody asked for.
    private var planted: Thing {
        Thing(
            id: core.uuid(), stamp: core.uuid(),
            type: "3d34d87e-7fc1-4153-800f-f56592cb0d17", created: HealthVaultWire.thingDate(now),
            data: Array("<weight><value><kg>-1</kg></value></weight>".utf8))
    }

    private static func render(_ thing: Thing, core: Bool, xml: Bool) -> String {
        var parts =
            "<thing><thing-id version-stamp=\"\(thing.stamp)\">\(thing.id)</thing-id><type-id>\(thing.type)</type-id>"
        if core { parts += "<thing-state>Active</thing-state><flags>0</flags><eff-date>\(thing.created)</eff-date>" }
        if xml, let data = thing.data { parts += "<data-xml>" + String(decoding: data, as: UTF8.self) + "</data-xml>" }
        return parts + "</thing>"
    }

    private static func renderKey(_ thing: Thing) -> String {
        "<unprocessed-thing-key-info><thing-id version-stamp=\"\(thing.stamp)\">\(thing.id)</thing-id>"
            + "<type-id>\(thing.type)</type-id><eff-date>\(thing.created)</eff-date></unprocessed-thing-key-info>"
    }
}
