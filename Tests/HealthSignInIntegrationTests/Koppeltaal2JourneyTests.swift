import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal2
import HealthSignInOAuth
import HealthSignInTestSupport
import XCTest

/// The Koppeltaal 2.0 journey on both servers, the emulator and the test kit's: backend token → task search → HTI
/// launch → SHOF sign-in → FHIR update with If-Match → a conflict; and the token renewed after a 401.
final class Koppeltaal2JourneyTests: EachServerTestCase {
    private static let redirectURI = "https://module.example/shof/callback"

    private func key(_ id: String) throws -> JSONWebKey {
        try XCTUnwrap(try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json")).keys.first { $0.keyID == id })
    }

    private func backend(_ server: Koppeltaal2ServerUnderTest, clientID: String, key: JSONWebKey)
        throws -> Koppeltaal2BackendClient
    {
        Koppeltaal2BackendClient(
            configuration: .init(
                clientID: clientID, signer: try Koppeltaal2BackendClient.signer(key: key),
                fhirBaseURL: server.fhirBase, trustedHosts: server.authHosts,
                options: ClientOptions(transport: server.transport, urlPolicy: server.urlPolicy)))
    }

    private func task(for patient: String) -> KT2Task {
        KT2Task(
            meta: KT2Meta(profile: ["http://koppeltaal.nl/fhir/StructureDefinition/KT2Task"]),
            identifier: [KT2Identifier(system: "urn:test:task", value: UUID().uuidString)], status: .ready,
            intent: "order", for: KT2Reference(reference: patient, type: "Patient"),
            owner: KT2Reference(reference: patient, type: "Patient"))
    }

    func testTheJourneyFromBackendTokenToAConflict() async throws {
        try await onEachServer { kind in
            let server = try await Koppeltaal2ServerUnderTest(kind)
            let moduleKey = try key("test-rsa")
            let portalKey = try key("test-p256")
            try await server.register("module-1", key: moduleKey, redirectURIs: [Self.redirectURI])
            try await server.register("portal-1", key: portalKey)
            try await server.putPatient("p1", identifier: "p1@example.org")
            let module = try backend(server, clientID: "module-1", key: moduleKey)
            let fhir = Koppeltaal2FHIRClient(backend: module)
            for _ in 0..<3 { _ = try await fhir.create(task(for: "Patient/p1")) }

            var found: [KT2Versioned<KT2Task>] = []
            for try await page in fhir.search(KT2Task.self, ["status": "ready", "_count": "2"]) {
                found += page.resources
            }
            XCTAssertEqual(found.count, 3)
            let task = try XCTUnwrap(found.first)
            XCTAssertEqual(task.resource.resourceOrigin, "Device/module-1")

            let form = try HTILaunchComposer(clientID: "portal-1", key: portalKey, algorithm: .es256).launch(
                HTILaunchContext(
                    issuer: "portal-1", audience: "Device/module-1", subject: "Patient/p1",
                    resource: "Task/\(try XCTUnwrap(task.resource.id))", definition: "ActivityDefinition/ad-1",
                    intent: "plan"),
                to: try XCTUnwrap(URL(string: "https://module.example/launch")), fhirBaseURL: server.fhirBase)
            let launch = try await HTILaunchReceiver(
                configuration: .init(
                    deviceReference: "Device/module-1", trustedFHIRBaseURL: server.fhirBase, verification: .signIn)
            ).receive(form.fields)
            let signIn = SHOFSignIn(backend: module, redirectURI: Self.redirectURI, requestSealing: try .testSealing())
            let (url, pending) = try await signIn.start(launch)
            let query = try XCTUnwrap(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems)
            XCTAssertEqual(query.first { $0.name == "scope" }?.value, "launch openid fhirUser")
            XCTAssertEqual(query.first { $0.name == "code_challenge_method" }?.value, "S256")
            XCTAssertEqual(query.first { $0.name == "launch" }?.value, launch.token)
            XCTAssertEqual(query.first { $0.name == "aud" }?.value, server.fhirBase.absoluteString)
            XCTAssertNil(query.first { $0.name == "nonce" }, "the reference service puts a nonce of its own")
            let user = try await signIn.finish(
                try await server.browse(url, callback: Self.redirectURI), pending: pending)
            XCTAssertEqual(user.subject, "Patient/p1")
            XCTAssertEqual(user.resource, launch.context.resource)
            XCTAssertEqual(user.definition, "ActivityDefinition/ad-1")
            XCTAssertEqual(user.intent, "plan")

            let started = try await fhir.update(task.resource.with(status: .inProgress), replacing: task)
            XCTAssertEqual(started.versionID, "2")
            do {
                _ = try await fhir.update(task.resource.with(status: .completed), replacing: task)
                XCTFail("a stale If-Match must be refused")
            } catch let conflict as KT2UpdateConflict {
                XCTAssertEqual(conflict.httpStatus, 409)
                XCTAssertEqual(conflict.current(as: KT2Task.self), started)
            }
            let clientCredentials = try await server.tokenRequests("client_credentials")
            let codes = try await server.tokenRequests("authorization_code")
            XCTAssertEqual(clientCredentials, 1, "one backend token served the whole journey")
            XCTAssertEqual(codes, 1)
            let refused = try await server.fhirRequestsRefusedAs401()
            XCTAssertEqual(refused, 0, "no FHIR request carried a token the server refused, NOOP least of all")
            let traces = try await server.traces()
            XCTAssertTrue(traces.allSatisfy { $0.requestID != nil && $0.correlationID != nil }, "\(traces)")
        }
    }

    func testA401RenewsTheTokenOnceAndA412IsAConflictToo() async throws {
        try await onEachServer { kind in
            let server = try await Koppeltaal2ServerUnderTest(kind)
            let moduleKey = try key("test-rsa")
            try await server.register("module-1", key: moduleKey)
            let fhir = Koppeltaal2FHIRClient(backend: try backend(server, clientID: "module-1", key: moduleKey))
            let created = try await fhir.create(task(for: "Patient/p1"))
            try await server.expireAccessTokens()
            let read = try await fhir.read(KT2Task.self, id: try XCTUnwrap(created.resource.id))
            XCTAssertEqual(read, created)
            let tokens = try await server.tokenRequests("client_credentials")
            XCTAssertEqual(tokens, 2)

            try await server.answerConflictsWith412()
            _ = try await fhir.update(created.resource.with(status: .inProgress), replacing: created)
            do {
                _ = try await fhir.update(created.resource.with(status: .cancelled), replacing: created)
                XCTFail("a stale If-Match must be refused")
            } catch let conflict as KT2UpdateConflict {
                XCTAssertEqual(conflict.httpStatus, 412)
                XCTAssertEqual(conflict.current(as: KT2Task.self)?.versionID, "2")
            }
        }
    }
}
