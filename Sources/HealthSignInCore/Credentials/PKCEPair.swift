import Foundation

/// A PKCE pair (RFC 7636): the verifier the client keeps, and the S256 challenge it sends to the authorize endpoint.
public struct PKCEPair: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The verifier, sent with the token request (never printed).
    public let verifier: String
    /// `BASE64URL(SHA-256(verifier))` without padding.
    public let challenge: String
    /// Always `S256`; `plain` is never used.
    public let method = "S256"

    /// Derives the challenge for `verifier` (43 to 128 characters of `[A-Za-z0-9-._~]`).
    public init(verifier: String) {
        self.verifier = verifier
        self.challenge = Base64URL.encode(CryptoPrimitives.sha256(Array(verifier.utf8)))
    }

    /// A new pair from 32 random bytes (a 43-character verifier).
    public init(random: any RandomSource) {
        self.init(verifier: Base64URL.encode(random.bytes(count: 32)))
    }

    /// The method with the verifier redacted.
    public var description: String { "PKCEPair(S256, verifier: \(Redaction.placeholder))" }

    /// A mirror with the verifier redacted.
    public var customMirror: Mirror {
        Mirror(self, children: ["verifier": Redaction.placeholder, "challenge": challenge, "method": method])
    }
}

/// Base64 with the URL-safe alphabet and no padding (RFC 4648 §5), as PKCE, `state` and JWTs use.
package enum Base64URL {
    /// Encodes `bytes`.
    package static func encode(_ bytes: some Collection<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes URL-safe Base64 with or without padding, or returns nil.
    package static func decode(_ text: String) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !standard.contains("=") || standard.count % 4 == 0 else { return nil }
        while standard.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard)
    }
}
