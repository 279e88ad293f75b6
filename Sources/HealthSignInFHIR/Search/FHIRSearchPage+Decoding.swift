import Foundation
@_spi(Generated) import HealthSignInCore

extension FHIRSearchPage: Decodable {
    private enum CodingKeys: String, CodingKey {
        case resourceType, total, link, entry
    }

    /// Reads a page from a searchset Bundle, entry by entry: ``FHIRJSON/decode(_:from:)`` reads one from a body
    /// another client fetched.
    ///
    /// - Throws: `DecodingError` when the document is not a Bundle, its `total` or `link` cannot be read, or its
    ///   `next` link is not a URL (the pages after it would be lost without a word); an entry that cannot be read goes
    ///   to ``unreadableEntries`` instead.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let resourceType = try container.decode(String.self, forKey: .resourceType)
        guard resourceType == "Bundle" else {
            throw DecodingError.dataCorruptedError(
                forKey: .resourceType, in: container, debugDescription: "expected a Bundle, found \(resourceType)")
        }
        var entries: [BundleEntry] = []
        var unreadable: [ResponseDecodingError] = []
        for (index, value) in (try container.decodeIfPresent([JSONValue].self, forKey: .entry) ?? []).enumerated() {
            do {
                entries.append(try Self.entry(value))
            } catch {
                unreadable.append(Self.failure(error, at: "entry[\(index)]"))
            }
        }
        let links = try container.decodeIfPresent([BundleLink].self, forKey: .link) ?? []
        var next: URL?
        if let link = links.first(where: { $0.relation == "next" }) {
            guard let url = URL(string: link.url) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .link, in: container, debugDescription: "the next link is not a URL")
            }
            next = url
        }
        self.init(
            entries: entries, unreadableEntries: unreadable,
            total: try container.decodeIfPresent(Int.self, forKey: .total), links: links, next: next)
    }

    private static func entry(_ value: JSONValue) throws -> BundleEntry {
        guard case .object(let object) = value else {
            throw ResponseDecodingError(path: "", reason: "expected object")
        }
        let members = Dictionary(object.members, uniquingKeysWith: { first, _ in first })
        return try JSONCoding.decodeMembers(members) { try BundleEntry(from: $0) }
    }

    /// `error` of the entry at `entryPath`, with the path from the Bundle's root.
    private static func failure(_ error: any Error, at entryPath: String) -> ResponseDecodingError {
        guard let error = error as? ResponseDecodingError else {
            return ResponseDecodingError(path: entryPath, reason: String(describing: error))
        }
        return ResponseDecodingError(
            path: entryPath + (error.path.isEmpty || error.path.hasPrefix("[") ? "" : "/") + error.path,
            reason: error.reason)
    }
}
