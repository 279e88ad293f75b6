/// What a caller should do about a protocol error (see `ProtocolError`), as the family's `protocol.json` declares it
/// per code.
///
/// Flows act on this rather than on raw codes, so adding a code to a schema table is enough to teach the SDK
/// how to react to it.
public enum ErrorRecovery: String, Sendable, Hashable, CaseIterable {
    /// Nothing automatic; surface the error.
    case none
    /// Temporary: retry later, keeping every credential.
    case retryLater
    /// The short-lived credential expired: refresh it (or create a new session) and replay the request once.
    case refreshCredential
    /// The user must authorize again (HealthVault APPAUTH, a new Vital sign-in token for the same user).
    case reauthorize
    /// The application instance is gone: provision it again from scratch.
    case reprovision
    /// The grant is dead (OAuth `invalid_grant`): discard stored tokens; a new activation or sign-in is needed.
    case discardGrant
    /// The client is misconfigured (wrong client id or secret, wrong endpoint): fix the configuration.
    case reconfigure
    /// The request itself was wrong: a programming error in the caller or the SDK.
    case fixRequest
}
