import Foundation
import HealthSignInCore
import HealthSignInCredentials

/// What a session stores: its state beside the registration it was issued for.
private struct Recorded<State: Decodable>: Decodable {
    let registration: CredentialRegistration
    let state: State
}

extension CredentialStore {
    /// The state a session stored under `key` (read from its record, `{"registration": …, "state": …}`), or nil.
    public func recordedState<State: Decodable>(_ type: State.Type, for key: String) async throws -> State? {
        try await read(key).map { try JSONDecoder().decode(Recorded<State>.self, from: $0).state }
    }

    /// The registration a session stored the value under `key` for, or nil.
    public func recordedRegistration(for key: String) async throws -> CredentialRegistration? {
        try await read(key).map { try JSONDecoder().decode(Recorded<JSONValue>.self, from: $0).registration }
    }
}
