import Foundation
import HealthSignInCore

/// The application's own signing keys and the JWKS document it publishes at the URL registered with the domain.
///
/// The newest key signs; keys it replaced stay published until their overlap ends, so that a token signed just
/// before a rotation still verifies at a server that cached the old document (Koppeltaal's auth service caches a JWKS
/// for its `Cache-Control` max-age, 60 s by default).
///
/// ```swift
/// var keys = try Koppeltaal2KeySet(keys: [JSONWebKey(json: privateJWK)])
/// try keys.rotate(to: newKey, overlap: 600)
/// let body = keys.document()   // serve as application/json with Cache-Control: public, max-age=60
/// ```
///
/// The document holds only public halves, each with `kid`, `use` (`sig`) and `alg`; a private member can never
/// reach it.
public struct Koppeltaal2KeySet: Sendable, CustomStringConvertible {
    /// A published key and until when it stays published; nil for the signing key.
    public struct PublishedKey: Sendable {
        /// The key, private when this application holds it.
        public let key: JSONWebKey
        /// When it leaves the document; nil while it signs.
        public let retiresAt: Date?
    }

    /// The keys, the signing key first.
    public private(set) var published: [PublishedKey]

    /// A set whose first key signs; each key needs a `kid`.
    ///
    /// - Throws: `JOSEError.invalidKey` for a key without `kid`, or two keys with the same one.
    public init(keys: [JSONWebKey]) throws(JOSEError) {
        var seen: Set<String> = []
        for key in keys {
            guard let keyID = key.keyID else { throw .invalidKey("it has no \"kid\", which a published key needs") }
            guard seen.insert(keyID).inserted else { throw .invalidKey("two keys have the kid \"\(keyID)\"") }
        }
        published = keys.map { PublishedKey(key: $0, retiresAt: nil) }
    }

    /// The key that signs now.
    public var signingKey: JSONWebKey? { published.first?.key }

    /// Makes `key` the signing key; the keys it replaces stay published for `overlap` seconds from `now`.
    ///
    /// - Throws: `JOSEError.invalidKey` for a key without `kid` or with the `kid` of a published one;
    ///   `JOSEError.invalidTime` for an overlap that is NaN, negative or longer than a year (the old keys would stay
    ///   trusted without end).
    public mutating func rotate(to key: JSONWebKey, overlap: TimeInterval, now: Date = Date()) throws(JOSEError) {
        guard (0...31_536_000).contains(overlap) else {
            throw .invalidTime("the overlap \(overlap) is not 0 to a year of seconds")
        }
        guard let keyID = key.keyID else { throw .invalidKey("it has no \"kid\", which a published key needs") }
        guard !published.contains(where: { $0.key.keyID == keyID }) else {
            throw .invalidKey("a published key already has the kid \"\(keyID)\"")
        }
        let retiring = published.map { PublishedKey(key: $0.key, retiresAt: $0.retiresAt ?? now + overlap) }
        published = [PublishedKey(key: key, retiresAt: nil)] + retiring
    }

    /// The keys published at `now`: the signing key and those whose overlap has not ended.
    public func keys(at now: Date = Date()) -> [JSONWebKey] {
        published.filter { ($0.retiresAt ?? .distantFuture) > now }.map(\.key)
    }

    /// The JWKS document: `{"keys": [...]}` with the public half of every key published at `now`, each with `kid`,
    /// `use` `sig` and its `alg` (the key's own, else the algorithm it signs Koppeltaal 2.0 tokens with).
    public func document(at now: Date = Date()) -> Data {
        let entries = keys(at: now).map { key -> JSONValue in
            var object = key.publicMembers
            object["use"] = "sig"
            object["alg"] = .string(key.algorithm ?? (key.keyType == .rsa ? "RS512" : Self.ecAlgorithm(key.curve)))
            return .object(object)
        }
        return JSONValue.object(["keys": .array(entries)]).serialized()
    }

    private static func ecAlgorithm(_ curve: String?) -> String {
        switch curve {
        case "P-256": return "ES256"
        case "P-521": return "ES512"
        default: return "ES384"
        }
    }

    /// The key ids and their overlaps; no key material.
    public var description: String {
        "Koppeltaal2KeySet("
            + published.map { ($0.key.keyID ?? "") + ($0.retiresAt.map { " until \(DateTimeText.format($0))" } ?? "") }
            .joined(separator: ", ") + ")"
    }
}
