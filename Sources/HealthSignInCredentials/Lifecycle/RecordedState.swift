import Foundation

/// How a session's state is kept in the store: beside the registration it was issued for,
/// `{"registration": {...}, "state": ...}`. A state without a registration (written by an earlier version, or by a
/// policy that records none) is the state alone.
struct RecordedState<State: Codable>: Codable {
    let registration: CredentialRegistration
    let state: State
}

/// What a session finds under a key.
enum StoredReading<State> {
    /// Nothing is stored.
    case nothing
    /// A state this session may use: recorded for a registration its policy accepts, or (`recorded` false) stored
    /// without a registration and claimed by the policy.
    case own(State, recorded: Bool)
    /// A credential recorded for a registration the policy does not accept: never used, never changed.
    case foreign(CredentialRegistration)
    /// A state stored without a registration that the policy does not claim: counts as nothing stored.
    case unclaimed
    /// Bytes that do not decode.
    case unreadable

    /// The state, when it is the session's.
    var state: State? {
        guard case .own(let state, _) = self else { return nil }
        return state
    }

    /// The state, when it is the session's and was stored without its registration.
    var unrecordedState: State? {
        guard case .own(let state, recorded: false) = self else { return nil }
        return state
    }

    /// The other registration, for a credential recorded for one.
    var owner: CredentialRegistration? {
        guard case .foreign(let owner) = self else { return nil }
        return owner
    }

    /// Whether the bytes do not decode.
    var isUnreadable: Bool {
        guard case .unreadable = self else { return false }
        return true
    }
}

/// Whether stored bytes are a recorded state, without decoding the state.
private struct RecordProbe: Decodable {
    let registration: CredentialRegistration?

    private enum CodingKeys: String, CodingKey { case registration }

    init(from decoder: any Decoder) throws {
        // A member that is there but malformed makes the whole value unreadable rather than unrecorded.
        let container = try? decoder.container(keyedBy: CodingKeys.self)
        guard let container, container.contains(.registration) else {
            registration = nil
            return
        }
        registration = try container.decode(CredentialRegistration.self, forKey: .registration)
    }
}

extension CredentialPolicy {
    /// What `data`, read from the store, is to a session with this policy.
    func reading(_ data: Data?) -> StoredReading<State> {
        guard let data else { return .nothing }
        let decoder = JSONDecoder()
        guard let probe = try? decoder.decode(RecordProbe.self, from: data) else { return .unreadable }
        if let registration = probe.registration {
            guard accepts(registration) else { return .foreign(registration) }
            guard let recorded = try? decoder.decode(RecordedState<State>.self, from: data) else { return .unreadable }
            return .own(recorded.state, recorded: true)
        }
        guard let state = try? decoder.decode(State.self, from: data) else { return .unreadable }
        return claimsUnrecorded(state) ? .own(state, recorded: false) : .unclaimed
    }

    /// The bytes that keep `state` under `key`: recorded with its registration when the policy names one.
    ///
    /// - Throws: ``CredentialStoreError/unencodable(key:)`` when the state has no JSON form.
    func encoded(_ state: State, for key: String) throws -> Data {
        guard let registration = registration(of: state) else { return try StoredValue.encode(state, for: key) }
        return try StoredValue.encode(RecordedState(registration: registration, state: state), for: key)
    }
}
