import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTesting
import HealthSignInVital

/// A thousand concurrent calls that all find the access token expired, against an in-memory transport: how many
/// refresh requests go out (the budget is one) and how long until every call is done.
struct RefreshBenchmarks {
    static let callers = 1_000

    func run(into report: Report) async throws {
        try await measure("Vital: \(Self.callers) concurrent calls, expired token", into: report, setUp: Self.vital)
        try await measure(
            "Koppeltaal: \(Self.callers) concurrent calls, expired token", into: report, setUp: Self.koppeltaal)
        try await measure(
            "SMART app: \(Self.callers) concurrent calls, expired token", into: report, setUp: Self.smartApp)
        try await measure(
            "SMART backend: \(Self.callers) concurrent calls, no token yet", requests: "client_credentials",
            into: report, setUp: Self.smartBackend)
    }

    /// A Vital session whose token expired.
    private static func vital(_ refreshes: LockedValue<Int>) async throws -> @Sendable () async throws -> Void {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let token = HTTPResponseMessage(
            status: 200, headers: ["Content-Type": "application/json"], body: Data(Samples.vitalTokenResponse.utf8))
        let providers = HTTPResponseMessage(
            status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"providers": []}"#.utf8))
        let core = VitalSession(
            configuration: .init(
                store: InMemoryCredentialStore(),
                transport: CannedTransport { request in
                    guard request.url.path.hasSuffix("/v1/token") else { return providers }
                    if Self.isRefresh(request) { refreshes.withValue { $0 += 1 } }
                    return token
                }, clock: clock))
        try await core.signIn(token: Samples.vitalSignInToken(userID: UUID()))
        clock.advance(by: 7_200)
        return { _ = try await core.connectedProviders() }
    }

    /// A Koppeltaal session whose token expired.
    private static func koppeltaal(_ refreshes: LockedValue<Int>) async throws -> @Sendable () async throws -> Void {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let authorize = Self.json(#"{"authorization_code": "code-1"}"#)
        let token = Self.json(Samples.koppeltaalTokenResponse)
        let fhir = Self.json("{}")
        let transport = CannedTransport { request in
            if request.url.path.hasSuffix("/Authorize") { return authorize }
            guard request.url.path.hasSuffix("/Token") else { return fhir }
            if Self.isRefresh(request) { refreshes.withValue { $0 += 1 } }
            return token
        }
        let session = KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: URL(string: "https://kt.example/FHIR/Koppeltaal")!,
                    client: OAuthClientCredentials(clientID: "RANJKA", secret: "s", method: .unencodedBasic),
                    redirectURI: "app://after-auth",
                    endpoints: EndpointOverrides(
                        authorization: URL(string: "https://kt.example/OAuth2/Koppeltaal/Authorize"),
                        token: URL(string: "https://kt.example/OAuth2/Koppeltaal/Token"))),
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport), clock: clock)))
        _ = try await session.activate(code: "593740")
        clock.advance(by: 3_600)
        return { _ = try await session.fhir(.fhir("Patient", id: "72308")) }
    }

    /// A SMART app session whose token expired.
    private static func smartApp(_ refreshes: LockedValue<Int>) async throws -> @Sendable () async throws -> Void {
        let clock = ManualClock(Date(timeIntervalSince1970: 1_800_000_000))
        let transport = CannedTransport { request in
            switch request.url.path {
            case "/fhir/.well-known/smart-configuration": return Self.json(Samples.smartConfiguration)
            case "/auth/token":
                if Self.isRefresh(request) { refreshes.withValue { $0 += 1 } }
                return Self.json(Samples.smartTokenResponse)
            default: return Self.json("{}")
            }
        }
        let session = SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: URL(string: "https://ehr.example/fhir")!,
                    client: OAuthClientCredentials(clientID: "app"),
                    redirectURI: "app://cb"),
                scope: "launch/patient offline_access patient/*.rs",
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport), clock: clock)))
        let url = try await session.standaloneAuthorizationURL()
        let state =
            URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "state" }?.value ?? ""
        _ = try await session.completeAuthorization(redirectURL: URL(string: "app://cb?code=c&state=\(state)")!)
        clock.advance(by: 7_200)
        return { _ = try await session.fhir(.fhir("Patient", id: "123")) }
    }

    /// A SMART backend client before its first token.
    private static func smartBackend(_ tokenRequests: LockedValue<Int>) async throws
        -> @Sendable () async throws -> Void
    {
        let signer = try ClientAssertionSigner(
            key: JSONWebKey(json: Data(Samples.backendKey.utf8)), algorithm: .es384)
        let transport = CannedTransport { request in
            guard request.url.path == "/auth/token" else { return Self.json("{}") }
            tokenRequests.withValue { $0 += 1 }
            return Self.json(Samples.smartBackendTokenResponse)
        }
        let backend = SMARTBackendClient(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: URL(string: "https://ehr.example/fhir")!,
                    client: OAuthClientCredentials(clientID: "service", signer: signer),
                    endpoints: EndpointOverrides(token: URL(string: "https://ehr.example/auth/token"))),
                scope: "system/*.rs",
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport))))
        return { _ = try await backend.fhir(.fhir("Patient", id: "123")) }
    }

    private static func json(_ body: String) -> HTTPResponseMessage {
        HTTPResponseMessage(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
    }

    private static func isRefresh(_ request: HTTPRequestMessage) -> Bool {
        String(decoding: request.body ?? Data(), as: UTF8.self).contains("grant_type=refresh_token")
    }

    /// Runs `setUp` for a fresh signed-in client five times, each time starting the calls it returns all at once;
    /// `setUp` counts the `requests` (refresh, or the grant that replaces it) that go out.
    private func measure(
        _ metric: String, requests: String = "refresh", into report: Report,
        setUp: (LockedValue<Int>) async throws -> @Sendable () async throws -> Void
    ) async throws {
        var times: [Double] = []
        var counts: [Int] = []
        for _ in 0..<5 {
            let refreshes = LockedValue(0)
            let call = try await setUp(refreshes)
            times.append(
                try await Harness.asyncSeconds {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for _ in 0..<Self.callers { group.addTask { try await call() } }
                        try await group.waitForAll()
                    }
                })
            counts.append(refreshes.current)
        }
        report.add(
            Row(
                section: "Refresh", metric: metric, unit: "ms", summary: Summary(times).scaled(by: 1000),
                budget: "exactly 1 \(requests) request", withinBudget: counts.allSatisfy { $0 == 1 },
                note: "\(requests) requests per run: " + counts.map(String.init).joined(separator: ", ")
            ))
    }
}
