import Foundation

/// A user name and password for HTTP Basic authentication (RFC 7617), as Koppeltaal's MobileLaunch uses for the
/// calling application's credentials.
public struct BasicCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The user name.
    public let username: String
    /// The password (never printed).
    public let password: String

    /// Creates credentials.
    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }

    /// The `Authorization` header value: `Basic base64(username:password)`, UTF-8, unencoded per RFC 7617.
    public var authorizationValue: String {
        "Basic " + Data((username + ":" + password).utf8).base64EncodedString()
    }

    /// The user name with the password redacted.
    public var description: String {
        Redaction.describe("BasicCredentials", ["username": username, "password": Redaction.placeholder])
    }

    /// A mirror with the password redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["username": username, "password": Redaction.placeholder])
    }
}

/// An OAuth 2.0 access token sent as `Authorization: Bearer` (RFC 6750).
public struct BearerToken: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The token (never printed).
    public let value: String

    /// Wraps a token.
    public init(_ value: String) { self.value = value }

    /// The `Authorization` header value.
    public var authorizationValue: String { "Bearer " + value }

    /// `BearerToken(<redacted>)`
    public var description: String { "BearerToken(\(Redaction.placeholder))" }

    /// A mirror with the token redacted.
    public var customMirror: Mirror { Mirror(self, children: ["value": Redaction.placeholder]) }
}

/// A static API key sent in a header (Vital's team key travels in `x-vital-api-key`). Keep these on servers.
public struct APIKey: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The key (never printed).
    public let value: String

    /// Wraps a key.
    public init(_ value: String) { self.value = value }

    /// `APIKey(<redacted>)`
    public var description: String { "APIKey(\(Redaction.placeholder))" }

    /// A mirror with the key redacted.
    public var customMirror: Mirror { Mirror(self, children: ["value": Redaction.placeholder]) }
}

/// How an OAuth client proves its identity at the token and revocation endpoints (RFC 6749 §2.3).
public struct OAuthClientCredentials: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// Where the client credentials travel.
    public enum Method: String, Sendable, Hashable, CaseIterable {
        /// `Authorization: Basic` with the id and secret encoded first (RFC 6749 §2.3.1, `client_secret_basic`):
        /// everything but unreserved characters as `%XX`, a space as `%20`, which servers that form-decode and
        /// servers that only percent-decode (Authlib) both read back.
        case basic
        /// `Authorization: Basic` with the id and secret as they are (RFC 7617), as Koppeltaal sends it. It carries
        /// any secret a server that does not form-decode can read (spaces included), but not an id with a colon.
        case unencodedBasic
        /// `client_id` and `client_secret` as form fields (`client_secret_post`).
        case post
        /// Only `client_id` as a form field: a public client (`none`).
        case none
        /// A client assertion signed with the client's private key (`private_key_jwt`, RFC 7523), made afresh for
        /// every request with the token endpoint as its audience.
        case privateKeyJWT
    }

    /// The client identifier.
    public let clientID: String
    /// The client secret, or nil for a public client (never printed).
    public let secret: String?
    /// Where the credentials travel.
    public let method: Method
    /// The signer of ``Method/privateKeyJWT`` clients.
    public let assertionSigner: ClientAssertionSigner?

    /// Creates credentials. A nil secret forces ``Method/none``; ``Method/privateKeyJWT`` needs
    /// ``init(clientID:signer:)`` and means ``Method/basic`` here.
    public init(clientID: String, secret: String? = nil, method: Method = .basic) {
        self.clientID = clientID
        self.secret = secret
        self.method = secret == nil ? .none : method == .privateKeyJWT ? .basic : method
        assertionSigner = nil
    }

    /// Credentials of a `private_key_jwt` client, which signs a client assertion for every request.
    public init(clientID: String, signer: ClientAssertionSigner) {
        self.clientID = clientID
        secret = nil
        method = .privateKeyJWT
        assertionSigner = signer
    }

    /// The `Authorization` header for ``Method/basic`` (`Basic base64(enc(id):enc(secret))`, RFC 6749 §2.3.1) or
    /// ``Method/unencodedBasic`` (`Basic base64(id:secret)`, RFC 7617).
    public var basicAuthorizationValue: String {
        let pair =
            method == .unencodedBasic
            ? clientID + ":" + (secret ?? "")
            : PercentEncoding.unreserved(clientID) + ":" + PercentEncoding.unreserved(secret ?? "")
        return "Basic " + Data(pair.utf8).base64EncodedString()
    }

    /// The client id and method with the secret redacted.
    public var description: String {
        Redaction.describe(
            "OAuthClientCredentials",
            [
                "clientID": clientID, "secret": Redaction.hide(secret), "method": method.rawValue,
                "signer": Redaction.show(assertionSigner),
            ])
    }

    /// A mirror with the secret redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["clientID": clientID, "secret": Redaction.hide(secret), "method": method])
    }
}

/// A credential for user-level API calls that accept either an access token or, for prototypes, an API key (Vital's
/// data plane takes `Authorization: Bearer` in sign-in-token mode and `x-vital-api-key` in API-key mode).
public enum AccessCredential: Sendable, Hashable, CustomStringConvertible {
    /// An OAuth 2.0 access token, sent as `Authorization: Bearer`.
    case bearer(BearerToken)
    /// An API key, sent in the family's API key header.
    case apiKey(APIKey)

    /// The kind of credential with its secret redacted.
    public var description: String {
        switch self {
        case .bearer(let token): return token.description
        case .apiKey(let key): return key.description
        }
    }
}
