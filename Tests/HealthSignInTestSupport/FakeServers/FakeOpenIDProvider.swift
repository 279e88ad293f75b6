import Foundation
import HealthSignInCore

/// The OpenID Connect side of a fake server: id tokens signed with this suite's test keys (`test-rsa` for RS256,
/// `test-p256` for ES256), for the authorization code it was told the nonce of and for refreshes, with claims a test
/// can change for either.
public final class FakeOpenIDProvider: Sendable {
    /// What the next id tokens carry.
    public struct Settings: Sendable {
        /// `iss`.
        public var issuer: String
        /// `aud`, the client id.
        public var clientID: String
        /// The signature algorithm, RS256 or ES256.
        public var algorithm: JWSAlgorithm = .rs256
        /// Whether refresh responses carry an id token.
        public var onRefresh = true
        /// Claims replaced (or removed, for nil) in the id tokens of authorization codes.
        public var signInClaims: [String: JSONValue?] = [:]
        /// Claims replaced (or removed, for nil) in the id tokens of refreshes.
        public var refreshClaims: [String: JSONValue?] = [:]
    }

    /// What the next id tokens carry.
    package let settings: LockedValue<Settings>
    private let clock: any TimeSource
    private let nonces = LockedValue<[String: String]>([:])
    private let authTimes = LockedValue<[String: Int]>([:])

    /// A provider for `issuer` and `clientID` whose tokens are issued at `clock`'s time.
    public init(issuer: String, clientID: String, clock: any TimeSource) {
        settings = LockedValue(Settings(issuer: issuer, clientID: clientID))
        self.clock = clock
    }

    /// The suite's private test key `keyID` (`test-rsa` or `test-p256`).
    public static func key(_ keyID: String) throws -> JSONWebKey {
        let set = try JSONWebKeySet(json: try Fixtures.data("JOSE/test-keys.json"))
        guard let key = set.keys.first(where: { $0.keyID == keyID }) else { throw JOSEError.invalidKey(keyID) }
        return key
    }

    /// `{"keys": [...]}` with the public test keys.
    public static var keySetJSON: String {
        let keys = (try? JSONValue.parse(try Fixtures.data("JOSE/test-keys.json")))?["keys"]?.arrayValue ?? []
        let publicMembers = ["kty", "kid", "crv", "n", "e", "x", "y"]
        let published = keys.compactMap(\.objectValue).map { key in
            JSONValue.object(JSONObject(key.members.filter { publicMembers.contains($0.key) }))
        }
        return String(decoding: JSONValue.object(["keys": .array(published)]).serialized(), as: UTF8.self)
    }

    /// Remembers the nonce of the authorization request `url` for the code it will be answered with.
    public func authorize(_ url: URL, code: String) {
        let nonce = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "nonce" }
        if let value = nonce?.value { nonces.withValue { $0[code] = value } }
    }

    /// The id token for `subject`: for an authorization `code`, with its nonce, or for a refresh; nil when refresh
    /// responses carry none.
    public func idToken(subject: String, code: String?) -> String? {
        let settings = settings.current
        if code == nil, !settings.onRefresh { return nil }
        let now = Int(clock.now().timeIntervalSince1970)
        // A refresh's id token names the time of the sign-in it continues.
        let authTime = authTimes.withValue { times in
            if code != nil { times[subject] = now }
            return times[subject] ?? now
        }
        var claims: JSONObject = [
            "iss": .string(settings.issuer), "sub": .string(subject), "aud": .string(settings.clientID),
            "iat": .number(JSONNumber(now)), "exp": .number(JSONNumber(now + 600)),
            "auth_time": .number(JSONNumber(authTime)), "fhirUser": .string("Practitioner/\(subject)"),
        ]
        if let code, let nonce = nonces.current[code] { claims["nonce"] = .string(nonce) }
        for (name, value) in code == nil ? settings.refreshClaims : settings.signInClaims { claims[name] = value }
        let keyID = settings.algorithm == .es256 ? "test-p256" : "test-rsa"
        let header: JSONObject = ["alg": .string(settings.algorithm.rawValue), "kid": .string(keyID), "typ": "JWT"]
        return try? JWS.sign(
            header: JSONValue.object(header).serialized(), payload: JSONValue.object(claims).serialized(),
            key: try Self.key(keyID), algorithm: settings.algorithm)
    }
}
