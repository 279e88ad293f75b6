import Foundation
import HealthSignInCore

/// An app's registration at one authorization server: where the server is found (the base URL whose metadata names
/// its endpoints, such as a FHIR server's), the client the app is there, the redirect URI registered with it, and
/// what the app trusts of that server.
///
/// Trust belongs to one registration (RFC 9700 §4.4): an endpoint or an issuer the server's metadata names counts
/// only on the base URL's origin or one of this registration's ``trustedHosts``, and an issuer belongs to one
/// registration only. Each server's credential goes only to that server. When a server does not name itself in its
/// authorization responses (RFC 9207), a redirect URI of its own is the only way to tell its answers from another
/// server's, so registrations that share one must all be servers that do.
public struct OAuthRegistration: Sendable, Hashable {
    /// The base URL whose metadata names the server's endpoints.
    public var baseURL: URL
    /// The client the app is at this server, and how it authenticates there.
    public var client: OAuthClientCredentials
    /// The redirect URI registered with this server, for flows that redirect a browser.
    public var redirectURI: String?
    /// Hosts (`host`, or `host:port`) besides the base URL's origin that this server's endpoints and issuer may be
    /// on, on the base URL's scheme: an authorization server at `auth.example.com` beside `fhir.example.com`.
    public var trustedHosts: [String]
    /// Endpoints configured by hand; each wins over the metadata and is used as it is.
    public var endpoints: EndpointOverrides

    /// Creates a registration.
    public init(
        baseURL: URL, client: OAuthClientCredentials, redirectURI: String? = nil, trustedHosts: [String] = [],
        endpoints: EndpointOverrides = .init()
    ) {
        self.baseURL = baseURL
        self.client = client
        self.redirectURI = redirectURI
        self.trustedHosts = trustedHosts
        self.endpoints = endpoints
    }

    /// The origins this registration trusts: the base URL's and its trusted hosts'.
    public var trustedOrigins: TrustedOrigins { TrustedOrigins(base: baseURL, trustedHosts: trustedHosts) }

    /// What a credential of this registration is stored with, for `family`: the base URL as written and the client
    /// id, and `scope` where the family keys credentials by it.
    public func credentialRegistration(family: String, scope: String? = nil) -> CredentialRegistration {
        CredentialRegistration(family: family, server: baseURL.absoluteString, client: client.clientID, scope: scope)
    }
}

extension [OAuthRegistration] {
    /// The registration whose base URL is `baseURL`, written exactly so.
    public func registration(for baseURL: URL) -> OAuthRegistration? {
        first { $0.baseURL.absoluteString == baseURL.absoluteString }
    }
}
