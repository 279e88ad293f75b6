import Foundation

/// What a stored credential was issued for: the server that issued it and the client it was issued to.
///
/// A ``CredentialSession`` stores it beside the state and reads it back before the state is used: a credential
/// recorded for a registration its policy does not accept (``CredentialPolicy/accepts(_:)``) is never sent. It is
/// written as plain JSON beside the credential and carries no secret.
public struct CredentialRegistration: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The family, e.g. `SMART`.
    public var family: String
    /// The server as the registration names it: an issuer or a base URL (a FHIR base, a platform URL, an auth host),
    /// written exactly as configured.
    public var server: String
    /// The client the credential was issued to (a client id, a team id, a master application id); empty when the
    /// family has none.
    public var client: String
    /// The scope the credential was asked for, where a family keys credentials by it (a service's
    /// `client_credentials` token); nil otherwise.
    public var scope: String?

    /// Creates a registration.
    public init(family: String, server: String, client: String = "", scope: String? = nil) {
        self.family = family
        self.server = server
        self.client = client
        self.scope = scope
    }

    /// `SMART at https://ehr.example.com/fhir, client my-service, scope system/*.rs`.
    public var description: String {
        "\(family) at \(server)" + (client.isEmpty ? "" : ", client \(client)") + (scope.map { ", scope \($0)" } ?? "")
    }

    /// The text the key derivation hashes: every field with its length in front, so that no two registrations
    /// write the same text.
    fileprivate var canonicalText: String {
        [family, server, client].map { "\($0.utf8.count):\($0)" }.joined()
            + (scope.map { "\($0.utf8.count):\($0)" } ?? "-")
    }
}

/// Where a ``CredentialSession`` keeps its state in a store: the key, the key derived from its registrations, and
/// the key an earlier version of the SDK used by default.
///
/// A key left to the SDK is derived from what the credential is for (``derivedKey(prefix:registrations:)``), so
/// sessions of different registrations sharing one store never share a value. A configured key is used as it is;
/// when it holds a credential recorded for another registration (one key given to two clients by mistake), the
/// session leaves that value alone and keeps its own under its derived key.
public struct CredentialKey: Sendable, Hashable, CustomStringConvertible {
    /// The key the state is looked for under first: the configured one, or the derived one.
    public let primary: String
    /// The key derived from the registrations. It is ``primary`` unless a key was configured.
    public let derived: String
    /// The key the state was stored under by default before keys were derived (`smart.session`), read when
    /// ``primary`` holds nothing: a value there that the session claims as its own moves to ``primary``. Nil when a
    /// key was configured.
    public let former: String?

    /// The key of a session of `registrations`: `configured` when there is one, else the key derived from them under
    /// `prefix`, with `prefix` itself as the former default key.
    ///
    /// - Parameters:
    ///   - configured: the key the app chose, or nil to derive it.
    ///   - prefix: the family's name for what it keeps (`smart.session`, `smart.service`): the derived key starts
    ///     with it, and earlier versions used it as the whole key.
    ///   - registrations: what the session's credentials may be issued for.
    public init(configured: String?, prefix: String, registrations: [CredentialRegistration]) {
        derived = Self.derivedKey(prefix: prefix, registrations: registrations)
        primary = configured ?? derived
        former = configured == nil ? prefix : nil
    }

    /// Exactly `key`: nothing derived and nothing moved, for a session whose state is not recorded with a
    /// registration.
    public init(fixed key: String) {
        (primary, derived, former) = (key, key, nil)
    }

    /// `prefix.` and 32 lowercase hexadecimal digits: the first 16 bytes of the SHA-256 digest of the registrations'
    /// lines, without duplicates, sorted by their bytes and joined with a line feed. A registration's line is its
    /// family, server and client, each written `<UTF-8 length>:<text>`, then its scope written the same way or `-`
    /// without one. The same registrations give the same key in any order, in any process, with any version of the
    /// SDK.
    public static func derivedKey(prefix: String, registrations: [CredentialRegistration]) -> String {
        // Compared as bytes: Swift's string comparison and equality follow Unicode equivalence, not the bytes hashed.
        let lines = Set(registrations.map { Array($0.canonicalText.utf8) }).sorted { $0.lexicographicallyPrecedes($1) }
        let digits = Array("0123456789abcdef")
        let digest = CryptoPrimitives.sha256(Array(lines.joined(separator: [0x0A]))).prefix(16)
        return prefix + "." + String(digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0f)]] })
    }

    /// The primary key.
    public var description: String { primary }
}
