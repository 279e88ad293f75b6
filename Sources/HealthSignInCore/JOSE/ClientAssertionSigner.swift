import Foundation

/// The private key a `private_key_jwt` client (RFC 7523) signs a fresh ``ClientAssertion`` with for every request
/// it authenticates, so a retried request never replays a `jti`.
///
/// Two signers are equal when their key, algorithm, lifetime and `iat` setting are; the clock and random source are not compared.
public struct ClientAssertionSigner: Sendable, Hashable, CustomStringConvertible {
    /// The client's private key (never printed).
    public let key: JSONWebKey
    /// The algorithm: `ES384` or `RS384` for SMART.
    public let algorithm: JWSAlgorithm
    /// Seconds from signing to the assertion's `exp`, at most ``ClientAssertion/maximumLifetime``.
    public let lifetime: TimeInterval
    /// Whether each assertion carries `iat`.
    public let statesIssuedAt: Bool
    private let clock: any TimeSource
    private let random: any RandomSource

    /// Creates a signer.
    ///
    /// - Parameters:
    ///   - key: a private key with a `kid` that fits `algorithm`.
    ///   - algorithm: the signing algorithm.
    ///   - lifetime: seconds until `exp`; SMART allows at most 300, and 120 leaves room for a slow device clock.
    ///   - clock: the time `exp` counts from.
    ///   - random: where each `jti` comes from.
    ///   - statesIssuedAt: whether each assertion carries `iat` (Koppeltaal 2.0 requires it; SMART does not).
    /// - Throws: ``JOSEError/keyDoesNotFitAlgorithm(_:)`` for a public key or one that does not fit `algorithm`,
    ///   ``JOSEError/invalidKey(_:)`` for a key without `kid`, ``JOSEError/invalidTime(_:)`` for a NaN `lifetime`.
    public init(
        key: JSONWebKey, algorithm: JWSAlgorithm, lifetime: TimeInterval = 120,
        clock: any TimeSource = SystemClock(), random: any RandomSource = SystemRandomSource(),
        statesIssuedAt: Bool = false
    ) throws(JOSEError) {
        guard key.isPrivate, algorithm.fits(key) else {
            throw .keyDoesNotFitAlgorithm(algorithm)
        }
        guard key.keyID != nil else { throw .invalidKey("it has no \"kid\", which the assertion's header needs") }
        guard !lifetime.isNaN else { throw .invalidTime("the lifetime is not a number") }
        self.key = key
        self.algorithm = algorithm
        self.lifetime = min(max(lifetime, 1), ClientAssertion.maximumLifetime)
        self.statesIssuedAt = statesIssuedAt
        self.clock = clock
        self.random = random
    }

    /// A new assertion for `clientID` to present at `tokenEndpoint`, with a fresh `jti`.
    public func assertion(clientID: String, tokenEndpoint: URL) throws(JOSEError) -> ClientAssertion {
        try ClientAssertion(
            clientID: clientID, tokenEndpoint: tokenEndpoint, key: key, algorithm: algorithm, lifetime: lifetime,
            clock: clock, random: random, statesIssuedAt: statesIssuedAt)
    }

    /// Whether the two sign with the same key, algorithm, lifetime and claims.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.key == rhs.key && lhs.algorithm == rhs.algorithm && lhs.lifetime == rhs.lifetime
            && lhs.statesIssuedAt == rhs.statesIssuedAt
    }

    /// Hashes the key's thumbprint, the algorithm and the lifetime.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(key.thumbprint)
        hasher.combine(algorithm)
        hasher.combine(lifetime)
        hasher.combine(statesIssuedAt)
    }

    /// The algorithm and the key's public facts.
    public var description: String {
        "ClientAssertionSigner(\(algorithm.rawValue), \(key), lifetime: \(Int(lifetime)) s)"
    }
}
