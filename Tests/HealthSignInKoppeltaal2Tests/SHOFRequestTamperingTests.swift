import Foundation
import HealthSignInCore
import HealthSignInCredentials
import HealthSignInKoppeltaal2
import HealthSignInOAuth
import HealthSignInTestSupport
import HealthSignInTesting
import XCTest

/// A SHOF request kept where the user can change it (a cookie): every edit is refused before the code is redeemed,
/// so the signed-in context is the verified launch's.
final class SHOFRequestTamperingTests: XCTestCase {
    private let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    private let redirectURI = "https://module.example/cb"

    private func key(_ id: String) throws -> JSONWebKey {
        try XCTUnwrap(try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json")).keys.first { $0.keyID == id })
    }

    /// A domain with the module and a portal, a launch for `Patient/p1` of a related person, and the sign-in started.
    private func started(sealing: CredentialSealing) async throws -> (
        server: Koppeltaal2TestServer, signIn: SHOFSignIn, redirect: URL, pending: SHOFPendingAuthorization
    ) {
        let server = Koppeltaal2TestServer(clock: clock)
        let moduleKey = try key("test-rsa")
        let portalKey = try key("test-p256")
        server.registerApplication(
            clientID: "module-1", keys: JSONWebKeySet(keys: [moduleKey.publicKey]), redirectURIs: [redirectURI])
        server.registerApplication(clientID: "portal-1", keys: JSONWebKeySet(keys: [portalKey.publicKey]))
        server.put(["resourceType": "RelatedPerson", "id": "r1", "identifier": [["value": "r1@example.org"]]])
        let backend = Koppeltaal2BackendClient(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: server.fhirBaseURL,
                    client: OAuthClientCredentials(
                        clientID: "module-1", signer: try Koppeltaal2BackendClient.signer(key: moduleKey, clock: clock)),
                    trustedHosts: ["auth.koppeltaal.test"]),
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: server.transport),
                    clock: clock)))
        let form = try HTILaunchComposer(clientID: "portal-1", key: portalKey, algorithm: .es256, clock: clock).launch(
            HTILaunchContext(
                issuer: "portal-1", audience: "Device/module-1", subject: "RelatedPerson/r1", resource: "Task/t1",
                definition: "ActivityDefinition/a1", patient: "Patient/p1", intent: "plan"),
            to: try XCTUnwrap(URL(string: "https://module.example/launch")), fhirBaseURL: server.fhirBaseURL)
        let launch = try await HTILaunchReceiver(
            configuration: .init(
                deviceReference: "Device/module-1", trustedFHIRBaseURL: server.fhirBaseURL, verification: .signIn,
                replayStore: InMemoryHTIReplayStore(), clock: clock)
        ).receive(form.fields)
        let signIn = SHOFSignIn(backend: backend, redirectURI: redirectURI, requestSealing: sealing)
        let (url, pending) = try await signIn.start(launch)
        let redirect = try await server.browser.authorize(
            url, callback: try XCTUnwrap(AuthorizationCallback(redirectURI: redirectURI)))
        return (server, signIn, redirect, pending)
    }

    /// Every member of a JSON document, as a path of keys, with the document with that member changed.
    private func edits(of document: JSONValue, at path: [String] = []) -> [(path: String, edited: JSONValue)] {
        switch document {
        case .object(let members):
            return members.keys.flatMap { name -> [(path: String, edited: JSONValue)] in
                guard let member = members[name] else { return [] }
                return edits(of: member, at: path + [name]).map { edit in
                    var changed = members
                    changed[name] = edit.edited
                    return (edit.path, JSONValue.object(changed))
                }
            }
        case .string(let text):
            let victim = text.hasPrefix("Patient/") ? "Patient/victim" : text + "x"
            return [(path.joined(separator: "."), .string(victim))]
        case .number(let number):
            return [(path.joined(separator: "."), .number(JSONNumber((Double(number.text) ?? 0) + 1_000)))]
        case .bool(let flag):
            return [(path.joined(separator: "."), .bool(!flag))]
        case .null, .array:
            return [(path.joined(separator: "."), .string("changed"))]
        }
    }

    func testEveryEditOfAKeptRequestIsRefusedAndTheUntouchedOneSignsIn() async throws {
        let sealing = try CredentialSealing.testSealing()
        let (server, signIn, redirect, pending) = try await started(sealing: sealing)
        let sealed = try XCTUnwrap(Base64URLText.decode(pending.sealed))
        for shown in ["RelatedPerson/r1", "Patient/p1", "Task/t1", "module.example"] {
            XCTAssertNil(sealed.range(of: Data(shown.utf8)), "the kept request shows nothing of the launch: \(shown)")
        }
        // The module's key opens it; an attacker who knows the format but not the key edits each member and
        // presents it in clear, or sealed with a key of their own under the same key id.
        let opened = try sealing.open(sealed, for: "koppeltaal2.shof-request.module-1")
        let document = try JSONValue.parse(opened)
        let edits = edits(of: document)
        let paths = Set(edits.map(\.path))
        for field in ["subject", "resource", "patient", "definition", "intent", "issuer", "audience"] {
            XCTAssertTrue(paths.contains("launch." + field), "launch.\(field) is kept and edited")
        }
        let attacker = try CredentialSealing.testSealing(byte: 9)
        for edit in edits {
            let bytes = edit.edited.serialized()
            let inClear = SHOFPendingAuthorization(sealed: Base64URLText.encode(bytes))
            let resealed = SHOFPendingAuthorization(
                sealed: Base64URLText.encode(try attacker.seal(bytes, for: "koppeltaal2.shof-request.module-1")))
            for forged in [inClear, resealed] {
                await XCTAssertThrowsErrorAsync(try await signIn.finish(redirect, pending: forged), edit.path) {
                    guard case .tamperedRequest? = $0 as? SHOFError else { return XCTFail("\(edit.path): \($0)") }
                }
            }
        }
        for index in sealed.indices {
            var flipped = sealed
            flipped[index] ^= 0x01
            let forged = SHOFPendingAuthorization(sealed: Base64URLText.encode(flipped))
            await XCTAssertThrowsErrorAsync(try await signIn.finish(redirect, pending: forged), "byte \(index)") {
                guard case .tamperedRequest? = $0 as? SHOFError else { return XCTFail("byte \(index): \($0)") }
            }
        }
        XCTAssertEqual(server.ledger.count(.authorizationCode), 0, "no forged request redeemed the code")
        let kept = try JSONDecoder().decode(SHOFPendingAuthorization.self, from: try JSONEncoder().encode(pending))
        let user = try await signIn.finish(redirect, pending: kept)
        XCTAssertEqual(user.subject, "RelatedPerson/r1")
        XCTAssertEqual(user.patient, "Patient/p1")
        XCTAssertEqual(user.definition, "ActivityDefinition/a1")
        XCTAssertEqual(user.intent, "plan")
        XCTAssertEqual(server.ledger.count(.authorizationCode), 1)
    }

    func testARequestSealedForAnotherModuleDoesNotOpen() async throws {
        let sealing = try CredentialSealing.testSealing()
        let (_, signIn, redirect, pending) = try await started(sealing: sealing)
        let opened = try sealing.open(
            try XCTUnwrap(Base64URLText.decode(pending.sealed)), for: "koppeltaal2.shof-request.module-1")
        let elsewhere = SHOFPendingAuthorization(
            sealed: Base64URLText.encode(try sealing.seal(opened, for: "koppeltaal2.shof-request.module-2")))
        await XCTAssertThrowsErrorAsync(try await signIn.finish(redirect, pending: elsewhere)) {
            guard case .tamperedRequest? = $0 as? SHOFError else { return XCTFail("\($0)") }
        }
        XCTAssertFalse("\(pending)".contains(pending.sealed), "printing shows the length only")
    }
}

/// Base64url as RFC 4648 section 5 spells it, without padding: the form of a kept request.
private enum Base64URLText {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: String) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
