import Foundation

/// A client assertion for `private_key_jwt` client authentication (RFC 7523 §2.2, as SMART Backend Services profiles
/// it): a JWT signed with the client's private key, whose `iss` and `sub` are the client id, `aud` the token
/// endpoint, `exp` at most five minutes away and `jti` a fresh random value. `iat` is left out unless asked for
/// (Koppeltaal 2.0 requires it), and `nbf` always is, since a server rejects them when the device clock runs fast.
public struct ClientAssertion: Sendable, CustomStringConvertible {
    /// `urn:ietf:params:oauth:client-assertion-type:jwt-bearer`, the `client_assertion_type` form field's value.
    public static let type = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

    /// The longest lifetime SMART allows.
    public static let maximumLifetime: TimeInterval = 300

    /// The compact JWS, the `client_assertion` form field's value (never printed).
    public let token: String
    /// The `jti` it carries.
    public let id: String
    /// When it expires.
    public let expiresAt: Date

    /// Signs an assertion for `clientID` to present at `tokenEndpoint`.
    ///
    /// - Parameters:
    ///   - clientID: the client id, which is both `iss` and `sub`.
    ///   - tokenEndpoint: the URL the assertion is posted to, exactly: it is `aud`.
    ///   - key: the client's private key; its `kid` goes into the header, as SMART requires.
    ///   - algorithm: `ES384` or `RS384` for SMART (both required of clients); any algorithm `key` fits.
    ///   - lifetime: seconds until `exp`, at most ``maximumLifetime`` (longer is shortened to it).
    ///   - clock: the time `exp` counts from.
    ///   - random: where the `jti`'s 32 bytes come from.
    ///   - statesIssuedAt: whether the assertion carries `iat`, the signing time.
    /// - Throws: ``JOSEError/keyDoesNotFitAlgorithm(_:)`` for a public key or one of another type,
    ///   ``JOSEError/invalidKey(_:)`` for a key without `kid`, and ``JOSEError/invalidTime(_:)`` for a NaN lifetime
    ///   or a clock whose time is not a date.
    public init(
        clientID: String, tokenEndpoint: URL, key: JSONWebKey, algorithm: JWSAlgorithm, lifetime: TimeInterval = 120,
        clock: any TimeSource = SystemClock(), random: any RandomSource = SystemRandomSource(),
        statesIssuedAt: Bool = false
    ) throws(JOSEError) {
        guard let keyID = key.keyID else { throw .invalidKey("it has no \"kid\", which the assertion's header needs") }
        guard !lifetime.isNaN else { throw .invalidTime("the lifetime is not a number") }
        let now = clock.now().timeIntervalSince1970
        // JSON numbers of seconds, as JWTs write them: the clock's time must be a date a 64-bit count can hold.
        guard now.isFinite, abs(now) < 1e15 else { throw .invalidTime("the clock's time \(now) is not a date") }
        id = Base64URL.encode(random.bytes(count: 32))
        let expiry = Int((now + min(max(lifetime, 1), Self.maximumLifetime)).rounded(.down))
        expiresAt = Date(timeIntervalSince1970: TimeInterval(expiry))
        let header: JSONObject = ["alg": .string(algorithm.rawValue), "kid": .string(keyID), "typ": "JWT"]
        var claims: JSONObject = [
            "iss": .string(clientID), "sub": .string(clientID), "aud": .string(tokenEndpoint.absoluteString),
            "exp": .number(JSONNumber(expiry)), "jti": .string(id),
        ]
        if statesIssuedAt { claims["iat"] = .number(JSONNumber(Int(now.rounded(.down)))) }
        token = try JWS.sign(
            header: JSONValue.object(header).serialized(), payload: JSONValue.object(claims).serialized(), key: key,
            algorithm: algorithm)
    }

    /// The id and expiry; the token itself is redacted.
    public var description: String {
        "ClientAssertion(jti: \(id), expiresAt: \(DateTimeText.format(expiresAt)), token: \(Redaction.placeholder))"
    }
}
