import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTesting
import HealthSignInVital
import XCTest

/// Every generated client refuses to send to a URL that is not https, unless it is plain http to this machine and
/// the configuration opts in (as tests against the local emulator do); nothing is sent when it refuses.
final class TransportSecurityTests: XCTestCase {
    private static let refusedURLs = [
        "http://api.example.com/v1", "http://127.0.0.1:8080/v1", "ftp://api.example.com/v1",
    ]

    /// Calls one method of each family's client against `base` and returns what each did.
    private func outcomes(base: String, policy: URLPolicy) async -> [String: Result<Int, any Error>] {
        let transport = RecordingTransport { _ in HTTPResponseMessage(status: 500) }
        let url = URL(string: base)
        let healthVault = HealthVaultAPIClient(
            configuration: .init(servers: .init(platform: url), transport: transport, urlPolicy: policy))
        let koppeltaal = KoppeltaalAPIClient(
            configuration: .init(servers: .init(fhir: url), transport: transport, urlPolicy: policy))
        let oauth = OAuth2APIClient(
            configuration: .init(servers: .init(token: url), transport: transport, urlPolicy: policy))
        let smart = SMARTAPIClient(
            configuration: .init(servers: .init(fhir: url), transport: transport, urlPolicy: policy))
        let vital = VitalAPIClient(
            configuration: .init(servers: .init(api: url, auth: url), transport: transport, urlPolicy: policy))
        let calls: [(String, () async throws -> Void)] = [
            (
                "HealthVault",
                {
                    _ = try await healthVault.getAuthorizedPeople(
                        session: HealthVaultSessionCredential(token: "t", sharedSecret: "AAAA"))
                }
            ),
            ("Koppeltaal", { _ = try await koppeltaal.conformance() }),
            (
                "OAuth2",
                {
                    _ = try await oauth.requestToken(
                        .refreshToken(.init(refreshToken: "r")),
                        client: OAuthClientCredentials(clientID: "c", secret: "s"))
                }
            ),
            ("SMART", { _ = try await smart.getConfiguration() }),
            ("Vital", { _ = try await vital.refreshToken(.init(refreshToken: "r")) }),
        ]
        var results: [String: Result<Int, any Error>] = [:]
        for (family, call) in calls {
            let before = transport.requests.count
            do {
                try await call()
                results[family] = .success(transport.requests.count - before)
            } catch let error as ConfigurationError {
                results[family] = .failure(error)
                XCTAssertEqual(transport.requests.count, before, "\(family) sent a request to \(base)")
            } catch {
                results[family] = .success(transport.requests.count - before)
            }
        }
        return results
    }

    func testPlainHTTPIsRefusedBeforeAnythingIsSent() async {
        for base in Self.refusedURLs {
            for (family, result) in await outcomes(base: base, policy: URLPolicy()) {
                guard case .failure(let error as ConfigurationError) = result, case .insecureURL = error else {
                    return XCTFail("\(family) did not refuse \(base): \(result)")
                }
            }
        }
        for (family, result) in await outcomes(
            base: "http://api.example.com/v1", policy: URLPolicy(allowsInsecureLoopback: true))
        {
            guard case .failure = result else {
                return XCTFail("\(family): loopback opt-in must not allow another host")
            }
        }
    }

    func testHTTPSAndOptedInLoopbackAreSent() async {
        for (base, policy) in [
            ("https://api.example.com/v1", URLPolicy()),
            ("http://127.0.0.1:8080/v1", URLPolicy(allowsInsecureLoopback: true)),
            ("http://localhost:8080/v1", URLPolicy(allowsInsecureLoopback: true)),
        ] {
            for (family, result) in await outcomes(base: base, policy: policy) {
                guard case .success(let sent) = result, sent == 1 else {
                    return XCTFail("\(family) did not send to \(base): \(result)")
                }
            }
        }
    }
}
