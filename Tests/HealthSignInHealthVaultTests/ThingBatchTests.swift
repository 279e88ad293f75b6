import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// Reading every thing of a query: the first page of vector R8 lists two things by key, and the follow-up request
/// that fetches them is vector R9 byte for byte (protocols/healthvault.md §11.3.6, §11.7).
final class ThingBatchTests: XCTestCase {
    private static let weight = UUID(uuidString: "3d34d87e-7fc1-4153-800f-f56592cb0d17")!
    /// The R8 query: group `weight`, two full things at most, Weight things since 2017, core and audits, raw XML.
    private static let query = GetThings3.QueryGroup(
        name: "weight", maxFull: 2,
        filter: [
            .init(typeID: [weight], thingState: [.active], effDateMin: Date(timeIntervalSince1970: 1_483_228_800))
        ],
        format: .init(section: [.core, .audits], xml: [""], typeVersionFormat: [weight]))

    private static func thing(_ id: String, stamp: String, kg: String) -> String {
        #"<thing><thing-id version-stamp="\#(stamp)">\#(id)</thing-id><type-id name="Weight">3d34d87e-7fc1-4153-800f-f56592cb0d17</type-id><thing-state>Active</thing-state><flags>0</flags><eff-date>2017-08-09T07:15:00</eff-date><data-xml><weight><value><kg>\#(kg)</kg></value></weight><common /></data-xml></thing>"#
    }

    private static func key(_ id: String, stamp: String) -> String {
        #"<unprocessed-thing-key-info><thing-id version-stamp="\#(stamp)">\#(id)</thing-id><type-id name="Weight">3d34d87e-7fc1-4153-800f-f56592cb0d17</type-id><eff-date>2017-07-26T07:05:00</eff-date></unprocessed-thing-key-info>"#
    }

    private static func response(_ group: String) -> HTTPResponseMessage {
        HTTPResponseMessage(
            status: 200, headers: ["Content-Type": "text/xml"],
            body: Data(
                (#"<response><status><code>0</code></status><wc:info xmlns:wc="urn:com.microsoft.wc.methods.response.GetThings3"><group name="weight">"#
                    + group + "</group></wc:info></response>").utf8))
    }

    private static let firstPage = response(
        thing("26a4598d-7db2-4d96-85bc-3e3dca5dce4b", stamp: "72161432-13aa-4a34-b969-92a83527ffb3", kg: "81.8280635")
            + thing(
                "829adb77-22de-48e8-8017-e6e5acf0dd3e", stamp: "212eaf83-0396-4f4f-b8e1-1099f8c091ef", kg: "82.100219")
            + key("373c0743-2a7c-4d0c-967c-f6bdccb6a75d", stamp: "7c345b6b-5072-4aca-a454-5aa7148982cf")
            + key("a73685c8-9e08-499b-99c5-abed52aea730", stamp: "6672961b-3715-4b52-8426-6671841cc430"))

    func testAFollowUpKeepsTheFormatTheVersionChoiceAndTheOrder() throws {
        let order = GetThings3.OrderBy(
            orderByProperty: .init(typeID: Self.weight, propertyName: "when", direction: .asc))
        let query = GetThings3.QueryGroup(
            name: "weight", max: 10, maxFull: 2, filter: Self.query.filter, format: Self.query.format,
            currentVersionOnly: false, orderBy: order)
        let key = ThingKey(versionStamp: UUID(), id: UUID())
        XCTAssertEqual(
            query.followUp(fetching: [key]),
            GetThings3.QueryGroup(
                name: "weight", key: [key], format: Self.query.format, currentVersionOnly: false, orderBy: order))
    }

    /// The things `query` finds through a client at the vectors' time whose transport answers with `responses`.
    private func batches(answering responses: [HTTPResponseMessage]) -> (HealthVaultThingBatches, RecordingTransport) {
        let transport = RecordingTransport(responses: responses)
        let client = HealthVaultAPIClient(
            configuration: .init(
                transport: transport, clock: ManualClock(Date(timeIntervalSince1970: 1_502_368_496)),
                envelope: .init(clientVersion: "HV-Swift/1.0.0 iOS 17.0")))
        let batches = HealthVaultThingBatches(query: Self.query) { group in
            try await client.getThings3(
                .init(group: [group]), recordID: RecordMethodTests.record, session: RecordMethodTests.session
            ).group[0]
        }
        return (batches, transport)
    }

    func testTheKeysOfTheFirstPageAreFetchedWithVectorR9() async throws {
        let (batches, transport) = batches(answering: [
            Self.firstPage,
            Self.response(
                Self.thing(
                    "373c0743-2a7c-4d0c-967c-f6bdccb6a75d", stamp: "7c345b6b-5072-4aca-a454-5aa7148982cf",
                    kg: "82.5538113")
                    + Self.thing(
                        "a73685c8-9e08-499b-99c5-abed52aea730", stamp: "6672961b-3715-4b52-8426-6671841cc430",
                        kg: "83.0074037")),
        ])
        var read: [HealthVaultThingBatch] = []
        for try await batch in batches { read.append(batch) }

        XCTAssertEqual(read.map(\.things.count), [2, 2])
        XCTAssertEqual(read.flatMap(\.unresolved), [])
        XCTAssertEqual(
            read.flatMap(\.things).map(\.thingID.id.wireText),
            [
                "26a4598d-7db2-4d96-85bc-3e3dca5dce4b", "829adb77-22de-48e8-8017-e6e5acf0dd3e",
                "373c0743-2a7c-4d0c-967c-f6bdccb6a75d", "a73685c8-9e08-499b-99c5-abed52aea730",
            ])
        XCTAssertEqual(transport.requests.count, 2)
        let body = String(decoding: try XCTUnwrap(transport.requests.last?.body), as: UTF8.self)
        XCTAssertTrue(
            body.hasSuffix(
                #"<info><group name="weight"><key version-stamp="7c345b6b-5072-4aca-a454-5aa7148982cf">373c0743-2a7c-4d0c-967c-f6bdccb6a75d</key><key version-stamp="6672961b-3715-4b52-8426-6671841cc430">a73685c8-9e08-499b-99c5-abed52aea730</key><format><section>core</section><section>audits</section><xml /><type-version-format>3d34d87e-7fc1-4153-800f-f56592cb0d17</type-version-format></format></group></info></wc-request:request>"#
            ), body)
        XCTAssertTrue(
            body.contains(
                #"<info-hash><hash-data algName="SHA256">L543wPaNgiqj8l1VwiqvkfIQYuK1I346dmjXk5+tiFw=</hash-data></info-hash>"#
            ),
            body)
        XCTAssertTrue(
            body.contains(#"<hmac-data algName="HMACSHA256">Bpf/7bgEc8RPvIt2BRhr2pV/pDdWFQ6wExfkQiVe9/o=</hmac-data>"#),
            body)
    }

    func testAKeyWhoseThingChangedMeanwhileIsReported() async throws {
        // The second thing was updated after the first page listed it: its old version no longer comes back.
        let (batches, transport) = batches(answering: [
            Self.firstPage,
            Self.response(
                Self.thing(
                    "373c0743-2a7c-4d0c-967c-f6bdccb6a75d", stamp: "7c345b6b-5072-4aca-a454-5aa7148982cf",
                    kg: "82.5538113")),
        ])
        var read: [HealthVaultThingBatch] = []
        for try await batch in batches { read.append(batch) }
        XCTAssertEqual(read.map(\.things.count), [2, 1])
        XCTAssertEqual(
            read.last?.unresolved,
            [
                ThingKey(
                    versionStamp: UUID(uuidString: "6672961b-3715-4b52-8426-6671841cc430"),
                    id: UUID(uuidString: "a73685c8-9e08-499b-99c5-abed52aea730")!)
            ])
        XCTAssertEqual(transport.requests.count, 2, "nothing is asked for twice")
    }

    /// A follow-up answer's things are results only when it asked for their key: a second copy, the asked-for thing at
    /// another version and a thing of another id are dropped.
    func testAFollowUpKeepsOnlyTheThingsItAskedFor() async throws {
        let (id, stamp) = ("373c0743-2a7c-4d0c-967c-f6bdccb6a75d", "7c345b6b-5072-4aca-a454-5aa7148982cf")
        let other = "a73685c8-9e08-499b-99c5-abed52aea730"
        let (batches, _) = batches(answering: [
            Self.firstPage,
            Self.response(
                Self.thing(id, stamp: stamp, kg: "82.5538113") + Self.thing(id, stamp: stamp, kg: "1")
                    + Self.thing(other, stamp: "00000000-0000-4000-8000-000000000001", kg: "2")
                    + Self.thing("0dd1ce00-0000-4000-8000-000000000000", stamp: stamp, kg: "3")),
        ])
        var read: [HealthVaultThingBatch] = []
        for try await batch in batches { read.append(batch) }
        XCTAssertEqual(read.map(\.things.count), [2, 1])
        XCTAssertEqual(read.last?.things.first?.thingID.id.wireText, id)
        XCTAssertEqual(read.last?.things.first?.dataXML?.text.contains("82.5538113"), true, "the first copy")
        XCTAssertEqual(
            read.last?.unresolved,
            [
                ThingKey(
                    versionStamp: UUID(uuidString: "6672961b-3715-4b52-8426-6671841cc430"), id: UUID(uuidString: other)!
                )
            ])
    }

    func testFollowUpBatchesAreNoLargerThanTheFirstPage() async throws {
        // Two full things and five keys: three follow-ups of two, two and one key.
        let keys = (1...5).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
        let stamp = "11111111-1111-4111-8111-111111111111"
        var responses = [
            Self.response(
                Self.thing("26a4598d-7db2-4d96-85bc-3e3dca5dce4b", stamp: stamp, kg: "1")
                    + Self.thing("829adb77-22de-48e8-8017-e6e5acf0dd3e", stamp: stamp, kg: "2")
                    + keys.map { Self.key($0, stamp: stamp) }.joined())
        ]
        for batch in [keys[0..<2], keys[2..<4], keys[4..<5]] {
            responses.append(Self.response(batch.map { Self.thing($0, stamp: stamp, kg: "3") }.joined()))
        }
        let (batches, transport) = batches(answering: responses)
        var sizes: [Int] = []
        for try await batch in batches { sizes.append(batch.things.count) }
        XCTAssertEqual(sizes, [2, 2, 2, 1])
        let asked = transport.requests.dropFirst().map {
            String(decoding: $0.body ?? Data(), as: UTF8.self).components(separatedBy: "<key ").count - 1
        }
        XCTAssertEqual(asked, [2, 2, 1])
    }
}
