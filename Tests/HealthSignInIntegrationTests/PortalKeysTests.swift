import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal2
import HealthSignInTestSupport
import HealthSignInTesting
import XCTest

/// A module verifies portals' launches with keys it fetches from each portal's JWKS URL over 127.0.0.1 (hosted by
/// the emulator with its `Cache-Control`): one fetch serves many launches, a rotation costs one fetch, and a `kid`
/// that never appears costs at most one fetch per interval.
final class PortalKeysTests: XCTestCase {
    private var emulator: Emulator!
    private let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
    private let fhirBase = URL(string: "https://fhir.koppeltaal.test/fhir/DEFAULT")!
    private let fetches = LockedValue(0)

    override func setUp() async throws {
        emulator = try Emulator.shared.get()
        try await emulator.control("reset")
    }

    private func key(_ id: String) throws -> JSONWebKey {
        try XCTUnwrap(try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json")).keys.first { $0.keyID == id })
    }

    /// Hosts `keys` (public parts) as portal-1's JWKS with `maxAge`, and returns its URL.
    private func host(_ keys: [JSONWebKey], maxAge: Int) async throws -> URL {
        let jwks = try JSONDecoder().decode(
            [String: [[String: String]]].self, from: try Koppeltaal2KeySet(keys: keys).document())
        let hosted = try await emulator.control(
            "koppeltaal2/jwks", ["name": "portal-1", "jwks": jwks, "max_age": maxAge])
        return try XCTUnwrap(URL(string: try XCTUnwrap(hosted["jwks_url"] as? String)))
    }

    private func receiver(_ url: URL) -> HTILaunchReceiver {
        let counter = fetches
        let portals = HTIPortalKeys(
            jwksURLs: ["portal-1": url],
            options: ClientOptions(
                transport: DefaultHTTPTransport(timeout: 5), urlPolicy: URLPolicy(allowsInsecureLoopback: true),
                middlewares: [CountingMiddleware(count: counter)]),
            minimumRefetchInterval: 60, clock: clock)
        return HTILaunchReceiver(
            configuration: .init(
                deviceReference: "Device/module-1", trustedFHIRBaseURL: fhirBase, verification: .portalKeys(portals),
                clock: clock))
    }

    private func launch(signedBy key: JSONWebKey, algorithm: JWSAlgorithm) throws -> FormFields {
        try HTILaunchComposer(clientID: "portal-1", key: key, algorithm: algorithm, clock: clock).launch(
            HTILaunchContext(
                issuer: "portal-1", audience: "Device/module-1", subject: "Patient/p1", resource: "Task/t1"),
            to: try XCTUnwrap(URL(string: "https://module.example/launch")), fhirBaseURL: fhirBase
        ).fields
    }

    private func refusal(_ form: FormFields, by receiver: HTILaunchReceiver) async -> HTILaunchError.Code? {
        do {
            _ = try await receiver.receive(form)
            return nil
        } catch {
            return (error as? HTILaunchError)?.code
        }
    }

    func testOneFetchServesLaunchesUntilMaxAgeAndARotationCostsOneFetch() async throws {
        let old = try key("test-p256")
        let new = try key("test-p521")
        let receiver = receiver(try await host([old], maxAge: 600))
        for _ in 0..<5 { _ = try await receiver.receive(try launch(signedBy: old, algorithm: .es256)) }
        XCTAssertEqual(fetches.current, 1, "the set is kept while fresh")

        // The portal rotates: its new launches name a kid the kept set lacks.
        _ = try await host([new], maxAge: 600)
        clock.advance(by: 61)
        _ = try await receiver.receive(try launch(signedBy: new, algorithm: .es512))
        XCTAssertEqual(fetches.current, 2, "one fetch for the new kid")
        _ = try await receiver.receive(try launch(signedBy: new, algorithm: .es512))
        XCTAssertEqual(fetches.current, 2)
        let retired = await refusal(try launch(signedBy: old, algorithm: .es256), by: receiver)
        XCTAssertEqual(retired, .invalidSignature, "the retired key is gone from the set")

        // Past max-age the set is fetched again before use.
        clock.advance(by: 601)
        _ = try await receiver.receive(try launch(signedBy: new, algorithm: .es512))
        XCTAssertEqual(fetches.current, 3, "past max-age, fetched again")
    }

    func testAKidThatNeverAppearsCostsOneFetchPerInterval() async throws {
        let portal = try key("test-p256")
        let receiver = receiver(try await host([portal], maxAge: 3_600))
        _ = try await receiver.receive(try launch(signedBy: portal, algorithm: .es256))
        XCTAssertEqual(fetches.current, 1)
        let stranger = try key("test-p521")
        for _ in 0..<20 {
            let code = await refusal(try launch(signedBy: stranger, algorithm: .es512), by: receiver)
            XCTAssertEqual(code, .invalidSignature)
        }
        XCTAssertEqual(fetches.current, 1, "within the interval after the fetch, no fetch for an unknown kid")
        clock.advance(by: 60)
        for _ in 0..<20 {
            let code = await refusal(try launch(signedBy: stranger, algorithm: .es512), by: receiver)
            XCTAssertEqual(code, .invalidSignature)
        }
        XCTAssertEqual(fetches.current, 2, "one fetch in the next interval, however many launches")
        _ = try await receiver.receive(try launch(signedBy: portal, algorithm: .es256))
        XCTAssertEqual(fetches.current, 2)
    }

    func testConcurrentLaunchesShareOneFetchAndAnOutageServesTheKeptSet() async throws {
        let portal = try key("test-p256")
        let receiver = receiver(try await host([portal], maxAge: 30))
        let forms = try (0..<10).map { _ in try launch(signedBy: portal, algorithm: .es256) }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for form in forms { group.addTask { _ = try await receiver.receive(form) } }
            try await group.waitForAll()
        }
        XCTAssertEqual(fetches.current, 1, "ten launches at once, one fetch")
        try await emulator.control("reset")  // the hosted set is gone: the portal answers 404
        clock.advance(by: 31)
        _ = try await receiver.receive(try launch(signedBy: portal, algorithm: .es256))
        XCTAssertEqual(fetches.current, 2, "the stale set was fetched again, and kept when that failed")
    }
}

/// Counts the requests that go out.
private struct CountingMiddleware: HTTPClientMiddleware {
    let count: LockedValue<Int>

    func intercept(
        _ request: HTTPRequestMessage, operation: OperationID,
        next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        count.withValue { $0 += 1 }
        return try await next(request)
    }
}
