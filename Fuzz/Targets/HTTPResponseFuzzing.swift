import Dispatch
import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInVital

/// Gives the input to every generated client method as the server's answer, with a status and content type chosen
/// by its length (so that a fixture body seeds it unchanged). This reaches each method's response decoding,
/// error-body selection and typed errors (OAuth 2.0, OperationOutcome, Vital, HealthVault status) the way a real
/// response would.
enum HTTPResponseFuzzing {
    private static let statuses = [200, 400, 401, 404, 429, 500, 503, 204]
    private static let contentTypes = [
        "application/json", "application/json+fhir; charset=utf-8", "application/xml+fhir", "text/xml", "text/html", "",
        "application/x-www-form-urlencoded", "application/fhir+json",
    ]

    static func run(_ data: Data) {
        let status = statuses[data.count % statuses.count]
        let contentType = contentTypes[data.count / statuses.count % contentTypes.count]
        var headers: HTTPHeaderFields = contentType.isEmpty ? [:] : ["Content-Type": contentType]
        headers["Retry-After"] = "7"
        let response = HTTPResponseMessage(status: status, headers: headers, body: data)
        let transport = CannedTransport(response: response)
        blocking {
            await koppeltaal(transport)
            await vital(transport)
            await healthVault(transport)
            await smart(transport)
        }
    }

    private static func koppeltaal(_ transport: CannedTransport) async {
        let server = URL(string: "https://kt.example/OAuth2/Koppeltaal")
        let client = KoppeltaalAPIClient(
            configuration: .init(
                servers: .init(fhir: server, launch: server, authorize: server), transport: transport
            ))
        _ = try? await client.conformance()
        _ = try? await client.smartConfiguration()
        _ = try? await client.mobileLaunch(
            .init(clientID: "c", patient: "p", user: "u"), credentials: BasicCredentials(username: "a", password: "b"))
        _ = try? await client.mobileAuthorize(
            .init(clientID: "c", redirectURI: "app://cb", scope: "launch:1", state: "s"))
        if let response = try? await oauthClient(transport).requestToken(
            .refreshToken(.init(refreshToken: "r")), client: OAuthClientCredentials(clientID: "client"))
        {
            _ = try? KoppeltaalTokenResponse(extending: response)
        }
    }

    /// The OAuth 2.0 methods every OAuth family sends.
    private static func oauthClient(_ transport: CannedTransport) -> OAuth2APIClient {
        let server = URL(string: "https://auth.example/oauth")
        return OAuth2APIClient(
            configuration: .init(
                servers: .init(
                    token: server, revocation: server, introspection: server, jwks: server, metadata: server),
                transport: transport))
    }

    private static func vital(_ transport: CannedTransport) async {
        let server = URL(string: "https://api.example.com")
        let client = VitalAPIClient(
            configuration: .init(servers: .init(api: server, auth: server), transport: transport))
        let key = APIKey("key")
        let user = UUID()
        _ = try? await client.createUser(.init(clientUserID: "u"), apiKey: key)
        _ = try? await client.resolveUser(.init(clientUserID: "u"), apiKey: key)
        _ = try? await client.deleteUser(.init(userID: user), apiKey: key)
        _ = try? await client.createSignInToken(.init(userID: user), apiKey: key)
        _ = try? await client.exchangeSignInToken(.init(subjectToken: "jwt"))
        _ = try? await client.refreshToken(.init(refreshToken: "r"))
        _ = try? await client.getConnectedProviders(.init(userID: user), credential: .bearer(BearerToken("t")))
    }

    private static func smart(_ transport: CannedTransport) async {
        let server = URL(string: "https://ehr.example/fhir")
        let client = SMARTAPIClient(configuration: .init(servers: .init(fhir: server), transport: transport))
        let oauth = OAuthClientCredentials(clientID: "client", secret: "secret")
        let oauthClient = oauthClient(transport)
        _ = try? await client.getConfiguration()
        _ = try? await oauthClient.getServerMetadata()
        _ = try? await oauthClient.getKeys()
        if let response = try? await oauthClient.requestToken(
            .authorizationCode(.init(code: "c", redirectURI: "app://cb", codeVerifier: "v")), client: oauth)
        {
            _ = try? SMARTTokenResponse(extending: response)
        }
        _ = try? await oauthClient.requestToken(.refreshToken(.init(refreshToken: "r")), client: oauth)
        _ = try? await oauthClient.revoke(.init(token: "t"), client: oauth)
        if let response = try? await oauthClient.introspect(.init(token: "t"), token: BearerToken("b")) {
            _ = try? SMARTIntrospection(extending: response)
        }
    }

    private static func healthVault(_ transport: CannedTransport) async {
        let client = HealthVaultAPIClient(
            configuration: .init(transport: transport, envelope: .init(clientVersion: "fuzz")))
        let session = HealthVaultSessionCredential(
            token: "token", sharedSecret: Data(repeating: 1, count: 32).base64EncodedString())
        _ = try? await client.getAuthorizedPeople(session: session)
    }

    /// Runs `operation` to completion on the calling thread, which libFuzzer owns (it is not one of the concurrency
    /// pool's threads, so waiting here cannot starve them).
    ///
    /// It returns only once the task has also released what it captured: the leak checker counts the allocations of
    /// one input, and a task that signalled but had not yet been freed would look like a leak of the input.
    private static func blocking(_ operation: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        let sentinel = Sentinel()
        weak let released = sentinel
        Task { [sentinel] in
            withExtendedLifetime(sentinel) {}
            await operation()
            done.signal()
        }
        _ = consume sentinel
        done.wait()
        let deadline = DispatchTime.now() + .seconds(1)
        while released != nil, DispatchTime.now() < deadline { sched_yield() }
    }

    private final class Sentinel: Sendable {}
}

/// A transport that answers every request with one response.
struct CannedTransport: HTTPTransport {
    let response: HTTPResponseMessage

    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage { response }
}
