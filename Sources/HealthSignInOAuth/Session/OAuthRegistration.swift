import Foundation
import HealthSignInCore

/// An app's registration at one authorization server: where the server is found (the base URL whose metadata names
/// its endpoints, such as a FHIR server's), the client the app is there, and the redirect URI registered with it.
///
/// An app that signs in at several servers has one registration per server, and each server's credential goes only
/// to that server. A redirect URI of its own per server also tells which server a redirect answers (RFC 9700 §4.4.2).
public struct OAuthRegistration: Sendable, Hashable {
    /// The base URL whose metadata names the server's endpoints.
    public var baseURL: URL
    /// The client the app is at this server, and how it authenticates there.
    public var client: OAuthClientCredentials
    /// The redirect URI registered with this server, for flows that redirect a browser.
    public var redirectURI: String?

    /// Creates a registration.
    public init(baseURL: URL, client: OAuthClientCredentials, redirectURI: String? = nil) {
        self.baseURL = baseURL
        self.client = client
        self.redirectURI = redirectURI
    }
}
