import Foundation
@_spi(Generated) import HealthSignInCore

/// A resource as the server last returned it, with the `ETag` of that version, which an update must send back in
/// `If-Match`.
public struct KT2Versioned<Resource: KT2FHIRResource>: Sendable, Equatable {
    /// The resource.
    public let resource: Resource
    /// The version's entity tag, e.g. `W/"3"`: the `ETag` header, or made from `meta.versionId` where the server
    /// sent none (a search result's entries).
    public let eTag: String

    /// A resource and the entity tag of its version.
    public init(resource: Resource, eTag: String) {
        self.resource = resource
        self.eTag = eTag
    }

    /// The version id inside the entity tag, e.g. `3` of `W/"3"`.
    public var versionID: String { Self.versionID(inETag: eTag) }

    /// The version id of an entity tag: `W/"3"` and `"3"` give `3`.
    static func versionID(inETag eTag: String) -> String {
        var text = Substring(eTag.trimmingCharacters(in: .whitespaces))
        if text.hasPrefix("W/") { text = text.dropFirst(2) }
        if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") { text = text.dropFirst().dropLast() }
        return String(text)
    }
}

/// The weak entity tag of a version id, as FHIR servers write it: `W/"3"`.
func weakETag(version: String) -> String { "W/\"\(version)\"" }

/// A request the FHIR client refuses to send, because the server would refuse it or it would lose data.
public struct KT2RequestError: SDKError, Hashable {
    /// What is wrong.
    public enum Code: String, Sendable, Hashable {
        /// A create carries the `resource-origin` extension, which only the server sets.
        case resourceOriginOnCreate
        /// An update names no id, or another id than the version it replaces.
        case idMismatch
        /// The version an update replaces has no entity tag to send in `If-Match`.
        case missingVersion
        /// A search's next page is on another server than the FHIR base, where the token must not go.
        case foreignPageLink
    }

    /// What is wrong.
    public let code: Code
    /// The resource type.
    public let resourceType: String
    /// The details.
    public let detail: String

    /// An error of `code` for a request on `resourceType`.
    public init(code: Code, resourceType: String, detail: String) {
        self.code = code
        self.resourceType = resourceType
        self.detail = detail
    }

    /// A programming error: fix the request.
    public var recovery: ErrorRecovery { .fixRequest }

    /// `Koppeltaal2: Task: <detail>`.
    public var description: String { "Koppeltaal2 \(resourceType): \(detail) (\(code.rawValue))" }
}

/// An update refused because the resource changed since the version it replaces was read: the server answered 409
/// or 412 to the `If-Match`, and the version read right after is another than the one sent. It carries that version,
/// so the change can be applied again to it (``Koppeltaal2FHIRClient/update(_:id:maximumAttempts:trace:change:)``
/// does so, a bounded number of times).
public struct KT2UpdateConflict: SDKError {
    /// 409 or 412.
    public let httpStatus: Int
    /// The server's OperationOutcome, when it sent one.
    public let outcome: KT2OperationOutcome?
    /// The entity tag the update sent.
    public let sentETag: String
    /// The resource's current version: its entity tag, always of another version than ``sentETag``, and JSON.
    public let current: (eTag: String, json: Data)

    /// A conflict answered with `httpStatus` to an update that sent `sentETag`, the resource being at `current`.
    public init(httpStatus: Int, outcome: KT2OperationOutcome?, sentETag: String, current: (eTag: String, json: Data)) {
        self.httpStatus = httpStatus
        self.outcome = outcome
        self.sentETag = sentETag
        self.current = current
    }

    /// The current version as `type`, or nil when it does not read as one.
    public func current<Resource: KT2FHIRResource>(as type: Resource.Type) -> KT2Versioned<Resource>? {
        guard let resource = try? JSONCoding.decode(Resource.self, from: current.json) else { return nil }
        return KT2Versioned(resource: resource, eTag: current.eTag)
    }

    /// Read again and reapply the change.
    public var recovery: ErrorRecovery { .none }

    /// The status and the versions.
    public var description: String {
        "Koppeltaal2 update conflict: HTTP \(httpStatus), sent If-Match \(sentETag), current \(current.eTag)"
    }
}

/// An update the server refused with 409 or 412 although the resource is still at the version sent: the `If-Match`
/// did not reach the server as sent (a proxy removed or rewrote it) or the server could not read it. Re-reading and
/// retrying would be refused the same way, so this is never a ``KT2UpdateConflict``.
public struct KT2PreconditionError: SDKError {
    /// 409 or 412.
    public let httpStatus: Int
    /// The server's OperationOutcome, when it sent one (e.g. "If-Match header is required").
    public let outcome: KT2OperationOutcome?
    /// The entity tag the update sent, which is the current version's.
    public let sentETag: String

    /// A refusal answered with `httpStatus` to an update that sent `sentETag`, the current version.
    public init(httpStatus: Int, outcome: KT2OperationOutcome?, sentETag: String) {
        self.httpStatus = httpStatus
        self.outcome = outcome
        self.sentETag = sentETag
    }

    /// Something between the module and the server changes the request: fix the deployment.
    public var recovery: ErrorRecovery { .reconfigure }

    /// The status, what was sent, and the server's words.
    public var description: String {
        let words = outcome?.issue.compactMap(\.diagnostics).first.map { ": \($0)" } ?? ""
        return "Koppeltaal2 update refused with HTTP \(httpStatus) although If-Match \(sentETag) is the current "
            + "version; the header did not arrive as sent\(words)"
    }
}
