/// A source of random bytes for values the SDK invents: OAuth `state`, PKCE verifiers, correlation ids.
///
/// Production code uses ``SystemRandomSource``; tests inject `SeededRandomSource` (from `HealthSignInTesting`) so that
/// every value on the wire is reproducible.
public protocol RandomSource: Sendable {
    /// Returns `count` random bytes.
    func bytes(count: Int) -> [UInt8]
}

/// Cryptographically secure randomness from the platform (see ``CryptoPrimitives/randomBytes(count:)``).
public struct SystemRandomSource: RandomSource {
    /// Creates the system random source.
    public init() {}

    /// Returns `count` bytes from the platform's secure generator.
    public func bytes(count: Int) -> [UInt8] { CryptoPrimitives.randomBytes(count: count) }
}
