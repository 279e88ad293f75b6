import Foundation
import HealthSignInCore

extension Koppeltaal2FHIRClient {
    /// Reads the resource `id`, applies `change` to it and updates it, applying `change` again to the current version
    /// each time another application changed the resource in between.
    ///
    /// ```swift
    /// let started = try await fhir.update(KT2Task.self, id: "t1") { $0.with(status: .inProgress) }
    /// ```
    ///
    /// - Parameters:
    ///   - type: the resource type.
    ///   - id: the resource's id.
    ///   - maximumAttempts: how many updates may be sent, 1 to 10; the last conflict is thrown when all were.
    ///   - trace: the chain the requests belong to.
    ///   - change: makes the new content from the current one; it may run once per attempt.
    /// - Throws: ``KT2UpdateConflict`` when every attempt met a newer version; what ``read(_:id:trace:)``,
    ///   `change` and ``update(_:replacing:trace:)`` throw otherwise; `ConfigurationError.invalidSetting` for a
    ///   `maximumAttempts` outside 1 to 10.
    public func update<Resource: KT2FHIRResource>(
        _ type: Resource.Type, id: String, maximumAttempts: Int = 3, trace: KT2Trace = KT2Trace(),
        change: (Resource) throws -> Resource
    ) async throws -> KT2Versioned<Resource> {
        let attempts = try ConfigurationError.checked(maximumAttempts, named: "maximumAttempts", in: 1...10)
        return try await update(
            try await read(type, id: id, trace: trace), maximumAttempts: attempts, trace: trace, change: change)
    }

    /// Applies `change` to `version` and updates the resource, applying `change` again to the current version each
    /// time another application changed the resource in between.
    ///
    /// - Parameters:
    ///   - version: the version to start from, as read, created, found or returned by the last update.
    ///   - maximumAttempts: how many updates may be sent, 1 to 10; the last conflict is thrown when all were.
    ///   - trace: the chain the requests belong to.
    ///   - change: makes the new content from the current one; it may run once per attempt.
    /// - Throws: as ``update(_:id:maximumAttempts:trace:change:)``.
    public func update<Resource: KT2FHIRResource>(
        _ version: KT2Versioned<Resource>, maximumAttempts: Int = 3, trace: KT2Trace = KT2Trace(),
        change: (Resource) throws -> Resource
    ) async throws -> KT2Versioned<Resource> {
        let attempts = try ConfigurationError.checked(maximumAttempts, named: "maximumAttempts", in: 1...10)
        var version = version
        var attempt = 1
        while true {
            do {
                return try await update(try change(version.resource), replacing: version, trace: trace)
            } catch let conflict as KT2UpdateConflict {
                guard attempt < attempts, let current = conflict.current(as: Resource.self) else { throw conflict }
                version = current
                attempt += 1
            }
        }
    }
}
