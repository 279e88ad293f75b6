/// Something that happened to a stored credential, as a ``CredentialSession`` reports it. Events carry no secrets.
public enum CredentialEvent: Sendable, Hashable, CustomStringConvertible {
    /// A lifecycle step stored a value (signing in, activating, provisioning, authorizing).
    case stored
    /// The credential was refreshed and the new one stored.
    case refreshed
    /// Another instance or process had changed the store; its value was taken over.
    case adopted
    /// The server refused the credential for good while refreshing (the grant is dead); the state was erased.
    case discardedAfterRefusal
    /// The server refused the credential while refreshing and the credential was marked (for example, as needing
    /// re-authentication).
    case markedAfterRefusal
    /// The state was erased on request (signing out, revoking, disconnecting).
    case erased
    /// The stored value could not be decoded (a format change, a damaged item); it counts as nothing stored until a
    /// new value replaces it or an erase clears it.
    case unreadableStoredValue
    /// A refresh or refusal finished after its credential had been signed out or replaced, and was dropped.
    case staleOutcomeDropped
    /// The configured key held a credential recorded for another registration: it was left alone, and the session
    /// keeps its own under the key derived from its registration from now on.
    case keyHeldByAnotherRegistration

    /// The event's name.
    public var description: String {
        switch self {
        case .stored: return "stored"
        case .refreshed: return "refreshed"
        case .adopted: return "adopted"
        case .discardedAfterRefusal: return "discardedAfterRefusal"
        case .markedAfterRefusal: return "markedAfterRefusal"
        case .erased: return "erased"
        case .unreadableStoredValue: return "unreadableStoredValue"
        case .staleOutcomeDropped: return "staleOutcomeDropped"
        case .keyHeldByAnotherRegistration: return "keyHeldByAnotherRegistration"
        }
    }
}

/// An event with the state before and after it, for the flow that owns the session (to derive its own events).
public struct CredentialChange<State: Sendable>: Sendable {
    /// What happened.
    public let event: CredentialEvent
    /// The state before.
    public let before: State?
    /// The state after.
    public let after: State?
}

/// A call could not use its credential because the lifecycle moved on while it ran.
public enum CredentialLifecycleError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The credential was erased (signed out, revoked, disconnected) after this call took it; nothing more is sent
    /// with it.
    case erased
    /// Another sign-in replaced the credential while this call waited for its refresh; call again to use the new one.
    case superseded
    /// A ``CredentialTransition`` was used after its transition returned.
    case transitionEnded

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .erased: return "The credential was erased while this call was using it; nothing more was sent with it"
        case .superseded: return "The credential was replaced while this call waited for its refresh; call again"
        case .transitionEnded: return "A credential transition was used after it returned"
        }
    }
}

extension CredentialLifecycleError: SDKError {
    /// `ErrorRecovery.reauthorize` after an erase, `ErrorRecovery.retryLater` when superseded (call again),
    /// `ErrorRecovery.fixRequest` for a transition used too late.
    public var recovery: ErrorRecovery {
        switch self {
        case .erased: return .reauthorize
        case .superseded: return .retryLater
        case .transitionEnded: return .fixRequest
        }
    }
}
