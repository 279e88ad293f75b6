import Foundation
@_spi(Generated) import HealthSignInCore

/// One page of a FHIR search: the entries of a `searchset` Bundle, sorted by why the server sent them.
///
/// An entry the models cannot read does not fail the page: it is left out of ``entries`` and reported in
/// ``unreadableEntries`` with its path, so one resource of a newer FHIR release or a server's mistake costs that entry
/// only.
public struct FHIRSearchPage: Sendable, Equatable {
    /// The entries that were read, in the Bundle's order.
    public var entries: [BundleEntry]
    /// Why each entry the models could not read was refused, with its path in the Bundle (`entry[3]/resource/…`).
    public var unreadableEntries: [ResponseDecodingError]
    /// The number of matches across all pages, when the server counted them.
    public var total: Int?
    /// The Bundle's links (`self`, `next`, `previous`, …) as the server wrote them.
    public var links: [BundleLink]
    /// The next page's URL, when the server offers one; ``FHIRAPIClient/page(after:token:)`` reads it.
    public var next: URL?

    /// Where a page of a search is: the first page, or the `next` link of the page before.
    public enum Position: Hashable, Sendable {
        /// The search itself.
        case first
        /// The page at a previous page's `next` link.
        case next(URL)
    }

    /// Creates a page from its parts.
    public init(
        entries: [BundleEntry], unreadableEntries: [ResponseDecodingError] = [], total: Int? = nil,
        links: [BundleLink] = [], next: URL? = nil
    ) {
        self.entries = entries
        self.unreadableEntries = unreadableEntries
        self.total = total
        self.links = links
        self.next = next
    }

    /// The resources that matched the search: entries whose `search.mode` is `match`, or says nothing.
    public var matches: [Resource] { resources { $0 == nil || $0 == .match } }

    /// The resources the server added for `_include` or `_revinclude` (`search.mode` `include`).
    public var included: [Resource] { resources { $0 == .include } }

    /// The OperationOutcomes the server sent about the search itself (`search.mode` `outcome`), such as a warning
    /// about a parameter it ignored.
    public var outcomes: [OperationOutcome] {
        resources { $0 == .outcome }.compactMap { resource in
            guard case .operationOutcome(let outcome) = resource else { return nil }
            return outcome
        }
    }

    /// The matches of type `type`, such as `FHIRObservation.self`.
    public func matches<Model>(of type: Model.Type) -> [Model] { matches.compactMap { $0.model(as: type) } }

    /// The included resources of type `type`, such as `Patient.self` for `_include=Observation:subject`.
    public func included<Model>(of type: Model.Type) -> [Model] { included.compactMap { $0.model(as: type) } }

    private func resources(where mode: (SearchEntryMode?) -> Bool) -> [Resource] {
        entries.compactMap { entry in mode(entry.search?.mode) ? entry.resource : nil }
    }
}

extension Resource {
    /// The model this case holds when it is a `type`, such as `Patient.self`; otherwise nil.
    public func model<Model>(as type: Model.Type) -> Model? {
        // Every case holds exactly one model, so the single child of the case's mirror is that model.
        Mirror(reflecting: self).children.first?.value as? Model
    }
}
