import Foundation
import HealthSignInCore

/// The HealthVault instances a master application's topology names (GetServiceDefinition), learned on first need and
/// learned again when an instance or a Shell is missing from it, as HealthVault's own SDKs reload it once.
final class ShellTopology: Sendable {
    private let fetch: @Sendable (UUID) async throws -> [HealthVaultInstance]
    private let learned = LockedValue<(masterAppID: UUID, instances: [HealthVaultInstance])?>(nil)

    /// A topology that `fetch` reads for a master application.
    init(fetch: @escaping @Sendable (UUID) async throws -> [HealthVaultInstance]) { self.fetch = fetch }

    /// The instances of `masterAppID`'s topology: the ones learned, or (when none are) read now.
    func instances(of masterAppID: UUID) async throws -> [HealthVaultInstance] {
        try await lookup(masterAppID, refreshing: false).instances
    }

    /// The instance `id` (compared without regard to case), reading the topology again once when it is missing.
    ///
    /// - Throws: ``HealthVaultConnectionError/unknownInstance(_:)`` when the topology does not name it.
    func instance(_ id: String, of masterAppID: UUID) async throws -> HealthVaultInstance {
        let found = try await search(masterAppID) { instances in
            instances.first { $0.id.caseInsensitiveCompare(id) == .orderedSame }
        }
        guard let found else { throw HealthVaultConnectionError.unknownInstance(id) }
        return found
    }

    /// Whether `url` is on a Shell of `masterAppID`'s topology, reading the topology again once when it is not.
    func hasShell(at url: URL, of masterAppID: UUID) async throws -> Bool {
        try await search(masterAppID) { ShellOrigins($0.map(\.shellURL)).contains(url) ? true : nil } ?? false
    }

    /// What `find` makes of the learned instances, or of those read again when it makes nothing of them (a topology
    /// read just now is not read twice).
    private func search<Found>(_ masterAppID: UUID, _ find: ([HealthVaultInstance]) -> Found?) async throws -> Found? {
        let (instances, readNow) = try await lookup(masterAppID, refreshing: false)
        if let found = find(instances) { return found }
        return readNow ? nil : find(try await lookup(masterAppID, refreshing: true).instances)
    }

    /// The learned instances, or those read now (when `refreshing`, or none are learned), and which they are.
    private func lookup(_ masterAppID: UUID, refreshing: Bool) async throws
        -> (instances: [HealthVaultInstance], readNow: Bool)
    {
        if !refreshing, let learned = learned.current, learned.masterAppID == masterAppID {
            return (learned.instances, false)
        }
        let instances = try await fetch(masterAppID)
        learned.withValue { $0 = (masterAppID, instances) }
        return (instances, true)
    }
}

/// The origins (scheme, host and port, without regard to case) of Shells the app trusts with a completion page.
struct ShellOrigins: Sendable {
    private let origins: Set<String>

    /// The origins of `shells`.
    init(_ shells: [URL]) { origins = Set(shells.compactMap(Self.origin)) }

    /// Whether `url` is on one of the origins.
    func contains(_ url: URL) -> Bool { Self.origin(url).map(origins.contains) ?? false }

    /// These origins and `other`'s.
    func union(_ other: ShellOrigins) -> ShellOrigins { ShellOrigins(origins: origins.union(other.origins)) }

    private init(origins: Set<String>) { self.origins = origins }

    /// `https://account.healthvault.com:443`, with the scheme's default port when the URL names none.
    private static func origin(_ url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }
}
