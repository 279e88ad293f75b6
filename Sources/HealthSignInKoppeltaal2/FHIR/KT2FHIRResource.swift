import Foundation
import HealthSignInCore

/// A FHIR R4 resource of the Koppeltaal 2.0 profiles, as ``Koppeltaal2FHIRClient`` reads and writes it.
///
/// Edit a resource by setting members of a copy: every member, those the model names and the others another
/// application wrote (`additionalProperties`), stays as it was.
///
/// ```swift
/// var task = current.resource
/// task.status = .inProgress
/// task.owner = KT2Reference(reference: "Practitioner/7", type: "Practitioner")
/// _ = try await fhir.update(task, replacing: current)
/// ```
public protocol KT2FHIRResource: Codable, Sendable, Equatable {
    /// The resource type, e.g. `Task`: the path segment of its REST URLs and its `resourceType`.
    static var resourceType: String { get }
    /// The server's logical id; nil before it is created.
    var id: String? { get set }
    /// The version and profiles.
    var meta: KT2Meta? { get set }
    /// Its extensions, among them the server's `resource-origin`.
    var `extension`: [KT2Extension] { get set }
    /// The members the model does not name, as the server sent them and to be sent back.
    var additionalProperties: [String: JSONValue] { get set }
}

extension KT2FHIRResource {
    /// The Device that created the resource, from the `resource-origin` extension the FHIR server sets, e.g.
    /// `Device/7f1d0d3e`.
    public var resourceOrigin: String? {
        `extension`.first { $0.url == KT2Extensions.resourceOrigin }?.valueReference?.reference
    }
}

/// The extension URLs of the Koppeltaal 2.0 profiles.
public enum KT2Extensions {
    /// Which Device created a resource; the FHIR server sets it, and a create must not carry it.
    public static let resourceOrigin = "http://koppeltaal.nl/fhir/StructureDefinition/resource-origin"
    /// A Task's ActivityDefinition (since 2023-11; `instantiatesCanonical` before).
    public static let instantiates = "http://vzvz.nl/fhir/StructureDefinition/instantiates"
    /// An ActivityDefinition's launch Endpoint.
    public static let endpoint = "http://koppeltaal.nl/fhir/StructureDefinition/KT2EndpointExtension"
    /// An ActivityDefinition's publisher.
    public static let publisherID = "http://koppeltaal.nl/fhir/StructureDefinition/KT2PublisherId"
}

extension KT2Task: KT2FHIRResource {
    /// `Task`.
    public static var resourceType: String { "Task" }

    /// The ActivityDefinition the task instantiates: the `instantiates` extension, or `instantiatesCanonical`
    /// where an older portal wrote only that.
    public var activityDefinition: String? {
        `extension`.first { $0.url == KT2Extensions.instantiates }?.valueReference?.reference ?? instantiatesCanonical
    }

    /// The same task with another status (and everything else, known or not, as it was).
    public func with(status: KT2Task.Status) -> KT2Task {
        var task = self
        task.status = status
        return task
    }
}

extension KT2ActivityDefinition: KT2FHIRResource {
    /// `ActivityDefinition`.
    public static var resourceType: String { "ActivityDefinition" }

    /// The Endpoints that launch the activity, from the `KT2EndpointExtension` extensions.
    public var endpoints: [String] {
        `extension`.filter { $0.url == KT2Extensions.endpoint }.compactMap { $0.valueReference?.reference }
    }
}

extension KT2Endpoint: KT2FHIRResource {
    /// `Endpoint`.
    public static var resourceType: String { "Endpoint" }
}

extension KT2Device: KT2FHIRResource {
    /// `Device`.
    public static var resourceType: String { "Device" }
}

extension KT2Patient: KT2FHIRResource {
    /// `Patient`.
    public static var resourceType: String { "Patient" }
}

extension KT2Practitioner: KT2FHIRResource {
    /// `Practitioner`.
    public static var resourceType: String { "Practitioner" }
}

extension KT2RelatedPerson: KT2FHIRResource {
    /// `RelatedPerson`.
    public static var resourceType: String { "RelatedPerson" }
}

extension KT2CareTeam: KT2FHIRResource {
    /// `CareTeam`.
    public static var resourceType: String { "CareTeam" }
}

extension KT2Subscription: KT2FHIRResource {
    /// `Subscription`.
    public static var resourceType: String { "Subscription" }
}

extension KT2AuditEvent: KT2FHIRResource {
    /// `AuditEvent`.
    public static var resourceType: String { "AuditEvent" }
}
