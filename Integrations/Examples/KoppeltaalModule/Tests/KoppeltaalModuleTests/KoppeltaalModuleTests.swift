import Foundation
import HealthSignInKoppeltaal2
import HealthSignInTesting
import Hummingbird
import HummingbirdTesting
import KoppeltaalModule
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The example module served on a port of its own, in the emulator's Koppeltaal 2.0 domain (which `make integrations`
/// starts): the auth service fetches the module's JWKS from it, a portal's launch reaches the user's page through
/// SHOF, and the FHIR server's notifications lead the module to the completed task.
final class KoppeltaalModuleTests: XCTestCase {
    private var emulator: URL!

    override func setUp() async throws {
        emulator = try XCTUnwrap(URL(string: try variable("EMULATOR_URL")))
        _ = try await control("reset")
    }

    func testALaunchReachesTheUsersTaskAndANotificationTheCompletedTask() async throws {
        let port = try freePort()
        let moduleURL = try XCTUnwrap(URL(string: "http://127.0.0.1:\(port)"))
        let module = try Module(settings: try settings(moduleURL: moduleURL))
        try await register(moduleURL: moduleURL)
        let portalKey = try fixtureKey("test-p256")
        try await registerPortal(key: portalKey)
        _ = try await control(
            "koppeltaal2/resources",
            ["resource": ["resourceType": "Patient", "id": "p1", "identifier": [["value": "p1@example.org"]]]])
        let browser = DefaultHTTPTransport(timeout: 5)
        let fhirBase = self.fhirBase
        try await serve(module, port: port) {
            // The auth service checks the module's token requests with the JWKS the module now serves.
            let created = try await module.fhir.create(
                KT2Task(
                    identifier: [KT2Identifier(value: "t")], status: .ready, intent: "order",
                    for: KT2Reference(reference: "Patient/p1"), owner: KT2Reference(reference: "Patient/p1")))
            let taskID = try XCTUnwrap(created.resource.id)
            let launch = try HTILaunchComposer(clientID: "portal-1", key: portalKey, algorithm: .es256).launch(
                HTILaunchContext(
                    issuer: "portal-1", audience: "Device/module-1", subject: "Patient/p1", resource: "Task/\(taskID)"),
                to: moduleURL.appendingPathComponent("launch"), fhirBaseURL: fhirBase)
            // The portal's page posts the launch in the user's browser.
            let launched = try await browser.send(
                HTTPRequestMessage(
                    method: .post, url: launch.action,
                    headers: ["Content-Type": "application/x-www-form-urlencoded"], body: launch.body))
            XCTAssertEqual(launched.status, 303, String(decoding: launched.body, as: UTF8.self))
            let cookie = try XCTUnwrap(launched.headers["Set-Cookie"]?.split(separator: ";").first).description
            let location = try XCTUnwrap(launched.headers["Location"].flatMap(URL.init(string:)))
            // The auth service, the identity provider, and back to the module's redirect URI.
            let redirect = try await RedirectFollowingBrowser(transport: browser).authorize(
                location, callback: try XCTUnwrap(AuthorizationCallback(redirectURI: module.settings.redirectURI)))
            let page = try await browser.send(
                HTTPRequestMessage(method: .get, url: redirect, headers: ["Cookie": cookie]))
            let text = String(decoding: page.body, as: UTF8.self)
            XCTAssertEqual(page.status, 200, text)
            XCTAssertTrue(text.contains("Task/\(taskID)"), text)
            XCTAssertTrue(text.contains("Status: ready"), text)
            XCTAssertTrue(text.contains("signed in as Patient/p1"), text)
            let again = try await browser.send(HTTPRequestMessage(method: .get, url: redirect))
            XCTAssertEqual(again.status, 400, "no cookie, no sign-in")

            // The module subscribes to completed tasks; completing the task notifies it.
            _ = try await module.fhir.create(
                KT2Subscription(
                    status: .requested, reason: "completed tasks", criteria: "Task?status=completed",
                    channel: .init(
                        endpoint: moduleURL.appendingPathComponent("notifications").absoluteString,
                        header: [module.subscriptionHeader])))
            let current = try await module.fhir.read(KT2Task.self, id: taskID)
            _ = try await module.fhir.update(current.resource.with(status: .completed), replacing: current)
            var completed: [String] = []
            for _ in 0..<50 where completed.isEmpty {
                try await Task.sleep(nanoseconds: 100_000_000)
                completed = await module.completedTasks.ids
            }
            XCTAssertEqual(completed, [taskID])
            let forged = try await browser.send(
                HTTPRequestMessage(method: .post, url: moduleURL.appendingPathComponent("notifications")))
            XCTAssertEqual(forged.status, 401, "a notification without the header")
        }
    }

    /// Serves `module` on `port` of 127.0.0.1 while `test` runs.
    private func serve(_ module: Module, port: Int, _ test: @Sendable () async throws -> Void) async throws {
        let (running, started) = AsyncStream<Void>.makeStream()
        let app = Application(
            router: module.router(), configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { _ in started.yield() })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService(gracefulShutdownSignals: []) }
            for await _ in running { break }
            defer { group.cancelAll() }
            try await test()
        }
    }

    func testTheJWKSIsServedWithItsCachingAndTheSettingsNameWhatIsMissing() async throws {
        let module = try Module(settings: try settings(moduleURL: try XCTUnwrap(URL(string: "http://127.0.0.1:1"))))
        try await Application(router: module.router()).test(.router) { client in
            try await client.execute(uri: "/.well-known/jwks.json", method: .get) { response in
                XCTAssertEqual(response.status, .ok)
                XCTAssertEqual(response.headers[.cacheControl], "public, max-age=60")
                let keys = try JSONWebKeySet(json: Data(buffer: response.body)).keys
                XCTAssertEqual(keys.map(\.keyID), ["module-key"])
                XCTAssertFalse(keys.contains { $0.isPrivate }, "only the public half is served")
            }
        }
        XCTAssertThrowsError(try ModuleSettings.fromEnvironment(["KT2_PRIVATE_KEY_PEM": "x", "KT2_KEY_ID": "k"])) {
            XCTAssertEqual(($0 as? ModuleSettings.Problem)?.variable, "KT2_PRIVATE_KEY_PEM", "\($0)")
        }
    }

    // MARK: - The domain

    private var fhirBase: URL { emulator.appendingPathComponent("koppeltaal2/fhir") }

    private func settings(moduleURL: URL) throws -> ModuleSettings {
        ModuleSettings(
            clientID: "module-1", device: "Device/module-1", fhirBaseURL: fhirBase, trustedHosts: [],
            key: try JSONWebKey(json: Data(Self.moduleKey.utf8)), moduleURL: moduleURL,
            sealing: try CredentialSealing(keys: ["test": Data(repeating: 7, count: 32)], current: "test"),
            subscriptionSecret: "s3cret-notifications", allowsLoopbackHTTP: true)
    }

    /// Registers the module as the domain admin does: its JWKS at the module itself, its redirect URI.
    private func register(moduleURL: URL) async throws {
        _ = try await control(
            "koppeltaal2/apps",
            [
                "client_id": "module-1", "role": "module",
                "jwks_url": moduleURL.appendingPathComponent(".well-known/jwks.json").absoluteString,
                "redirect_uris": [moduleURL.appendingPathComponent("shof").absoluteString],
            ])
    }

    /// Registers the launching portal, its JWKS hosted by the emulator.
    private func registerPortal(key: JSONWebKey) async throws {
        let jwks = try JSONSerialization.jsonObject(with: try Koppeltaal2KeySet(keys: [key]).document())
        let hosted = try await control("koppeltaal2/jwks", ["name": "portal-1", "jwks": jwks])
        _ = try await control(
            "koppeltaal2/apps",
            ["client_id": "portal-1", "jwks_url": try XCTUnwrap(hosted["jwks_url"] as? String), "role": "portal"])
    }

    private func fixtureKey(_ id: String) throws -> JSONWebKey {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("../../../Tests/Fixtures/JOSE/test-keys.json")
            .standardized
        return try XCTUnwrap(try JSONWebKeySet(json: try Data(contentsOf: fixtures)).keys.first { $0.keyID == id })
    }

    /// The SMART IG's P-384 key (its private part is published for reproducibility), as the module's key.
    private static let moduleKey = """
        {"kty": "EC", "crv": "P-384",
         "x": "wcE8O55ro6aOuTf5Ty1k_IG4mTcuLiVercHouge1G5Ri-leevhev4uJzlHpi3U8r",
         "y": "mLRgz8Giu6XA_AqG8bywqbygShmd8jowflrdx0KQtM5X4s4aqDeCRfcpexykp3aI",
         "d": "WcrTiYk8jbI-Sd1sKNpqGmELWGG08bf_y9SSlnC4cpAl5GRdHHN9gKYlPvMFqiJ5",
         "kid": "module-key", "alg": "ES384"}
        """

    // MARK: - Plumbing

    /// A port of 127.0.0.1 nothing listens on now, for the module to be registered at before it starts.
    private func freePort() throws -> Int {
        let listener = try ServerSocket()
        defer { listener.close() }
        return listener.port
    }

    private func variable(_ name: String) throws -> String {
        guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty else {
            throw MissingVariable(name: name)
        }
        return value
    }

    @discardableResult
    private func control(_ path: String, _ body: [String: Any] = [:]) async throws -> [String: Any] {
        var request = URLRequest(url: emulator.appendingPathComponent("_control/" + path))
        request.httpMethod = "POST"
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, _) = try await URLSession.shared.data(for: request)
        return (try JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:]
    }
}

/// A variable `make integrations` sets is missing: the tests need the emulator it starts.
struct MissingVariable: Error, CustomStringConvertible {
    let name: String
    var description: String { "\(name) is not set: run these tests with make integrations" }
}

/// A TCP socket bound to a free port of 127.0.0.1, closed before the module binds the port.
private struct ServerSocket {
    let descriptor: Int32
    let port: Int

    init() throws {
        #if canImport(Glibc)
            descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let socketDescriptor = descriptor
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(socketDescriptor, socketAddress, length) == 0
                    && getsockname(socketDescriptor, socketAddress, &length) == 0
            }
        }
        guard socketDescriptor >= 0, bound else { throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }
}
