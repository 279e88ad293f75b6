import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal2
import HealthSignInTestSupport
import XCTest

/// HTI 2.0 launches from both sides: what a portal signs and posts, and every rule a module checks.
final class HTILaunchTests: XCTestCase {
    private let fhirBase = URL(string: "https://fhir.koppeltaal.example/fhir/DEFAULT")!
    private let endpoint = URL(string: "https://module.example/launch")!
    private let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))

    private func keys() throws -> JSONWebKeySet { try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json")) }
    private func key(_ id: String) throws -> JSONWebKey { try XCTUnwrap(try keys().keys.first { $0.keyID == id }) }

    private var context: HTILaunchContext {
        HTILaunchContext(
            issuer: "portal-1", audience: "Device/module-1", subject: "Practitioner/pr1", resource: "Task/t1",
            definition: "ActivityDefinition/ad1", patient: "Patient/p1", intent: "plan")
    }

    private func composer(keyID: String = "test-rsa", algorithm: JWSAlgorithm = .rs512, lifetime: TimeInterval = 300)
        throws -> HTILaunchComposer
    {
        try HTILaunchComposer(
            clientID: "portal-1", key: try key(keyID), algorithm: algorithm, lifetime: lifetime, clock: clock)
    }

    private func receiver(
        replayStore: any HTIReplayStore = InMemoryHTIReplayStore(),
        maximumLifetime: TimeInterval = HTILaunchReceiver.specifiedMaximumLifetime
    ) throws -> HTILaunchReceiver {
        let portalKeys = JSONWebKeySet(keys: try keys().keys.map(\.publicKey))
        return HTILaunchReceiver(
            configuration: .init(
                deviceReference: "Device/module-1", trustedFHIRBaseURL: fhirBase,
                verification: .keys(["portal-1": portalKeys]), replayStore: replayStore,
                maximumLifetime: maximumLifetime, clockSkew: 30, clock: clock))
    }

    private func refusal(_ form: FormFields, by receiver: HTILaunchReceiver) async throws -> HTILaunchError.Code? {
        do {
            _ = try await receiver.receive(form)
            return nil
        } catch let error as HTILaunchError {
            return error.code
        }
    }

    private func form(token: String, iss: String? = nil, field: String = "launch") -> FormFields {
        var form = FormFields()
        form.append(field, token)
        form.append("iss", iss ?? fhirBase.absoluteString)
        return form
    }

    /// A token signed by the test RSA key with the given claims (for launches a composer would never make).
    private func forged(_ claims: JSONObject, alg: String = "RS512", keyID: String = "test-rsa") throws -> String {
        let header: JSONObject = ["alg": .string(alg), "kid": .string(keyID)]
        return try JWS.sign(
            header: JSONValue.object(header).serialized(), payload: JSONValue.object(claims).serialized(),
            key: try key("test-rsa"), algorithm: .rs512)
    }

    private func claims(iat: Int = 1_800_000_000, exp: Int = 1_800_000_300, aud: String = "Device/module-1")
        -> JSONObject
    {
        [
            "iss": "portal-1", "aud": .string(aud), "sub": "Patient/p1", "resource": "Task/t1", "jti": "j-1",
            "iat": .number(JSONNumber(iat)), "exp": .number(JSONNumber(exp)),
        ]
    }

    func testAPortalsFormCarriesLaunchTokenAndIssAndTheModuleAcceptsIt() async throws {
        let form = try composer().launch(context, to: endpoint, fhirBaseURL: fhirBase)
        XCTAssertEqual(form.fields.pairs.map(\.name), ["launch", "token", "iss"])
        XCTAssertEqual(form.fields["launch"], form.fields["token"])
        XCTAssertEqual(form.fields["iss"], fhirBase.absoluteString)
        XCTAssertFalse(form.description.contains(try XCTUnwrap(form.fields["launch"])), "the token is redacted")
        XCTAssertTrue(form.html.contains(#"<form method="post" action="https://module.example/launch">"#))

        let parts = try JWS.parts(of: try XCTUnwrap(form.fields["launch"]))
        XCTAssertEqual(parts.algorithm, "RS512")
        XCTAssertEqual(parts.keyID, "test-rsa")
        let claims = try XCTUnwrap(try JSONValue.parse(parts.payload).objectValue)
        XCTAssertEqual(claims["exp"]?.numberValue?.doubleValue, 1_800_000_300)
        XCTAssertEqual(claims["iat"]?.numberValue?.doubleValue, 1_800_000_000)

        let launch = try await receiver().receive(form.fields)
        XCTAssertEqual(launch.context, context)
        XCTAssertEqual(launch.fhirBaseURL, fhirBase)
        XCTAssertFalse(launch.description.contains(launch.token))
    }

    func testEveryHTIAlgorithmIsAcceptedAndHMACOrNoneNever() async throws {
        for (keyID, algorithm) in [("test-rsa", JWSAlgorithm.rs256), ("test-p256", .es256), ("test-p521", .es512)] {
            let form = try composer(keyID: keyID, algorithm: algorithm).launch(
                context, to: endpoint, fhirBaseURL: fhirBase)
            _ = try await receiver().receive(form.fields)
        }
        let unsigned =
            Base64URL.encode(Data(#"{"alg":"none"}"#.utf8)) + "."
            + Base64URL.encode(JSONValue.object(claims()).serialized()) + "."
        let code = try await refusal(form(token: unsigned), by: receiver())
        XCTAssertEqual(code, .algorithmNotAccepted)
        let hmac = try forged(claims(), alg: "HS256")
        let hmacCode = try await refusal(form(token: hmac), by: receiver())
        XCTAssertEqual(hmacCode, .algorithmNotAccepted)
    }

    func testEachRuleRefusesItsLaunch() async throws {
        let good = try forged(claims())
        var cases: [(String, FormFields, HTILaunchError.Code)] = [
            ("untrusted iss", form(token: good, iss: "https://evil.example/fhir"), .untrustedFHIRServer),
            ("no token", FormFields(dictionaryLiteral: ("iss", fhirBase.absoluteString)), .missingField),
            ("another module", form(token: try forged(claims(aud: "Device/other"))), .wrongAudience),
            ("expired", form(token: try forged(claims(iat: 1_799_999_000, exp: 1_799_999_200))), .expired),
            (
                "issued in the future", form(token: try forged(claims(iat: 1_800_000_100, exp: 1_800_000_200))),
                .issuedInTheFuture
            ),
            ("too long", form(token: try forged(claims(exp: 1_800_000_900))), .lifetimeTooLong),
            ("unknown kid", form(token: try forged(claims(), keyID: "elsewhere")), .invalidSignature),
            ("not a JWS", form(token: "a.b"), .malformedToken),
        ]
        var noTimes = claims()
        noTimes["exp"] = nil
        cases.append(("no exp", form(token: try forged(noTimes)), .malformedToken))
        let pieces = good.split(separator: ".").map(String.init)
        let tampered =
            pieces[0] + "." + Base64URL.encode(JSONValue.object(claims(aud: "Device/x")).serialized())
            + "." + pieces[2]
        cases.append(("tampered", form(token: tampered), .invalidSignature))
        for (name, form, expected) in cases {
            let code = try await refusal(form, by: receiver())
            XCTAssertEqual(code, expected, name)
        }
    }

    func testTheReferencePortalsFifteenMinutesNeedTheDocumentedSetting() async throws {
        let token = try forged(claims(exp: 1_800_000_900))
        let strict = try await refusal(form(token: token), by: receiver())
        XCTAssertEqual(strict, .lifetimeTooLong)
        let lenient = try receiver(maximumLifetime: HTILaunchReceiver.referencePortalLifetime)
        _ = try await lenient.receive(form(token: token))
    }

    func testHTICoresTokenFieldIsReadWhenLaunchIsAbsent() async throws {
        _ = try await receiver().receive(form(token: try forged(claims()), field: "token"))
    }

    func testAJTIIsUsedOnceAcrossInstancesSharingAStore() async throws {
        let shared = InMemoryCredentialStore()
        let first = try receiver(replayStore: CredentialStoreHTIReplayStore(store: shared))
        let second = try receiver(replayStore: CredentialStoreHTIReplayStore(store: shared))
        let launch = try composer().launch(context, to: endpoint, fhirBaseURL: fhirBase).fields
        _ = try await first.receive(launch)
        let again = try await refusal(launch, by: second)
        XCTAssertEqual(again, .replayed)

        let memory = try receiver()
        _ = try await memory.receive(launch)
        let replay = try await refusal(launch, by: memory)
        XCTAssertEqual(replay, .replayed)
        _ = try await memory.receive(try composer().launch(context, to: endpoint, fhirBaseURL: fhirBase).fields)
    }

    func testAPortalRefusesToLaunchOverPlainHTTPOrForAnotherIssuer() throws {
        XCTAssertThrowsError(
            try composer().launch(context, to: URL(string: "http://module.example/launch")!, fhirBaseURL: fhirBase))
        var other = context
        other.issuer = "portal-2"
        XCTAssertThrowsError(try composer().token(for: other))
        XCTAssertThrowsError(try composer(keyID: "test-rsa", algorithm: .es384))
    }
}
