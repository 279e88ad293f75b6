import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInOAuth

/// The app's side of SMART App Launch: standalone and EHR launch with PKCE, the redirect, OpenID Connect sign-in,
/// the token lifecycle, FHIR calls and revocation.
///
/// ```swift
/// let session = SMARTSession(configuration: .init(
///     clientID: "my-app", redirectURI: "myapp://smart/callback",
///     fhirBaseURL: URL(string: "https://ehr.example.com/fhir")!,
///     store: try CredentialStores.secure(service: "app.smart")))
/// let context = try await session.authorize(with: browser)
/// let patient = try await session.fhir(.fhir("Patient", id: context.patient))
/// ```
///
/// The OAuth layer does the work: the pending request (state, PKCE verifier, nonce) is stored until its redirect
/// arrives, so it survives the app being ended while the user is in the browser; the answer is matched to it by its
/// redirect URI, `state` and issuer; the code is redeemed and the id token checked; the grant lives in an
/// `OAuthSession`, where new tokens are written to the store before they are used, a rotated refresh token replaces
/// the old one, and concurrent calls that find the access token expired share one refresh. Only `invalid_grant`
/// (and `unauthorized_client`) on refresh, or a refresh's id token for another user, ends the grant; network errors,
/// 5xx and 429 never do. Every error of the layer is a `SignInError`.
public final class SMARTSession: OAuthClientSession {
    /// The app's registrations, what it asks for, and how the session reaches servers and keeps its state.
    public struct Configuration: Sendable {
        /// The FHIR servers the app is registered at, each with its own client, credential, redirect URI and
        /// trusted hosts, so that no server ever receives another's credential or code (RFC 9700 §4.4). An EHR
        /// launch whose `iss` is none of them is refused before anything is sent to it.
        public var registrations: [OAuthRegistration]
        /// The FHIR server of a standalone launch: the base URL of one of ``registrations``.
        public var standaloneServer: URL?
        /// The scopes asked for; an EHR launch adds `launch` when missing.
        public var scope: String
        /// What the app adds to every authorization request: OpenID Connect's `prompt`, and parameters of its own.
        ///
        /// Without a `prompt` of the app's, a request whose scope holds both `openid` and `offline_access` sends
        /// `prompt=consent`: OpenID Connect Core §11 lets a provider grant offline access only then, and strict
        /// providers otherwise drop `offline_access` and issue no refresh token. EHRs that do not follow that rule
        /// ignore it or show a consent page once. An empty `prompt` sends none.
        public var authorization: AuthorizationParameters
        /// How id tokens are checked.
        public var openID: OpenIDPolicy
        /// The store, its key, the connection (transport, URL policy, timeout, logger, middlewares), the refresh
        /// skew, how long an authorization may wait, the clock and the randomness.
        public var session: OAuthSessionSettings

        /// The scope asked for by default.
        public static let defaultScope = "launch/patient openid fhirUser offline_access patient/*.rs"

        /// A configuration for the servers of `registrations`.
        ///
        /// - Parameters:
        ///   - registrations: the FHIR servers the app is registered at.
        ///   - standaloneServer: the base URL of the one a standalone launch uses.
        ///   - scope: the scopes to ask for.
        ///   - authorization: `prompt` and parameters of the app's own for every authorization request.
        ///   - openID: how id tokens are checked.
        ///   - session: the store, the connection, the clock and the other settings of the session.
        public init(
            registrations: [OAuthRegistration], standaloneServer: URL? = nil, scope: String = defaultScope,
            authorization: AuthorizationParameters = .init(), openID: OpenIDPolicy = .init(),
            session: OAuthSessionSettings
        ) {
            self.registrations = registrations
            self.standaloneServer = standaloneServer
            self.scope = scope
            self.authorization = authorization
            self.openID = openID
            self.session = session
        }

        /// A configuration for one FHIR server, of standalone launches and of EHR launches that name it.
        public init(
            registration: OAuthRegistration, scope: String = defaultScope,
            authorization: AuthorizationParameters = .init(),
            openID: OpenIDPolicy = .init(), session: OAuthSessionSettings
        ) {
            self.init(
                registrations: [registration], standaloneServer: registration.baseURL, scope: scope,
                authorization: authorization, openID: openID, session: session)
        }

        /// The common case: a public client (a native app) at one FHIR server, with the defaults.
        public init(clientID: String, redirectURI: String, fhirBaseURL: URL, store: any CredentialStore) {
            self.init(
                registration: OAuthRegistration(
                    baseURL: fhirBaseURL, client: OAuthClientCredentials(clientID: clientID), redirectURI: redirectURI),
                session: OAuthSessionSettings(store: store))
        }
    }

    /// The configuration.
    public let configuration: Configuration
    /// The OAuth session the grant and a pending authorization live in.
    public let oauth: OAuthSession<SMARTProfile>

    /// Creates a session; stored state is read on first use.
    public init(configuration: Configuration) {
        self.configuration = configuration
        oauth = OAuthSession(profile: SMARTProfile(configuration: configuration))
    }

    /// The endpoints of `fhirBaseURL` (the standalone server by default) from its SMART configuration, read once and
    /// kept in the store.
    ///
    /// - Throws: `SignInError` for a server no registration covers, and what discovery throws.
    public func discover(_ fhirBaseURL: URL? = nil) async throws -> OAuthEndpoints {
        try await oauth.endpoints(for: try oauth.profile.registration(for: fhirBaseURL ?? standaloneServer()))
    }

    // MARK: - Launch

    /// Starts a standalone launch at the configured FHIR server and returns the URL for the browser to open.
    ///
    /// - Throws: `SignInError`: `invalidLaunch` without a standalone server, `invalidAuthorizationParameters` for
    ///   parameters of the app's that the request cannot carry (nothing is sent then), `invalidConfiguration`, and
    ///   discovery's errors.
    public func standaloneAuthorizationURL() async throws -> URL {
        try await authorizationPage(at: try standaloneServer(), launch: nil).url
    }

    /// Starts an EHR launch from the URL the EHR opened the app with (`…?iss=<FHIR base>&launch=<handle>`) and
    /// returns the URL for the browser to open.
    ///
    /// - Throws: `SignInError`: `invalidLaunch` without `iss` or `launch`, `unknownServer` for an `iss` that is not
    ///   a registration's server (nothing is sent to it), and what ``standaloneAuthorizationURL()`` throws.
    public func ehrAuthorizationURL(launchURL: URL) async throws -> URL {
        let (base, launch) = try ehrLaunch(launchURL)
        return try await authorizationPage(at: base, launch: launch).url
    }

    /// A whole standalone launch in `browser`: the authorization page, then ``completeAuthorization(redirectURL:)``
    /// with the redirect the browser hands back.
    ///
    /// - Throws: what ``standaloneAuthorizationURL()`` and ``completeAuthorization(redirectURL:)`` throw, and
    ///   `AuthorizationBrowserError` (`cancelled` when the user closes the page; the authorization then stays
    ///   pending until it expires or another starts).
    public func authorize(with browser: any AuthorizationBrowser) async throws -> SMARTLaunchContext {
        try await complete(try await authorizationPage(at: try standaloneServer(), launch: nil), in: browser)
    }

    /// A whole EHR launch in `browser`, from the URL the EHR opened the app with.
    ///
    /// - Throws: what ``ehrAuthorizationURL(launchURL:)`` and ``completeAuthorization(redirectURL:)`` throw, and
    ///   `AuthorizationBrowserError`.
    public func authorize(launchURL: URL, with browser: any AuthorizationBrowser) async throws -> SMARTLaunchContext {
        let (base, launch) = try ehrLaunch(launchURL)
        return try await complete(try await authorizationPage(at: base, launch: launch), in: browser)
    }

    private func complete(_ page: (url: URL, redirectURI: String), in browser: any AuthorizationBrowser)
        async throws -> SMARTLaunchContext
    {
        guard let callback = AuthorizationCallback(redirectURI: page.redirectURI) else {
            throw SignInError(.invalidLaunch, "the redirect URI is not an absolute URL", family: "SMART")
        }
        return try await completeAuthorization(redirectURL: try await browser.authorize(page.url, callback: callback))
    }

    private func standaloneServer() throws -> URL {
        guard let base = configuration.standaloneServer else {
            throw SignInError(
                .invalidLaunch, "a standalone launch needs the configuration's standaloneServer", family: "SMART")
        }
        return base
    }

    /// The FHIR server and launch handle of an EHR launch URL.
    private func ehrLaunch(_ launchURL: URL) throws -> (URL, String) {
        let items = URLComponents(url: launchURL, resolvingAgainstBaseURL: false)?.queryItems ?? []
        func value(_ name: String) throws -> String {
            let values = items.filter { $0.name == name }.compactMap(\.value)
            guard values.count == 1, let value = values.first, !value.isEmpty else {
                throw SignInError(
                    .invalidLaunch, "the launch URL needs exactly one non-empty \(name)", family: "SMART")
            }
            return value
        }
        let iss = try value("iss")
        let launch = try value("launch")
        guard let base = URL(string: iss) else {
            throw SignInError(.unknownServer, "the launch names \(iss), which is not a URL", family: "SMART")
        }
        return (try oauth.profile.registration(for: base).baseURL, launch)
    }

    /// Stores a new pending authorization (replacing an older one) and builds its URL. PKCE S256 is always used;
    /// `nonce` is sent whenever `openid` is asked for; `prompt` and the app's parameters follow
    /// (``Configuration/authorization``), checked before anything is sent.
    private func authorizationPage(at fhirBaseURL: URL, launch: String?) async throws -> (url: URL, redirectURI: String)
    {
        let registration = try oauth.profile.registration(for: fhirBaseURL)
        var scopes = configuration.scope.split(separator: " ").map(String.init)
        if launch != nil, !scopes.contains("launch") { scopes.insert("launch", at: 0) }
        let parameters = configuration.authorization
        let prompt = try parameters.prompt(for: scopes, family: "SMART")
        let additional = try parameters.additionalParameters(
            protocolNames: Authorize.Request.propertyNames, family: "SMART")
        let pending = try await oauth.beginAuthorization(at: registration, openID: scopes.contains("openid"))
        let client = SMARTAPIClient(
            configuration: .init(
                servers: .init(authorize: pending.endpoints.authorization), options: configuration.session.options))
        let url = try client.authorize(
            .init(
                clientID: registration.client.clientID, redirectURI: pending.redirectURI, launch: launch,
                scope: scopes.joined(separator: " "), state: pending.state, aud: fhirBaseURL.absoluteString,
                codeChallenge: pending.pkce.challenge, nonce: pending.nonce, prompt: prompt,
                additionalProperties: additional))
        return (url, pending.redirectURI)
    }

    /// Completes the launch with the redirect URL the browser handed back: matches it to the pending authorization
    /// (its redirect URI, `state` in constant time, and the issuer), redeems the code with the PKCE verifier,
    /// validates the id token, and stores the grant, replacing any other.
    ///
    /// - Returns: the launch context.
    /// - Throws: `SignInError`: `stateMismatch`, `redirectMismatch` or `malformedAuthorizationResponse` (the code is
    ///   not redeemed and the authorization keeps waiting), `noPendingAuthorization`, `issuerMismatch`,
    ///   `authorizationExpired`, `authorizationDenied` with the server's error, `codeRejected`, `clientRejected`,
    ///   `idTokenRejected`; nothing is stored after any of them.
    public func completeAuthorization(redirectURL: URL) async throws -> SMARTLaunchContext {
        try await oauth.completeAuthorization(redirectURL: redirectURL).context
    }

    // MARK: - FHIR calls

    /// A FHIR request to `path` under the grant's FHIR base URL, with the access token; when the server says the
    /// token expired (`invalid_token`, or a bare 401) it is refreshed once for all callers and the request replayed
    /// once. Nothing is sent once the grant has been revoked.
    ///
    /// - Throws: `OAuthError` for an error response with an OAuth body or challenge, `UnexpectedResponseError`
    ///   otherwise; `SignInError` (`needsSignIn`, or `unknownServer` when the stored FHIR server is no longer
    ///   allowed).
    public func fhir(
        _ path: ResourcePath, method: HTTPRequestMethod = .get, query: FormFields = .init(), body: Data? = nil,
        contentType: String? = nil
    ) async throws -> HTTPResponseMessage {
        try await oauth.resource(path, method: method, query: query, body: body, contentType: contentType)
    }
}

/// A typed FHIR client (`FHIRClient(session)` in `HealthSignInFHIR`) calls the grant's FHIR server through it.
extension SMARTSession: ResourceServerAccessProvider {}
