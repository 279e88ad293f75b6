import Foundation
import HealthSignInCore

/// A SMART App Launch 2 and Backend Services server in the test process, speaking the emulator's wire
/// (`Tests/Emulator/smart.py`): discovery, standalone and EHR launches through a sign-in page a ``TestUserBrowser``
/// answers, PKCE, id tokens (RS256 or ES256), refresh-token rotation, revocation, introspection, FHIR reads, a paged
/// Observation search, writes (create, conditional create, update with `If-Match`, delete), and `client_credentials`
/// with `private_key_jwt`; and, at `<origin>/evil/fhir`, a mix-up attacker.
///
/// ```swift
/// let server = SMARTTestServer()                           // FHIR at https://ehr.test/fhir
/// let context = try await session.authorize(with: server.browser(.approve))
/// server.expireAccessTokens()                              // the next FHIR call refreshes
/// server.revokeAllGrants()                                 // the user revoked the app elsewhere
/// XCTAssertEqual(server.ledger.count(.refreshToken), 1)
/// ```
///
/// Its clients are the emulator's: ``publicClientID``, ``confidentialClientID`` (secret ``confidentialClientSecret``),
/// `smart-asymmetric` and ``backendClientID``, which authenticate with the SMART IG's published example keys;
/// ``register(_:)`` adds your own.
public final class SMARTTestServer: TestServer {
    /// A public app, `smart-public`.
    public static let publicClientID = "smart-public"
    /// A confidential app with a secret, `smart-confidential`.
    public static let confidentialClientID = "smart-confidential"
    /// Its secret, which holds a space and a plus: `smart-secret 1+x`.
    public static let confidentialClientSecret = "smart-secret 1+x"
    /// An app that authenticates with the IG's example keys, `smart-asymmetric`.
    public static let asymmetricClientID = "smart-asymmetric"
    /// A backend service with the IG's example keys and `system/*.rs`, `smart-backend`.
    public static let backendClientID = "smart-backend"
    /// The redirect URIs every default app registered.
    public static let redirectURIs = ["http://127.0.0.1/smart/callback", "sdkdemo://smart/callback"]

    /// The FHIR base, such as `https://ehr.test/fhir`; the authorization server lives beside it, under its parent.
    public let fhirBaseURL: URL
    let core: TestServerCore<Operation>
    let state = LockedValue(SMARTServerState())

    /// Creates a server whose FHIR base is `fhirBaseURL`.
    ///
    /// - Parameters:
    ///   - fhirBaseURL: the FHIR base; `<parent>/auth/authorize`, `<parent>/auth/token` and `<parent>/jwks` are the
    ///     authorization server's, as on the emulator.
    ///   - clock: the time codes, tokens and id tokens are dated and expire by; a ``ManualClock`` lets a test move it.
    ///   - random: where codes and tokens come from; a ``SeededRandomSource`` makes them the same on every run.
    public init(
        fhirBaseURL: URL = URL(string: "https://ehr.test/fhir")!, clock: any TimeSource = SystemClock(),
        random: any RandomSource = SystemRandomSource()
    ) {
        self.fhirBaseURL = fhirBaseURL
        core = TestServerCore(origins: [fhirBaseURL], clock: clock, random: random)
    }

    /// The root of the authorization server: the FHIR base's parent.
    var root: URL { fhirBaseURL.deletingLastPathComponent() }
    /// The authorization endpoint.
    public var authorizationURL: URL { root.appendingPathComponent("auth/authorize") }
    /// The token endpoint.
    public var tokenURL: URL { root.appendingPathComponent("auth/token") }
    /// The revocation endpoint.
    public var revocationURL: URL { root.appendingPathComponent("auth/revoke") }
    /// The introspection endpoint.
    public var introspectionURL: URL { root.appendingPathComponent("auth/introspect") }
    /// The key set id tokens are checked with.
    public var jwksURL: URL { root.appendingPathComponent("jwks") }
    /// The mix-up attacker's FHIR base, on the server's own origin: `<origin>/evil/fhir`.
    public var attackerFHIRBaseURL: URL {
        URL(string: (TestServerNames.origin(fhirBaseURL) ?? "") + "/evil/fhir") ?? fhirBaseURL
    }

    /// A browser whose user answers the sign-in page with `decision`.
    public func browser(_ decision: TestUserDecision = .approve) -> TestUserBrowser {
        TestUserBrowser(transport: transport, decision: decision)
    }

    /// How the server behaves; change it at any time.
    public var settings: Settings {
        get { state.current.settings }
        set { state.withValue { $0.settings = newValue } }
    }

    /// Answers at `origin` too, as the same server reached under another name: for apps that talk to several
    /// servers, or an issuer on a host of its own.
    public func serve(origin: URL) { core.serve(origin) }

    /// Registers `client` (replacing one with its id).
    public func register(_ client: Client) { state.withValue { $0.clients[client.id] = client } }

    /// Mints an EHR launch and returns its `launch` id; the EHR opens the app's launch URL with it and `iss` set to
    /// ``fhirBaseURL``.
    public func mintLaunch(_ launch: EHRLaunch) -> String {
        let id = core.token(bytes: 16)
        let expiry = core.now.addingTimeInterval(launch.lifetime)
        state.withValue { $0.launches[id] = .init(launch: launch, expiresAt: expiry) }
        return id
    }

    /// The URL an EHR opens to launch the app at `appLaunchURL`: with `iss` and a freshly minted `launch`.
    public func launchURL(opening appLaunchURL: URL, with launch: EHRLaunch) -> URL {
        guard var components = URLComponents(url: appLaunchURL, resolvingAgainstBaseURL: false) else {
            return appLaunchURL
        }
        let items = components.queryItems ?? []
        components.queryItems =
            items + [
                URLQueryItem(name: "iss", value: fhirBaseURL.absoluteString),
                URLQueryItem(name: "launch", value: mintLaunch(launch)),
            ]
        return components.url ?? appLaunchURL
    }

    /// Ends the life of every access token issued so far: the next FHIR call gets `invalid_token` and refreshes.
    public func expireAccessTokens() {
        let past = core.now.addingTimeInterval(-1)
        state.withValue { state in
            for token in state.access.keys { state.access[token]?.expiresAt = past }
        }
    }

    /// Answers the next refresh with `invalid_grant` and ends its grant.
    ///
    /// The SDK erases the grant: the call fails with `SignInError` of code `.needsSignIn` and the session's status
    /// is `.signedOut`, because only the user can start a new authorization. Koppeltaal's session does the same
    /// (it needs a new launch); Vital's keeps its user, marked for re-authentication (see
    /// ``VitalTestServer/refuseNextRefresh()``).
    public func refuseNextRefresh() { state.withValue { $0.refuseNextRefresh = true } }

    /// Rotates the next refresh token and then loses the response: the app gets a dropped connection, and the
    /// refresh token it still holds is already dead.
    public func loseNextRefreshResponse() { state.withValue { $0.loseNextRefreshResponse = true } }

    /// Revokes every grant, as the user does by revoking the app in the EHR's portal: refresh and access tokens stop
    /// working.
    public func revokeAllGrants() {
        state.withValue { state in
            for token in state.refresh.keys { state.revoke(refreshToken: token) }
            for token in state.access.keys { state.access[token]?.revoked = true }
        }
    }

    /// Signs id tokens with new keys from now on and publishes only those: an app must fetch the key set again.
    public func rotateSigningKeys() { state.withValue { $0.rotatedKeys.toggle() } }

    /// How many refresh tokens would still be accepted.
    public var liveRefreshTokens: Int { state.current.refresh.values.filter { !$0.revoked }.count }

    /// How many `private_key_jwt` assertions were refused.
    public var rejectedAssertions: Int { state.current.assertionsRejected }

    /// How often the mix-up attacker's authorization endpoint was opened.
    public var attackerAuthorizations: Int { state.current.attackerAuthorizations }

    /// What the mix-up attacker's token endpoint received: the honest server's code, the PKCE verifier, a
    /// credential, if the app was misled.
    public var attackerTokenRequests: [AttackerTokenRequest] { state.current.attackerTokenRequests }

    /// For each search that followed a next link to the attacker's FHIR base, whether it carried an `Authorization`
    /// header (the app's access token).
    public var attackerSearches: [Bool] { state.current.attackerSearches }

    /// One request to the attacker's token endpoint.
    public struct AttackerTokenRequest: Sendable, Hashable {
        /// The form fields' names, sorted (their values stay secret).
        public let fields: [String]
        /// Whether it carried an `Authorization` header.
        public let hadAuthorization: Bool
    }

    /// The SMART IG's example public keys (RS384 and P-384), which `smart-asymmetric` and `smart-backend` registered;
    /// their private halves are published with the IG.
    public static let implementationGuideKeys: JSONWebKeySet = {
        let json = #"""
            {"keys": [
            {"kty": "RSA", "alg": "RS384", "kid": "eee9f17a3b598fd86417a980b591fbe6", "e": "AQAB",
             "n": "wJq2RHIA-7RT6q4go7wjcbHdW7ck7Kz22A8wf-kN7Wi5CWvhFG2_Y7nQp1lDpb2IKMQr-Q4n_vgJ6d5rWPspJpSPY7iffUK4ipQCEbzID5DJ6fQMBZOfCTXyxkuMh3jYGKEF3Ziw2oxbM1H9j-eJAPtrj5stUG6kVoXowegdox-bSjWP0iI5PnkwUNzcekLMug4M3LRluEQgGR9O_BAML6-w3igZ_rZA_gunyrLAMbfmCVaceW5ohLp679kyM7U6W2gDK_NbkDKcINUakVmPeoG5h8RzgGzvGrySR0k0VDFiZv60Ua07DqHTeDGH9e4NV07AECae-oykIj5NDCs3pw"},
            {"kty": "EC", "crv": "P-384", "alg": "ES384", "kid": "afb27c284f2d93959c18fa0320e32060",
             "x": "wcE8O55ro6aOuTf5Ty1k_IG4mTcuLiVercHouge1G5Ri-leevhev4uJzlHpi3U8r",
             "y": "mLRgz8Giu6XA_AqG8bywqbygShmd8jowflrdx0KQtM5X4s4aqDeCRfcpexykp3aI"}]}
            """#
        // The literal is the IG's published key set; a failure here is a broken build of the kit.
        guard let keys = try? JSONWebKeySet(json: Data(json.utf8)) else {
            preconditionFailure("the IG keys are invalid")
        }
        return keys
    }()

    /// The private half of the IG's P-384 example key (`ES384`, kid `afb27c284f2d93959c18fa0320e32060`), published
    /// with the SMART App Launch IG: what a service registered as ``backendClientID`` (or ``asymmetricClientID``)
    /// signs its client assertions with, here and against the emulator's SMART server, which registered the same
    /// keys. It is a test key: everyone has it. ``backendPrivateKeyJWK`` is the same key as JSON, for a setting such as
    /// `SMART_PRIVATE_KEY`.
    ///
    /// ```swift
    /// let signer = try ClientAssertionSigner(key: SMARTTestServer.backendPrivateKey, algorithm: .es384)
    /// ```
    public static let backendPrivateKey: JSONWebKey = {
        // The literal is the IG's published key; a failure here is a broken build of the kit.
        guard let key = try? JSONWebKey(json: Data(backendPrivateKeyJWK.utf8)) else {
            preconditionFailure("the IG key is invalid")
        }
        return key
    }()

    /// ``backendPrivateKey`` as a JSON Web Key, on one line.
    public static let backendPrivateKeyJWK =
        #"{"kty": "EC", "crv": "P-384", "x": "wcE8O55ro6aOuTf5Ty1k_IG4mTcuLiVercHouge1G5Ri-leevhev4uJzlHpi3U8r", "#
        + #""y": "mLRgz8Giu6XA_AqG8bywqbygShmd8jowflrdx0KQtM5X4s4aqDeCRfcpexykp3aI", "#
        + #""d": "WcrTiYk8jbI-Sd1sKNpqGmELWGG08bf_y9SSlnC4cpAl5GRdHHN9gKYlPvMFqiJ5", "#
        + #""kid": "afb27c284f2d93959c18fa0320e32060", "alg": "ES384"}"#

    static let defaultClients: [String: Client] = [
        publicClientID: Client(id: publicClientID, authentication: .none),
        confidentialClientID: Client(id: confidentialClientID, authentication: .secretBasic(confidentialClientSecret)),
        asymmetricClientID: Client(id: asymmetricClientID, authentication: .privateKeyJWT(implementationGuideKeys)),
        backendClientID: Client(
            backendService: backendClientID, keys: implementationGuideKeys,
            scopes: ["system/*.rs", "system/Patient.rs", "system/Observation.rs"]),
    ]
}
