import Foundation

/// What a FHIR server answered to a create, an update or a delete.
public struct FHIRWriteOutcome: Sendable, Equatable {
    /// The HTTP status: 201 when a resource was created, 200 when it was updated or a conditional create found it
    /// already there, 200 or 204 for a delete.
    public var status: Int
    /// The resource as the server stored it, or the OperationOutcome it sent instead; nil when the body was empty
    /// (a server may leave it out).
    public var resource: Resource?
    /// The `Location` header: the URL of the version written, `[base]/[type]/[id]/_history/[vid]`.
    public var location: String?
    /// The version id the `ETag` header names (`W/"3"` names `3`): what a later update passes as `ifMatch`.
    public var versionID: String?

    /// Creates an outcome from its parts.
    public init(status: Int, resource: Resource? = nil, location: String? = nil, versionID: String? = nil) {
        self.status = status
        self.resource = resource
        self.location = location
        self.versionID = versionID
    }

    /// Whether the server created a resource (201), rather than updating one or finding a conditional create's match.
    public var created: Bool { status == 201 }
}
