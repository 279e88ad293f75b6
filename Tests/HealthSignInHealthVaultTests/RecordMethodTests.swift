import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// The record-scoped methods (GetPersonInfo, GetThings3, PutThings2, RemoveApplicationRecordAuthorization) against
/// the vectors of protocols/healthvault.md §11.7 (R8, R10–R12, and R6 for GetPersonInfo): the exact `<info>`, its
/// info-hash, and the hmac-data over the header with `record-id` and `offline-person-id`; and their responses.
final class RecordMethodTests: XCTestCase {
    static let session = HealthVaultSessionCredential(
        token: "ASAAAHVzlWa6ExampleSessionTokenForTestVectorsOnly0123456789abcdef==",
        sharedSecret: "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
        personID: UUID(uuidString: "cc5e5771-4da7-4961-a758-d7714223d9ab")!
    )
    static let record = UUID(uuidString: "9c863988-e2aa-440e-8c11-7ba4750ba4c8")!
    static let weight = UUID(uuidString: "3d34d87e-7fc1-4153-800f-f56592cb0d17")!

    /// A client frozen at the vectors' time whose transport answers with `response`.
    private func client(answering response: String) -> (HealthVaultAPIClient, RecordingTransport) {
        let transport = RecordingTransport { _ in
            HTTPResponseMessage(status: 200, headers: ["Content-Type": "text/xml"], body: Data(response.utf8))
        }
        let configuration = HealthVaultAPIClient.Configuration(
            transport: transport, clock: ManualClock(Date(timeIntervalSince1970: 1_502_368_496)),
            envelope: .init(clientVersion: "HV-Swift/1.0.0 iOS 17.0")
        )
        return (HealthVaultAPIClient(configuration: configuration), transport)
    }

    private static func ok(_ namespace: String, _ info: String) -> String {
        #"<response><status><code>0</code></status><wc:info xmlns:wc="urn:com.microsoft.wc.methods.response.\#(namespace)">\#(info)</wc:info></response>"#
    }

    /// Checks the request `transport` sent: its `<info>`, info-hash, hmac-data and header.
    private func assertSent(
        _ transport: RecordingTransport, info: String, infoHash: String, hmac: String, header: String,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let body = String(decoding: try XCTUnwrap(transport.requests.last?.body, file: file, line: line), as: UTF8.self)
        XCTAssertTrue(body.hasSuffix(info + "</wc-request:request>"), "info:\n\(body)", file: file, line: line)
        XCTAssertTrue(
            body.contains(#"<info-hash><hash-data algName="SHA256">\#(infoHash)</hash-data></info-hash>"#), body,
            file: file, line: line)
        XCTAssertTrue(
            body.contains(#"<hmac-data algName="HMACSHA256">\#(hmac)</hmac-data>"#), body, file: file, line: line)
        XCTAssertTrue(body.contains(header), "header:\n\(body)", file: file, line: line)
    }

    private static let recordHeader =
        "<record-id>9c863988-e2aa-440e-8c11-7ba4750ba4c8</record-id><auth-session>"
        + "<auth-token>ASAAAHVzlWa6ExampleSessionTokenForTestVectorsOnly0123456789abcdef==</auth-token>"
        + "<offline-person-info><offline-person-id>cc5e5771-4da7-4961-a758-d7714223d9ab</offline-person-id></offline-person-info>"
        + "</auth-session>"

    func testR8GetThingsFirstPage() async throws {
        let (client, transport) = client(answering: Self.ok("GetThings3", #"<group name="weight" />"#))
        let request = GetThings3.Request(group: [
            .init(
                name: "weight", maxFull: 2,
                filter: [
                    .init(
                        typeID: [Self.weight], thingState: [.active],
                        effDateMin: Date(timeIntervalSince1970: 1_483_228_800))
                ],
                format: .init(section: [.core, .audits], xml: [""], typeVersionFormat: [Self.weight])
            )
        ])
        let response = try await client.getThings3(request, recordID: Self.record, session: Self.session)
        XCTAssertEqual(response.group.first?.name, "weight")
        try assertSent(
            transport,
            info:
                #"<info><group name="weight" max-full="2"><filter><type-id>3d34d87e-7fc1-4153-800f-f56592cb0d17</type-id><thing-state>Active</thing-state><eff-date-min>2017-01-01T00:00:00.000Z</eff-date-min></filter><format><section>core</section><section>audits</section><xml /><type-version-format>3d34d87e-7fc1-4153-800f-f56592cb0d17</type-version-format></format></group></info>"#,
            infoHash: "hJKlE8K3dJZkWLb3BXjoSjTqNvouAIGuosGScMgdNuY=",
            hmac: "P0SowY84P2Bi72jKjQJ2g30AYmaDH8N+QbWIRbSiLTk=",
            header: "<method>GetThings</method><method-version>3</method-version>" + Self.recordHeader
        )
    }

    func testR10PutThingsCreatesAWeightWithItsXMLAsGiven() async throws {
        let answer =
            #"<thing-id version-stamp="b81c5e3f-2a7d-4c69-8e10-5d4f3a2b1c09">4f0e2d6a-9c1b-4e57-a3d8-6b2f90c1e7a4</thing-id>"#
        let (client, transport) = client(answering: Self.ok("PutThings", answer))
        let data = try XMLFragment(
            wellFormed:
                #"<weight><when><date><y>2017</y><m>8</m><d>10</d></date><time><h>7</h><m>30</m><s>0</s></time></when><value><kg>81.6466266</kg><display units="lb">180</display></value></weight><common />"#
        )
        let request = PutThings2.Request(thing: [
            .init(typeID: Self.weight, thingState: .active, flags: 0, dataXML: data)
        ])
        let response = try await client.putThings2(request, recordID: Self.record, session: Self.session)
        XCTAssertEqual(response.thingID.first?.id, UUID(uuidString: "4f0e2d6a-9c1b-4e57-a3d8-6b2f90c1e7a4"))
        XCTAssertEqual(response.thingID.first?.versionStamp, UUID(uuidString: "b81c5e3f-2a7d-4c69-8e10-5d4f3a2b1c09"))
        try assertSent(
            transport,
            info:
                #"<info><thing><type-id>3d34d87e-7fc1-4153-800f-f56592cb0d17</type-id><thing-state>Active</thing-state><flags>0</flags><data-xml><weight><when><date><y>2017</y><m>8</m><d>10</d></date><time><h>7</h><m>30</m><s>0</s></time></when><value><kg>81.6466266</kg><display units="lb">180</display></value></weight><common /></data-xml></thing></info>"#,
            infoHash: "s75a9BwhXyqpq/bMPYhl7FB9YLviD+tnGBx9Fa+BLi8=",
            hmac: "HkZPpDiiQNJVCdHWQUU+1pUf7+btuAfl9j0kdwb4Pww=",
            header: "<method>PutThings</method><method-version>2</method-version>" + Self.recordHeader
        )
    }

    func testR10SpellingsOfTheSameXMLAreHashedAsSent() async throws {
        // §11.7: `<common/>` and `units='lb'` change the info-hash; the SDK must send and hash them unchanged.
        let spellings = [
            (#"<common/>"#, "NMxcBokbSG8WLD/bAFqDQHE2SubR7zTtcpJM5IcNY9A="),
            (#"<common />"#, "s75a9BwhXyqpq/bMPYhl7FB9YLviD+tnGBx9Fa+BLi8="),
        ]
        for (common, hash) in spellings {
            let (client, transport) = client(answering: Self.ok("PutThings", ""))
            let data = try XMLFragment(
                wellFormed:
                    #"<weight><when><date><y>2017</y><m>8</m><d>10</d></date><time><h>7</h><m>30</m><s>0</s></time></when><value><kg>81.6466266</kg><display units="lb">180</display></value></weight>"#
                    + common)
            _ = try await client.putThings2(
                .init(thing: [.init(typeID: Self.weight, thingState: .active, flags: 0, dataXML: data)]),
                recordID: Self.record, session: Self.session)
            let body = String(decoding: try XCTUnwrap(transport.requests.last?.body), as: UTF8.self)
            XCTAssertTrue(body.contains(hash), common)
        }
    }

    func testR11PutThingsUpdatesWithTheVersionStamp() async throws {
        let (client, transport) = client(answering: Self.ok("PutThings", ""))
        let key = ThingKey(
            versionStamp: UUID(uuidString: "72161432-13aa-4a34-b969-92a83527ffb3"),
            id: UUID(uuidString: "26a4598d-7db2-4d96-85bc-3e3dca5dce4b")!)
        let data = try XMLFragment(
            wellFormed:
                #"<weight><when><date><y>2017</y><m>8</m><d>9</d></date><time><h>7</h><m>15</m><s>0</s></time></when><value><kg>81.1930342</kg><display units="lb">179</display></value></weight><common><note>corrected</note></common>"#
        )
        _ = try await client.putThings2(
            .init(thing: [.init(thingID: key, typeID: Self.weight, thingState: .active, flags: 0, dataXML: data)]),
            recordID: Self.record, session: Self.session)
        try assertSent(
            transport,
            info:
                #"<info><thing><thing-id version-stamp="72161432-13aa-4a34-b969-92a83527ffb3">26a4598d-7db2-4d96-85bc-3e3dca5dce4b</thing-id><type-id>3d34d87e-7fc1-4153-800f-f56592cb0d17</type-id><thing-state>Active</thing-state><flags>0</flags><data-xml>"#
                + data.text + "</data-xml></thing></info>",
            infoHash: "fLHZvKyOEITn/nK1aPwUZVyGeU4nUN18oMvlZtQgt2w=",
            hmac: "+00mmS6TiDkffOIYJg9cFDwj7V4gRnrz8LGQ2DRYiek=",
            header: "<method>PutThings</method><method-version>2</method-version>" + Self.recordHeader
        )
    }

    func testR12RemoveApplicationRecordAuthorization() async throws {
        let (client, transport) = client(answering: "<response><status><code>0</code></status></response>")
        try await client.removeApplicationRecordAuthorization(recordID: Self.record, session: Self.session)
        try assertSent(
            transport, info: "<info />", infoHash: "ZbR1gwo184c/YSTAFOCI3/p39GNdgAzv8BcW6yK9Ubg=",
            hmac: "/Y2bNPOvWY264WM2eSYijALftf6LQ7Dcpz2ybKrZ8c4=",
            header: "<method>RemoveApplicationRecordAuthorization</method><method-version>1</method-version>"
                + Self.recordHeader
        )
    }

    func testR6GetPersonInfoSendsNoRecordAndReadsThePerson() async throws {
        let person =
            #"<person-info><person-id>cc5e5771-4da7-4961-a758-d7714223d9ab</person-id><name>Jane Doe</name><selected-record-id>9c863988-e2aa-440e-8c11-7ba4750ba4c8</selected-record-id><record id="9c863988-e2aa-440e-8c11-7ba4750ba4c8" record-custodian="true" rel-type="1" rel-name="Self" display-name="Jane" state="Active">Jane Doe</record></person-info>"#
        let (client, transport) = client(answering: Self.ok("GetPersonInfo", person))
        let response = try await client.getPersonInfo(session: Self.session)
        XCTAssertEqual(response.personInfo.name, "Jane Doe")
        XCTAssertEqual(response.personInfo.record.first?.id, Self.record)
        let body = String(decoding: try XCTUnwrap(transport.requests.last?.body), as: UTF8.self)
        XCTAssertTrue(body.hasSuffix("<info /></wc-request:request>"), body)
        XCTAssertFalse(body.contains("<record-id>"), "GetPersonInfo names no record")
        XCTAssertTrue(body.contains("<offline-person-id>cc5e5771-4da7-4961-a758-d7714223d9ab</offline-person-id>"))
    }

    func testAThingsDataXMLIsReadExactlyAsStored() async throws {
        let stored =
            "\n  <weight><when><date><y>2017</y><m>8</m><d>9</d></date></when><value><kg>81.2</kg><display units='lb'>179</display></value></weight><common><note><![CDATA[a < b]]></note></common>\n"
        let group =
            #"<group name="weight"><thing><thing-id version-stamp="72161432-13aa-4a34-b969-92a83527ffb3">26a4598d-7db2-4d96-85bc-3e3dca5dce4b</thing-id><type-id name="Weight">3d34d87e-7fc1-4153-800f-f56592cb0d17</type-id><thing-state>Active</thing-state><flags>0</flags><eff-date>2017-08-09T07:15:00</eff-date><data-xml>"#
            + stored
            + #"</data-xml></thing><unprocessed-thing-key-info><thing-id version-stamp="7c345b6b-5072-4aca-a454-5aa7148982cf">373c0743-2a7c-4d0c-967c-f6bdccb6a75d</thing-id></unprocessed-thing-key-info></group>"#
        let (reader, _) = client(answering: Self.ok("GetThings3", group))
        let request = GetThings3.Request(group: [.init(name: "weight", format: .init(section: [.core], xml: [""]))])
        let response = try await reader.getThings3(request, recordID: Self.record, session: Self.session)
        let thing = try XCTUnwrap(response.group.first?.thing.first)
        XCTAssertEqual(thing.dataXML?.text, stored, "byte for byte")
        XCTAssertEqual(thing.typeID.name, "Weight")
        XCTAssertEqual(thing.effDate, "2017-08-09T07:15:00")
        XCTAssertEqual(
            response.group.first?.unprocessedThingKeyInfo.first?.thingID.id,
            UUID(uuidString: "373c0743-2a7c-4d0c-967c-f6bdccb6a75d"))
        // Written back into a PutThings2 request unchanged.
        let (writer, transport) = client(answering: Self.ok("PutThings", ""))
        _ = try await writer.putThings2(
            .init(thing: [.init(thingID: thing.thingID, typeID: thing.typeID.id, dataXML: thing.dataXML)]),
            recordID: Self.record, session: Self.session)
        let body = String(decoding: try XCTUnwrap(transport.requests.last?.body), as: UTF8.self)
        XCTAssertTrue(body.contains("<data-xml>" + stored + "</data-xml>"))
    }

    func testInvalidRequestsAreRefusedUnsent() async throws {
        let (client, transport) = client(answering: Self.ok("PutThings", ""))
        await XCTAssertThrowsErrorAsync(
            try await client.putThings2(.init(thing: []), recordID: Self.record, session: Self.session)
        ) {
            XCTAssertEqual(($0 as? SchemaValidationError)?.path, "/thing")
        }
        let xpath = GetThings3.Request(group: [.init(filter: [.init(xpath: "//weight")], format: .init())])
        await XCTAssertThrowsErrorAsync(
            try await client.getThings3(xpath, recordID: Self.record, session: Self.session)
        ) {
            XCTAssertEqual(($0 as? SchemaValidationError)?.path, "/group/0/filter/0/xpath")
        }
        XCTAssertEqual(transport.requests.count, 0)
    }
}
