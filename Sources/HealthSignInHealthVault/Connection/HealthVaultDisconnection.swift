import Foundation

/// What ``HealthVaultConnection/disconnect(releasingRecords:)`` did with the records the app instance was authorized
/// for. The local state is erased whatever this reports.
public struct HealthVaultDisconnection: Sendable {
    /// A record whose authorization could not be removed, and why.
    public struct UnreleasedRecord: Sendable {
        /// The record that stays authorized for the (now forgotten) app instance.
        public let record: HealthVaultRecordSummary
        /// Why removing the authorization failed: a `HealthVaultError`, a transport error, …
        public let error: any Error
    }

    /// Records whose authorization was removed, or that HealthVault no longer had authorized (status 58).
    public let releasedRecords: [HealthVaultRecordSummary]
    /// Records that are still authorized; the user can remove them in HealthVault's account settings.
    public let unreleasedRecords: [UnreleasedRecord]
    /// Why the authorized records could not be listed, so none was released; nil when they were known.
    public let recordListingError: (any Error)?

    /// Whether every authorized record was released (also when there was none).
    public var releasedEveryRecord: Bool { unreleasedRecords.isEmpty && recordListingError == nil }

    /// Nothing to release: the instance was never authorized, or releasing was not asked for.
    static let nothingToRelease = HealthVaultDisconnection(
        releasedRecords: [], unreleasedRecords: [], recordListingError: nil)
}
