import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInKoppeltaal2
import XCTest

/// Editing any Koppeltaal 2.0 resource keeps what the model does not name: another application's members survive a
/// change to one member, on every resource type.
final class ResourceEditTests: XCTestCase {
    /// A member no model names, written by another application, nested to show it is kept whole. (Its members are in
    /// key order and its numbers in shortest form: the encoder writes foreign members so.)
    private let foreign = #""x-other-vendor": {"notes": ["kept", 1.5], "score": 7}"#

    private func document(_ members: String) -> Data {
        Data(("{" + members + ", " + foreign + ", \"id\": \"r1\", \"meta\": {\"versionId\": \"2\"}}").utf8)
    }

    /// Decodes `members`, sets a member the protocol names and one of the type's own, and checks that the JSON
    /// sent back still carries the foreign member and the edits.
    private func assertEditKeepsForeignMembers<Resource: KT2FHIRResource>(
        _ type: Resource.Type, _ members: String, edit: (inout Resource) -> Void, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        var resource = try JSONCoding.decode(type, from: document(members))
        resource.id = "r2"
        resource.extension.append(KT2Extension(url: "http://module.example/flag", valueBoolean: true))
        edit(&resource)
        let sent = try JSONValue.parse(try JSONCoding.encode(resource))
        XCTAssertEqual(
            sent["x-other-vendor"], try JSONValue.parse(Data(#"{"notes": ["kept", 1.5], "score": 7}"#.utf8)),
            "\(type)", file: file, line: line)
        XCTAssertEqual(sent["id"], "r2", "\(type)", file: file, line: line)
        XCTAssertEqual(sent["meta"]?["versionId"], "2", "\(type)", file: file, line: line)
        XCTAssertEqual(sent["resourceType"]?.stringValue, Resource.resourceType, file: file, line: line)
        XCTAssertEqual(
            try JSONCoding.decode(type, from: try JSONCoding.encode(resource)), resource, file: file, line: line)
    }

    func testAnEditOfEveryResourceTypeKeepsTheMembersItsModelDoesNotName() throws {
        let reference = #"{"reference": "Patient/p1"}"#
        try assertEditKeepsForeignMembers(
            KT2Task.self,
            #""resourceType": "Task", "identifier": [{"value": "t"}], "status": "ready", "intent": "order", "for": "#
                + reference + #", "owner": "# + reference
        ) { $0.status = .inProgress }
        try assertEditKeepsForeignMembers(
            KT2ActivityDefinition.self,
            #""resourceType": "ActivityDefinition", "url": "https://a.example/ad", "title": "A", "status": "active""#
        ) { $0.title = "B" }
        try assertEditKeepsForeignMembers(
            KT2Endpoint.self,
            #""resourceType": "Endpoint", "status": "active", "connectionType": {"code": "hti-smart-on-fhir"}, "#
                + #""payloadType": [{"text": "any"}], "address": "https://module.example/launch""#
        ) { $0.address = "https://module.example/launch2" }
        try assertEditKeepsForeignMembers(
            KT2Device.self, #""resourceType": "Device", "identifier": [{"value": "d"}], "status": "active""#
        ) { $0.identifier.append(KT2Identifier(value: "e")) }
        try assertEditKeepsForeignMembers(KT2Patient.self, #""resourceType": "Patient""#) {
            $0.identifier.append(KT2Identifier(value: "p"))
        }
        try assertEditKeepsForeignMembers(KT2Practitioner.self, #""resourceType": "Practitioner""#) {
            $0.identifier.append(KT2Identifier(value: "p"))
        }
        try assertEditKeepsForeignMembers(
            KT2RelatedPerson.self, #""resourceType": "RelatedPerson", "patient": "# + reference
        ) { $0.patient = KT2Reference(reference: "Patient/p2") }
        try assertEditKeepsForeignMembers(KT2CareTeam.self, #""resourceType": "CareTeam""#) { $0.meta = $0.meta }
        try assertEditKeepsForeignMembers(
            KT2Subscription.self,
            #""resourceType": "Subscription", "status": "requested", "reason": "r", "criteria": "Task?status=ready", "#
                + #""channel": {"type": "rest-hook"}"#
        ) { $0.reason = "changed" }
        try assertEditKeepsForeignMembers(
            KT2AuditEvent.self,
            #""resourceType": "AuditEvent", "type": {"code": "110100"}, "recorded": "2026-11-29T12:00:00Z", "#
                + #""agent": [{"requestor": false}], "source": {}"#
        ) { $0.recorded = "2026-11-29T12:00:01Z" }
    }
}
