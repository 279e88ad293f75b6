import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal2
import HealthSignInTestSupport
import HealthSignInTesting
import XCTest

/// What an app's tests get from the in-process Koppeltaal 2.0 domain: typed FHIR errors and the test kit's faults.
final class TestKitServerTests: XCTestCase {
    private func fhir(_ server: Koppeltaal2TestServer) throws -> Koppeltaal2FHIRClient {
        let key = try XCTUnwrap(
            try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json")).keys.first { $0.keyID == "test-rsa" })
        server.registerApplication(clientID: "module-1", keys: JSONWebKeySet(keys: [key.publicKey]))
        return Koppeltaal2FHIRClient(
            backend: Koppeltaal2BackendClient(
                configuration: .init(
                    clientID: "module-1", signer: try Koppeltaal2BackendClient.signer(key: key),
                    fhirBaseURL: server.fhirBaseURL, trustedHosts: ["auth.koppeltaal.test"],
                    options: ClientOptions(transport: server.transport))))
    }

    func testAnOperationOutcomeIsATypedError() async throws {
        let server = Koppeltaal2TestServer()
        let client = try fhir(server)
        do {
            _ = try await client.read(KT2Task.self, id: "absent")
            XCTFail("an unknown task must not be read")
        } catch let error as KT2OperationOutcomeError {
            XCTAssertEqual(error.origin.httpStatus, 404)
            XCTAssertEqual(error.code, .notFound)
            XCTAssertEqual(error.message, "Task/absent is unknown")
        }
    }

    func testATokenEndpointFaultIsTypedAndTheNextCallSucceeds() async throws {
        let server = Koppeltaal2TestServer()
        let client = try fhir(server)
        server.faults.inject(.status(503, retryAfter: 2), at: server.tokenURL)
        do {
            _ = try await client.read(KT2Device.self, id: "module-1")
            XCTFail("the token endpoint was down")
        } catch let error as UnexpectedResponseError {
            XCTAssertEqual(error.status, 503)
            XCTAssertEqual(error.recovery, .retryLater)
        }
        let device = try await client.read(KT2Device.self, id: "module-1")
        XCTAssertEqual(device.resource.status, .active)
        XCTAssertEqual(server.ledger.count(.clientCredentials), 2)
        XCTAssertEqual(
            server.ledger.entries(for: .clientCredentials).map(\.fault), [.status(503, retryAfter: 2), nil],
            "the first token request met the fault, the second the server")
    }

    func testALostUpdateResponseLeavesTheNewVersionForTheConflictToShow() async throws {
        let server = Koppeltaal2TestServer()
        let client = try fhir(server)
        let device = try await client.read(KT2Device.self, id: "module-1")
        server.faults.inject(.loseResponse, at: server.fhirBaseURL.appendingPathComponent("Device/module-1"))
        let inactive = KT2Device(
            id: device.resource.id, meta: device.resource.meta, extension: device.resource.extension,
            identifier: device.resource.identifier, status: .inactive, deviceName: device.resource.deviceName)
        do {
            _ = try await client.update(inactive, replacing: device)
            XCTFail("the response was lost")
        } catch let error as TransportError {
            XCTAssertEqual(error.kind, .connectionLost)
        }
        do {
            _ = try await client.update(inactive, replacing: device)
            XCTFail("the first update was applied, so version 1 is stale")
        } catch let conflict as KT2UpdateConflict {
            XCTAssertEqual(conflict.current(as: KT2Device.self)?.resource.status, .inactive)
            XCTAssertEqual(conflict.current(as: KT2Device.self)?.versionID, "2")
        }
    }
}
