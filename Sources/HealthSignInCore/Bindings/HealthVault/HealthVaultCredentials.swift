import Foundation

/// A HealthVault application instance's identity: the child application id and the application shared secret
/// returned by `NewApplicationCreationInfo`. It signs `CreateAuthenticatedSessionToken` requests.
public struct HealthVaultApplicationCredential: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable
{
    /// The child (instance) application id.
    public let applicationID: UUID
    /// The application shared secret, Base64 as the server sent it (never printed).
    public let sharedSecret: String

    /// Creates a credential.
    public init(applicationID: UUID, sharedSecret: String) {
        self.applicationID = applicationID
        self.sharedSecret = sharedSecret
    }

    /// The context a `castSignature` request is encoded with: the bound values `applicationID` and `signingTime`
    /// (UTC, milliseconds) and an HMAC-SHA256 signer keyed with the decoded shared secret.
    ///
    /// - Throws: `RequestEncodingError.invalidCredential(_:)` when the shared secret is not Base64.
    @_spi(Generated) public func castSignatureContext(signingTime: Date) throws -> EncodingContext {
        let key = try HealthVaultSigning.key(fromBase64: sharedSecret, name: "application shared secret")
        return EncodingContext(
            values: ["applicationID": applicationID.wireText, "signingTime": signingTime.wireText],
            signer: { region in HealthVaultSigning.hmacBase64(key: key, message: region) }
        )
    }

    /// The application id with the secret redacted.
    public var description: String {
        Redaction.describe(
            "HealthVaultApplicationCredential",
            ["applicationID": applicationID.wireText, "sharedSecret": Redaction.placeholder])
    }

    /// A mirror with the secret redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["applicationID": applicationID, "sharedSecret": Redaction.placeholder])
    }
}

/// An authenticated HealthVault session: the token and session shared secret returned by
/// `CreateAuthenticatedSessionToken`, plus the offline person once it is known. It signs every other request.
///
/// Token and secret always travel together: a new session replaces both at once.
public struct HealthVaultSessionCredential: Sendable, Hashable, Codable, CustomStringConvertible, CustomReflectable {
    /// The opaque session token, copied verbatim into `<auth-token>` (never printed).
    public let token: String
    /// The session shared secret, Base64 (never printed).
    public let sharedSecret: String
    /// The person the application acts for offline (`<offline-person-id>`), once known.
    public let personID: UUID?

    /// Creates a session credential.
    public init(token: String, sharedSecret: String, personID: UUID? = nil) {
        self.token = token
        self.sharedSecret = sharedSecret
        self.personID = personID
    }

    /// A copy acting for `personID`.
    public func acting(for personID: UUID?) -> HealthVaultSessionCredential {
        HealthVaultSessionCredential(token: token, sharedSecret: sharedSecret, personID: personID)
    }

    /// The person id with token and secret redacted.
    public var description: String {
        Redaction.describe(
            "HealthVaultSessionCredential",
            [
                "token": Redaction.placeholder, "sharedSecret": Redaction.placeholder,
                "personID": Redaction.show(personID?.wireText),
            ])
    }

    /// A mirror with token and secret redacted.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "token": Redaction.placeholder, "sharedSecret": Redaction.placeholder, "personID": personID as Any,
            ])
    }
}

/// The hash and MAC conventions of HealthVault: standard Base64 with padding and no line breaks.
@_spi(Generated) public enum HealthVaultSigning {
    /// `Base64(SHA-256(message))`, the `info-hash` value.
    public static func sha256Base64(_ message: [UInt8]) -> String {
        Data(CryptoPrimitives.sha256(message)).base64EncodedString()
    }

    /// `Base64(HMAC-SHA256(key, message))`, the `hmac-data` and `hmacSig` value.
    public static func hmacBase64(key: [UInt8], message: [UInt8]) -> String {
        Data(CryptoPrimitives.hmacSHA256(key: key, message: message)).base64EncodedString()
    }

    /// The key bytes of a Base64 shared secret (keys are the decoded bytes, not the Base64 text).
    ///
    /// - Throws: `RequestEncodingError.invalidCredential(_:)` naming the secret (never its value) when it is not
    ///   Base64.
    public static func key(fromBase64 secret: String, name: String) throws -> [UInt8] {
        guard let data = Data(base64Encoded: secret), !data.isEmpty else {
            throw RequestEncodingError.invalidCredential("the \(name) is not Base64")
        }
        return Array(data)
    }
}
