import Foundation
import HealthSignInCore

/// A person who authorized this app instance, and the records the app may use on their behalf.
public struct HealthVaultPerson: Sendable, Hashable, Codable {
    /// The person id (the `offline-person-id` of record calls).
    public let id: UUID
    /// The person's name.
    public let name: String
    /// The records the app may use for this person.
    public let records: [HealthVaultRecordSummary]

    /// Creates a person.
    public init(id: UUID, name: String, records: [HealthVaultRecordSummary]) {
        self.id = id
        self.name = name
        self.records = records
    }

    /// The person as GetAuthorizedPeople describes them.
    init(_ info: PersonInfo) {
        self.init(
            id: info.personID, name: info.name,
            records: info.record.map {
                HealthVaultRecordSummary(id: $0.id, name: $0.displayName ?? $0.name, personID: info.personID)
            })
    }
}

/// A health record the app may use, and the person it uses it for.
public struct HealthVaultRecordSummary: Sendable, Hashable, Codable {
    /// The record id (the `record-id` of record calls).
    public let id: UUID
    /// The record's display name, when it has one.
    public let name: String?
    /// The person the app acts for when it uses the record.
    public let personID: UUID

    /// Creates a record summary.
    public init(id: UUID, name: String?, personID: UUID) {
        self.id = id
        self.name = name
        self.personID = personID
    }
}

/// What a record call needs: the client for the user's instance, a session that acts for the record's person, and
/// the record. Each ``send(_:)`` is one request: a session that expired (status 65) is renewed once for all callers
/// and only that request is sent again.
public struct HealthVaultRecordCalls: Sendable {
    /// The record the calls are for.
    public let record: HealthVaultRecordSummary
    let connection: HealthVaultConnection

    /// Sends one record-scoped request, for example
    /// `try await calls.send { try await $0.getThings3(query, recordID: $2, session: $1) }`.
    public func send<Result: Sendable>(
        _ request: @Sendable (HealthVaultAPIClient, HealthVaultSessionCredential, UUID) async throws -> Result
    ) async throws -> Result {
        let record = record
        return try await connection.withSession { client, session in
            try await request(client, session.acting(for: record.personID), record.id)
        }
    }
}
