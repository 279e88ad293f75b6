/// What the SDK is signed in as, from the store alone (no network). The raw values match the other Vital SDKs.
///
/// | Status | Meaning |
/// |---|---|
/// | `[]` | not configured, not signed in |
/// | `[.configured]` | an API key is set but no user |
/// | `[.configured, .signedIn, .useApiKey]` | signed in with an API key and a user id |
/// | `[.configured, .signedIn, .useSignInToken]` | signed in with a sign-in token |
/// | … `.pendingReauthentication` | as above, but the refresh token was revoked: sign in again as the same user |
public struct VitalStatus: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The raw flags.
    public let rawValue: Int

    /// Creates a status from raw flags.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// There is a configuration: an API key, or a sign-in token's environment.
    public static let configured = VitalStatus(rawValue: 1 << 0)
    /// A user is signed in.
    public static let signedIn = VitalStatus(rawValue: 1 << 1)
    /// The user was signed in with an API key and a user id (prototypes only).
    public static let useApiKey = VitalStatus(rawValue: 1 << 2)
    /// The user was signed in with a sign-in token.
    public static let useSignInToken = VitalStatus(rawValue: 1 << 3)
    /// The refresh token was revoked: a sign-in token for the same user is needed.
    public static let pendingReauthentication = VitalStatus(rawValue: 1 << 4)

    private static let names: [(VitalStatus, String)] = [
        (.configured, "configured"), (.signedIn, "signedIn"), (.useApiKey, "useApiKey"),
        (.useSignInToken, "useSignInToken"), (.pendingReauthentication, "pendingReauthentication"),
    ]

    /// `[configured, signedIn, useSignInToken]`
    public var description: String {
        "[" + Self.names.filter { contains($0.0) }.map(\.1).joined(separator: ", ") + "]"
    }
}
