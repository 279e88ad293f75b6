import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInVital

/// A transport that answers from memory, so a call costs only what the SDK does around it.
struct CannedTransport: HTTPTransport {
    let respond: @Sendable (HTTPRequestMessage) throws -> HTTPResponseMessage

    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage { try respond(request) }

    static func json(_ body: String) -> CannedTransport {
        let response = HTTPResponseMessage(
            status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        return CannedTransport { _ in response }
    }
}

/// Whole generated-client calls: against a canned in-memory response (build, sign, send, decode), and against the
/// emulator over 127.0.0.1 with 1, 8 and 64 concurrent tasks.
struct ClientBenchmarks {
    /// The emulator's base URL, or nil to skip the calls over HTTP.
    let emulator: URL?

    func run(into report: Report) async throws {
        try await inMemory(into: report)
        if let emulator { try await overHTTP(emulator, into: report) }
    }

    private func inMemory(into report: Report) async throws {
        let peopleResponse = HTTPResponseMessage(
            status: 200, headers: ["Content-Type": "text/xml"], body: Samples.authorizedPeopleResponse(people: 1))
        let healthVault = HealthVaultAPIClient(
            configuration: .init(
                transport: CannedTransport { _ in peopleResponse }, envelope: .init(clientVersion: "bench/1.0")))
        let people = try await Harness.alternating(iterations: 2_000) {
            _ = try await healthVault.getAuthorizedPeople(session: Samples.session)
        } against: {
            try Self.referenceDecode()
        }
        add("HealthVault GetAuthorizedPeople (sign, send, decode 1 person)", people, into: report)

        let koppeltaal = OAuth2APIClient(
            configuration: .init(
                servers: .init(token: URL(string: "https://kt.example/OAuth2/Koppeltaal/Token")),
                transport: CannedTransport.json(Samples.koppeltaalTokenResponse)
            ))
        let client = OAuthClientCredentials(clientID: "RANJKA", secret: "s&cret")
        let refresh = try await Harness.alternating(iterations: 5_000) {
            _ = try await koppeltaal.requestToken(
                .refreshToken(.init(refreshToken: "e54a2533-df44-4e32-bc4d-820c05b2aed0")), client: client)
        } against: {
            try Self.referenceDecode()
        }
        add("Koppeltaal Token refresh (form, Basic, decode)", refresh, into: report)

        let providersBody =
            #"{"providers": [{"name": "Oura", "slug": "oura", "logo": "https://example.com/oura.png", "status": "connected", "created_on": "2026-01-02T03:04:05+00:00"}]}"#
        let vital = VitalAPIClient(
            configuration: .init(
                servers: .init(api: URL(string: "https://api.sandbox.us.junction.com")),
                transport: CannedTransport.json(providersBody)
            ))
        let user = UUID()
        let providers = try await Harness.alternating(iterations: 5_000) {
            _ = try await vital.getConnectedProviders(
                .init(userID: user), credential: .bearer(BearerToken("vat_0123456789")))
        } against: {
            try Self.referenceDecode()
        }
        add("Vital GetConnectedProviders (Bearer, decode)", providers, into: report)

        let smart = OAuth2APIClient(
            configuration: .init(
                servers: .init(token: URL(string: "https://ehr.example/auth/token")),
                transport: CannedTransport.json(Samples.smartBackendTokenResponse)))
        let signer = try ClientAssertionSigner(key: JSONWebKey(json: Data(Samples.backendKey.utf8)), algorithm: .es384)
        let backend = OAuthClientCredentials(clientID: "service", signer: signer)
        let backendToken = try await Harness.measure(iterations: 1_000) {
            _ = try await smart.requestToken(.clientCredentials(.init(scope: "system/*.rs")), client: backend)
        }
        // The assertion is an ES384 signature, whose cost is the curve's, not the client's: it is reported on its own,
        // and the budget applies to the same call with a client secret in its place (a secret as long as the
        // assertion, in the form as the assertion is), whose time a signature's noise cannot hide.
        let tokenURL = URL(string: "https://ehr.example/auth/token")!
        let assertion = try await Harness.measure(iterations: 1_000) {
            _ = try signer.assertion(clientID: "service", tokenEndpoint: tokenURL)
        }
        let assertionLength = try signer.assertion(clientID: "service", tokenEndpoint: tokenURL).token.count
        let secret = OAuthClientCredentials(
            clientID: "service", secret: String(repeating: "s", count: assertionLength), method: .post)
        let unsigned = try await Harness.alternating(iterations: 5_000) {
            _ = try await smart.requestToken(.clientCredentials(.init(scope: "system/*.rs")), client: secret)
        } against: {
            try Self.referenceDecode()
        }
        report.add(
            Row(
                section: "Client", metric: "SMART ES384 client assertion (claims, sign with P-384)", unit: "µs",
                summary: assertion.scaled(by: 1e6)))
        add(
            "SMART Token client_credentials (form, decode), the assertion's place taken by a secret", unsigned,
            into: report)
        report.add(
            Row(
                section: "Client", metric: "SMART Token client_credentials with its ES384 assertion", unit: "µs/call",
                summary: backendToken.scaled(by: 1e6)))

        // The same call through two middlewares that pass it on, against the bare call measured just before.
        var options = vital.configuration.options
        options.middlewares = [PassThrough(), PassThrough()]
        let layered = VitalAPIClient(configuration: .init(servers: vital.configuration.servers, options: options))
        let through = try await Harness.measure(iterations: 5_000) {
            _ = try await layered.getConnectedProviders(
                .init(userID: user), credential: .bearer(BearerToken("vat_0123456789")))
        }
        let extra = (through.median - providers.subject.median) * 1e6
        report.add(
            Row(
                section: "Client", metric: "Vital GetConnectedProviders through 2 pass-through middlewares",
                unit: "µs/call", summary: through.scaled(by: 1e6),
                note: String(
                    format: "+%.2f µs over the bare call (ratio %.2f)", extra, through.median / providers.subject.median
                )))

        // Building and form-encoding alone: the transport refuses at once.
        let refusing = OAuth2APIClient(
            configuration: .init(
                servers: .init(token: URL(string: "https://kt.example/OAuth2/Koppeltaal/Token")),
                transport: CannedTransport { _ in throw CancellationError() }
            ))
        let encoding = try await Harness.measure(iterations: 5_000) {
            do {
                _ = try await refusing.requestToken(
                    .refreshToken(.init(refreshToken: "e54a2533-df44-4e32-bc4d-820c05b2aed0")), client: client)
            } catch is CancellationError {}
        }
        report.add(
            Row(
                section: "Form", metric: "build + form-encode a refresh request (up to the transport)", unit: "µs",
                summary: encoding.scaled(by: 1e6)))
    }

    /// A call's row: its time, with its budget as a ratio to the reference workload measured beside it.
    private func add(_ metric: String, _ measured: (subject: Summary, reference: Summary), into report: Report) {
        let ratio = measured.subject.median / measured.reference.median
        report.add(
            Row(
                section: "Client", metric: metric, unit: "µs/call", summary: measured.subject.scaled(by: 1e6),
                budget: "≤ \(Report.number(Budgets.clientCallOverReference))× the reference",
                withinBudget: ratio <= Budgets.clientCallOverReference,
                note: String(format: "%.2f× the reference (%.2f µs)", ratio, measured.reference.median * 1e6)))
    }

    /// The fixed workload every call is compared with: Foundation's `JSONDecoder` reading the Koppeltaal seed token
    /// response through its generated `init(from:)`, which is what decoding one small response costs the usual way.
    private static func referenceDecode() throws {
        _ = try JSONDecoder().decode(KoppeltaalTokenResponse.self, from: Data(Samples.koppeltaalTokenResponse.utf8))
    }

    private func overHTTP(_ emulator: URL, into report: Report) async throws {
        let hosts = VitalHosts(
            api: emulator.appendingPathComponent("vital/api"), auth: emulator.appendingPathComponent("vital/auth"))
        let backend = VitalBackend(
            configuration: .init(
                apiKey: APIKey("sk_us_emulator"), environment: .sandboxUS, hosts: .all(hosts),
                urlPolicy: URLPolicy(allowsInsecureLoopback: true)
            ))
        let user = try await backend.user(forClientUserID: "bench").userID
        let client = VitalAPIClient(
            configuration: .init(
                servers: .init(api: hosts.api), transport: DefaultHTTPTransport(),
                urlPolicy: URLPolicy(allowsInsecureLoopback: true)
            ))
        let credential = AccessCredential.apiKey(APIKey("sk_us_emulator"))
        let total = 512
        for concurrency in [1, 8, 64] {
            var rates: [Double] = []
            for run in 0..<4 {
                let seconds = try await Harness.asyncSeconds {
                    try await withThrowingTaskGroup(of: Void.self) { group in
                        for _ in 0..<concurrency {
                            group.addTask {
                                for _ in 0..<(total / concurrency) {
                                    _ = try await client.getConnectedProviders(
                                        .init(userID: user), credential: credential)
                                }
                            }
                        }
                        try await group.waitForAll()
                    }
                }
                if run > 0 { rates.append(Double(total) / seconds) }  // the first run opens the connections
            }
            report.add(
                Row(
                    section: "Client", metric: "Vital GetConnectedProviders over 127.0.0.1, \(concurrency) concurrent",
                    unit: "req/s",
                    summary: Summary(rates), note: "the emulator is a threaded Python server"
                ))
        }
    }
}

/// A middleware that only passes the request on, to measure what the chain itself costs.
private struct PassThrough: HTTPClientMiddleware {
    func intercept(
        _ request: HTTPRequestMessage, operation: OperationID,
        next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        try await next(request)
    }
}
