import Foundation
@_spi(Generated) import HealthSignInCore

/// One page of a search, or any searchset or transaction Bundle read for one resource type: the resources of that
/// type it holds with their versions, one ``KT2EntryFailure`` for each such resource the model cannot read, the
/// server's total when it counts, and the next page's link.
///
/// In a domain many vendors write to, a resource that breaks the profile (a Task without `owner`) is a matter of
/// time; the rest of the page is still read, and the module decides what to do with what was not:
///
/// ```swift
/// for try await page in fhir.search(KT2Task.self, ["status": "ready"]) {
///     for task in page.resources { show(task.resource) }
///     for failure in page.failures { print("not read: \(failure)") }  // Task/t7: owner: …
/// }
/// ```
public struct KT2SearchPage<Resource: KT2FHIRResource>: Sendable {
    /// The matches on this page that the model reads (entries of other types or `include` mode are left out).
    public let resources: [KT2Versioned<Resource>]
    /// The matches of this page's type that the model does not read, in the page's order.
    public let failures: [KT2EntryFailure]
    /// How many match in all, when the server says.
    public let total: Int?
    /// The next page, when there is one.
    public let next: URL?

    /// Reads `bundle`, a FHIR Bundle in JSON, entry by entry.
    ///
    /// - Throws: `ResponseDecodingError` when `bundle` is not a Bundle: not JSON, another `resourceType`, or an
    ///   `entry` or `link` that is not an array of objects. A resource that does not read is a failure, not an error.
    public init(bundle: Data) throws {
        let document = try JSONCoding.decode(JSONValue.self, from: bundle)
        guard case .object(let members) = document, members["resourceType"]?.stringValue == "Bundle" else {
            throw ResponseDecodingError(path: "resourceType", reason: "expected a Bundle")
        }
        var resources: [KT2Versioned<Resource>] = []
        var failures: [KT2EntryFailure] = []
        for (index, entry) in try Self.objects(members["entry"], at: "entry").enumerated() {
            guard entry["search"]?["mode"]?.stringValue ?? "match" == "match",
                let resource = entry["resource"], resource["resourceType"]?.stringValue == Resource.resourceType
            else { continue }
            do {
                let typed = try JSONCoding.decode(Resource.self, from: Data(resource.serialized()))
                resources.append(KT2Versioned(resource: typed, eTag: weakETag(version: typed.meta?.versionID ?? "")))
            } catch {
                failures.append(
                    KT2EntryFailure(
                        index: index, reference: resource["id"]?.stringValue.map { Resource.resourceType + "/" + $0 },
                        fullURL: entry["fullUrl"]?.stringValue, error: error, json: resource))
            }
        }
        let links = try Self.objects(members["link"], at: "link")
        self.resources = resources
        self.failures = failures
        total = members["total"]?.numberValue?.intValue
        next = links.first { $0["relation"]?.stringValue == "next" }?["url"]?.stringValue.flatMap(URL.init(string:))
    }

    private static func objects(_ value: JSONValue?, at path: String) throws -> [JSONObject] {
        guard let value else { return [] }
        guard case .array(let items) = value else {
            throw ResponseDecodingError(path: path, reason: "expected an array")
        }
        return try items.enumerated().map { index, item in
            guard case .object(let object) = item else {
                throw ResponseDecodingError(path: "\(path)[\(index)]", reason: "expected an object")
            }
            return object
        }
    }
}

/// A resource of a Bundle that the model of its type does not read: which one, the member, and why. It keeps the
/// resource's JSON for the module to read otherwise; printing shows neither the JSON nor the values.
public struct KT2EntryFailure: Sendable, CustomStringConvertible, CustomReflectable {
    /// The entry's position in the Bundle's `entry`.
    public let index: Int
    /// `<type>/<id>`, when the resource has an id.
    public let reference: String?
    /// The entry's `fullUrl`, when given.
    public let fullURL: String?
    /// The member that did not read, by wire names from the resource (`owner`, `identifier[0]/value`); empty for the
    /// resource as a whole.
    public let member: String
    /// What was expected there.
    public let reason: String
    /// The resource as the server sent it.
    public let json: JSONValue

    init(index: Int, reference: String?, fullURL: String?, error: any Error, json: JSONValue) {
        self.index = index
        self.reference = reference
        self.fullURL = fullURL
        let decoding = error as? ResponseDecodingError
        member = decoding?.path ?? ""
        reason = decoding?.reason ?? "\(error)"
        self.json = json
    }

    /// `<reference>: <member>: <reason>`.
    public var description: String {
        let name = reference ?? fullURL ?? "entry[\(index)]"
        return member.isEmpty ? "\(name): \(reason)" : "\(name): \(member): \(reason)"
    }

    /// A mirror that shows the description: the resource's JSON may hold health data.
    public var customMirror: Mirror { Mirror(self, children: ["failure": description]) }
}
