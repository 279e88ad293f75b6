import Foundation

/// What a protocol tells a ``CredentialSession`` about its credential: where it sits in the stored state, when it
/// must be refreshed, how to refresh it, and what the server's refusals mean.
///
/// A flow writes one policy; the session does the rest (loading, serialising, single-flight refresh, writes that
/// apply only to the credential they started from, the store's lock, status streams). The defaults classify errors
/// by their `ProtocolError.recovery`: `refreshCredential` is the expiry signal, `discardGrant` erases.
///
/// A policy whose credentials are sent to a server names the registration each state was issued for
/// (``registration(of:)``) and which ones it accepts (``accepts(_:)``): the session stores the registration with the
/// state and never uses a state recorded for one it does not accept. The defaults record nothing.
///
/// ```swift
/// struct StoredTokens: Codable, Sendable, Equatable {
///     var accessToken: String
///     var refreshToken: String
///     var expiresAt: Date
/// }
/// struct NotSignedIn: Error {}
///
/// struct TokenPolicy: CredentialPolicy {
///     /// The flow's token request: the refresh token in, new tokens out, sent through the lease's transport.
///     let requestTokens: @Sendable (_ refreshToken: String, _ lease: CredentialLease) async throws -> StoredTokens
///
///     func credential(in state: StoredTokens) -> StoredTokens? { state }
///     func state(_ state: StoredTokens, replacing credential: StoredTokens) -> StoredTokens { credential }
///     func missingCredentialError(in state: StoredTokens?) -> any Error { NotSignedIn() }
///     func needsRefresh(_ tokens: StoredTokens, at now: Date) -> Bool { tokens.expiresAt - 60 <= now }
///     func refresh(_ tokens: StoredTokens, lease: CredentialLease) async throws -> StoredTokens {
///         try await requestTokens(tokens.refreshToken, lease)
///     }
/// }
/// ```
public protocol CredentialPolicy: Sendable {
    /// Everything the flow keeps under its store key (the credential and whatever goes with it).
    associatedtype State: Codable & Sendable & Equatable
    /// The part of the state that a refresh replaces. Outcomes are applied only while the state still holds the
    /// credential they started from, so a refresh or refusal for a signed-out user never touches the next one.
    associatedtype Credential: Sendable & Equatable

    /// The state a session starts from while nothing is stored: nil (the default) for a credential that must be
    /// granted first; a state whose credential needs a refresh for one that is obtained on first use, such as a
    /// client-credentials token. It is stored once its first refresh succeeds.
    func initialState() -> State?
    /// The credential in `state`, or nil when the state holds none yet (for example, not authorized).
    func credential(in state: State) -> Credential?
    /// `state` with `credential` in place of the one it holds.
    func state(_ state: State, replacing credential: Credential) -> State
    /// What stays stored when a refusal discards the credential of `state`: nil erases the state (the default); a
    /// flow whose state holds more than the credential (an authorization waiting for its redirect) keeps that part.
    func stateWithoutCredential(_ state: State) -> State?
    /// The error a call gets when there is no credential to use: not signed in, not activated, not authorized.
    func missingCredentialError(in state: State?) -> any Error
    /// Throws when the credential cannot be used or refreshed as it is (for example, pending re-authentication).
    func checkUsable(_ credential: Credential) throws
    /// Whether the credential must be refreshed before it is used at `now`.
    func needsRefresh(_ credential: Credential, at now: Date) -> Bool
    /// Asks the server for a new credential. Requests carrying the old one go through `lease`.
    func refresh(_ credential: Credential, lease: CredentialLease) async throws -> Credential
    /// What a failed refresh means for the credential, and the error its callers get.
    func refusal(of credential: Credential, error: any Error) -> CredentialRefusal<Credential>
    /// Whether a call's error says the credential expired, so that one refresh and one replay may help.
    func isExpirySignal(_ error: any Error) -> Bool
    /// The registration `state` was issued for (its server and client), stored with it; nil (the default) stores the
    /// state alone.
    func registration(of state: State) -> CredentialRegistration?
    /// Whether a credential stored for `registration` is this session's to use. A session never sends, changes or
    /// erases one it does not accept. The default accepts none.
    func accepts(_ registration: CredentialRegistration) -> Bool
    /// Whether a state stored without a registration (by an earlier version of the SDK) is this session's: it is
    /// then used, and recorded with its registration. One that is not counts as nothing stored, and is replaced by
    /// the next value stored. The default claims every state (a policy that records no registration).
    func claimsUnrecorded(_ state: State) -> Bool
}

extension CredentialPolicy {
    /// Nothing: the credential must be granted first.
    public func initialState() -> State? { nil }

    /// Every credential is usable.
    public func checkUsable(_ credential: Credential) throws {}

    /// Nothing stays: the whole state is erased.
    public func stateWithoutCredential(_ state: State) -> State? { nil }

    /// `discardGrant` erases the state; any other error (network, 5xx, 429, a misconfiguration) keeps it.
    public func refusal(of credential: Credential, error: any Error) -> CredentialRefusal<Credential> {
        (error as? any ProtocolError)?.recovery == .discardGrant ? .discard(error) : .keep(error)
    }

    /// An error whose `ProtocolError.recovery` is `refreshCredential`.
    public func isExpirySignal(_ error: any Error) -> Bool {
        (error as? any ProtocolError)?.recovery == .refreshCredential
    }

    /// None: the state is stored alone.
    public func registration(of state: State) -> CredentialRegistration? { nil }

    /// None: a state recorded for a registration belongs to a session whose policy names it.
    public func accepts(_ registration: CredentialRegistration) -> Bool { false }

    /// Every state.
    public func claimsUnrecorded(_ state: State) -> Bool { true }
}

/// What a refused refresh does to the stored credential, and the error to report.
public struct CredentialRefusal<Credential: Sendable>: Sendable {
    /// The change to the stored state.
    public enum Change: Sendable {
        /// Nothing changes: the failure may pass (network, 5xx, 429) or needs a person (misconfiguration).
        case keep
        /// The grant is dead: the stored state is erased.
        case discard
        /// The credential is replaced, for example marked as needing re-authentication.
        case replace(Credential)
    }

    /// The change.
    public let change: Change
    /// What the callers waiting for the refresh get.
    public let error: any Error

    /// Keeps the credential and reports `error`.
    public static func keep(_ error: any Error) -> Self { Self(change: .keep, error: error) }

    /// Erases the stored state and reports `error`.
    public static func discard(_ error: any Error) -> Self { Self(change: .discard, error: error) }

    /// Stores `credential` instead and reports `error`.
    public static func replace(with credential: Credential, _ error: any Error) -> Self {
        Self(change: .replace(credential), error: error)
    }
}

/// What a refresh throws when the server answered and a later local step failed (a key set that could not be read
/// to check the answer, say): the new credential, which must not be lost (a rotated refresh token is already dead at
/// the server), is stored in place of the old one, and the callers get `error`. The credential should say what is
/// left to do, so that its next refresh finishes that instead of asking the server again.
public struct PartialRefresh<Credential: Sendable>: Error, Sendable {
    /// The credential the server issued, to store.
    public let credential: Credential
    /// What the callers get.
    public let error: any Error

    /// A refresh that produced `credential` but ended with `error`.
    public init(_ credential: Credential, error: any Error) {
        self.credential = credential
        self.error = error
    }
}
