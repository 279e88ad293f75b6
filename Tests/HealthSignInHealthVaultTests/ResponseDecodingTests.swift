import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInTestSupport
import XCTest

/// The seed document's example responses, and every record attribute, decode to the right typed values.
final class ResponseDecodingTests: XCTestCase {
    private func info(_ fixture: String, namespace: String) throws -> XMLElementView {
        try HealthVaultResponseEnvelope(body: Fixtures.data("HealthVault/" + fixture)).info(namespace: namespace)
    }

    func testNewApplicationCreationInfoSeedResponse() throws {
        let response = try NewApplicationCreationInfo.Response(
            xml: info(
                "NewApplicationCreationInfo/response.xml",
                namespace: "urn:com.microsoft.wc.methods.response.NewApplicationCreationInfo"
            ))
        XCTAssertEqual(response.appID, UUID(uuidString: "39a952bb-aac4-4a3d-8fba-f53e5605eca5"))
        XCTAssertEqual(response.sharedSecret, "RaFzI5JVbg0...Bk/iU0pg=")
        XCTAssertEqual(response.appToken, "ASAAAJMipARM...5OBFdAISE")
    }

    func testCreateAuthenticatedSessionTokenSeedResponse() throws {
        let response = try CreateAuthenticatedSessionToken.Response(
            xml: info(
                "CreateAuthenticatedSessionToken/response.xml",
                namespace: "urn:com.microsoft.wc.methods.response.CreateAuthenticatedSessionToken2"
            ))
        XCTAssertEqual(response.token.value, "ASAAAPmoT...PwuWA==")
        XCTAssertEqual(response.token.appID, UUID(uuidString: "39a952bb-aac4-4a3d-8fba-f53e5605eca5"))
        XCTAssertEqual(response.token.appRecordAuthAction, .noActionRequired)
        XCTAssertEqual(response.sharedSecret, "zecX0M6EfF0... +BUXnBg==")
    }

    func testGetAuthorizedPeopleSeedResponse() throws {
        let response = try GetAuthorizedPeople.Response(
            xml: info(
                "GetAuthorizedPeople/response.xml",
                namespace: "urn:com.microsoft.wc.methods.response.GetAuthorizedPeople"
            ))
        XCTAssertFalse(response.responseResults.moreResults)
        let person = try XCTUnwrap(response.responseResults.personInfo.first)
        XCTAssertEqual(response.responseResults.personInfo.count, 1)
        XCTAssertEqual(person.personID, UUID(uuidString: "f0199615-0979-4dcd-a7ca-b9530d2b787d"))
        XCTAssertEqual(person.name, "Michel Cordani")
        XCTAssertEqual(person.preferredCulture, Culture(language: "en", country: "US"))
        XCTAssertEqual(person.preferredUiculture, Culture(language: "en", country: "US"))
        let record = try XCTUnwrap(person.record.first)
        XCTAssertEqual(
            record,
            HealthVaultRecord(
                id: UUID(uuidString: "6f8a2949-b5de-431b-a2ba-cc03277f65e9")!,
                recordCustodian: true,
                relType: 2,
                relName: "Other",
                authExpires: DateTimeText.parse("9999-12-31T23:59:59.999Z"),
                displayName: "Michel",
                state: .active,
                dateCreated: DateTimeText.parse("2008-01-22T22:12:07.91Z"),
                maxSizeBytes: 4_294_967_296,
                sizeBytes: 101_555,
                appRecordAuthAction: .noActionRequired,
                appSpecificRecordID: "1587152",
                name: "Michel"
            ))
    }

    func testEveryRecordAttributeAndTolerance() throws {
        let response = try GetAuthorizedPeople.Response(
            xml: info(
                "GetAuthorizedPeople/response-all-attributes.xml",
                namespace: "urn:com.microsoft.wc.methods.response.GetAuthorizedPeople"
            ))
        XCTAssertTrue(response.responseResults.moreResults, "xsd:boolean 1")
        let person = try XCTUnwrap(response.responseResults.personInfo.first)
        XCTAssertEqual(person.selectedRecordID, UUID(uuidString: "9c863988-e2aa-440e-8c11-7ba4750ba4c8"))
        XCTAssertEqual(person.moreRecords, false)
        XCTAssertEqual(person.location, HealthVaultLocation(country: "NL", stateProvince: "NL-NH"))
        XCTAssertEqual(person.record.count, 2)
        let record = person.record[0]
        XCTAssertEqual(record.recordCustodian, true, "xsd:boolean 1")
        XCTAssertEqual(record.relType, 1)
        XCTAssertEqual(record.authExpires, DateTimeText.parse("2018-08-10T12:34:56Z"))
        XCTAssertEqual(record.authExpired, false)
        XCTAssertEqual(record.state, .readOnly)
        XCTAssertEqual(record.dateCreated?.timeIntervalSince1970 ?? 0, 1_468_361_676.69, accuracy: 0.0001)
        XCTAssertEqual(record.appRecordAuthAction, .reauthorizationRequired)
        XCTAssertEqual(record.autoReconcileDocuments, true)
        XCTAssertEqual(record.appSpecificRecordID, "a&b")
        XCTAssertEqual(record.locationCountry, "NL")
        XCTAssertEqual(record.locationStateProvince, "NL-NH")
        XCTAssertEqual(record.dateUpdated, DateTimeText.parse("2017-01-02T03:04:05.006Z"))
        XCTAssertEqual(record.latestOperationSequenceNumber, 9_007_199_254_740_993, "int64 beyond double precision")
        XCTAssertEqual(record.recordAppAuthCreatedDate, Date(timeIntervalSince1970: 1_502_361_296), "+02:00 offset")
        XCTAssertEqual(record.name, "Alex <primary>")
        let second = person.record[1]
        XCTAssertEqual(second.relType, 13)
        XCTAssertEqual(second.state, .unknown("Frozen"), "open enums keep values they do not know")
        XCTAssertEqual(second.appRecordAuthAction, .unspecified, "the documented empty value")
        XCTAssertNil(second.recordCustodian)
    }

    func testGetServiceDefinitionTopology() throws {
        let response = try GetServiceDefinition.Response(
            xml: info(
                "GetServiceDefinition/response.xml",
                namespace: "urn:com.microsoft.wc.methods.response.GetServiceDefinition2"
            ))
        let instances = try XCTUnwrap(response.instances)
        XCTAssertEqual(instances.currentInstanceID, "1")
        XCTAssertEqual(instances.instance.map(\.id), ["1", "2"])
        XCTAssertEqual(
            instances.instance[1].platformURL,
            URL(string: "https://platform.healthvault-ppe.co.uk/platform/wildcat.ashx"))
        XCTAssertEqual(instances.instance[1].shellURL, URL(string: "https://account.healthvault-ppe.co.uk/"))
        XCTAssertEqual(instances.instance[0].summary, "HealthVault US instance")
    }

    func testResponseInfoInAnotherNamespaceIsAVersionMismatch() throws {
        XCTAssertThrowsError(
            try info(
                "CreateAuthenticatedSessionToken/response.xml",
                namespace: "urn:com.microsoft.wc.methods.response.CreateAuthenticatedSessionToken"
            )
        ) { error in
            XCTAssertEqual(
                String(describing: error),
                "info: expected namespace 'urn:com.microsoft.wc.methods.response.CreateAuthenticatedSessionToken', found 'urn:com.microsoft.wc.methods.response.CreateAuthenticatedSessionToken2'"
            )
        }
    }

    func testDecodingErrorsNameThePath() throws {
        let body = """
            <response><status><code>0</code></status><wc:info xmlns:wc="urn:com.microsoft.wc.methods.response.GetAuthorizedPeople"><response-results><person-info><person-id>f0199615-0979-4dcd-a7ca-b9530d2b787d</person-id><name>A</name></person-info><person-info><person-id>f0199615-0979-4dcd-a7ca-b9530d2b787e</person-id><name>B</name><record id="6f8a2949-b5de-431b-a2ba-cc03277f65e9" rel-type="x">B</record></person-info><more-results>false</more-results></response-results></wc:info></response>
            """
        let info = try HealthVaultResponseEnvelope(body: Data(body.utf8)).info(
            namespace: "urn:com.microsoft.wc.methods.response.GetAuthorizedPeople")
        XCTAssertThrowsError(try GetAuthorizedPeople.Response(xml: info)) { error in
            XCTAssertEqual(
                String(describing: error), #"response-results/person-info[1]/record@rel-type: expected Int, found "x""#)
        }
    }
}
