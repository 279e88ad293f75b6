/// Whether a change breaks something: Swift code written against the old generated API (``SchemaChange/source``),
/// or messages between a client and a server that use different versions (``SchemaChange/wire``).
enum ChangeVerdict: String, Sendable, Hashable, Codable, CaseIterable {
    /// Something that worked before can fail after.
    case breaking
    /// Nothing that worked before fails.
    case compatible
}

/// One difference between two schema sets, located in both, with what it breaks.
struct SchemaChange: Sendable, Equatable {
    /// The rule that classifies it.
    let rule: DiffRule
    /// The schema file and JSON pointer in the new set, or in the old one for what was removed, e.g.
    /// `Schemas/Vital/CreateUser.json` and `/request/properties/client_user_id`.
    let file: String
    /// The JSON pointer inside ``file``.
    let pointer: String
    /// Where it was in the old set, when it existed there.
    let old: Provenance?
    /// Where it is in the new set, when it exists there.
    let new: Provenance?
    /// What changed, in a sentence: names, values before and after.
    let message: String

    /// Whether Swift written against the old generated API still compiles against the new one.
    var source: ChangeVerdict { rule.source }
    /// Whether a message valid under one version can be refused or read differently under the other, in either
    /// direction.
    var wire: ChangeVerdict { rule.wire }

    /// A change located at `new` (or `old` when it is gone).
    init(_ rule: DiffRule, old: Provenance?, new: Provenance?, _ message: String) {
        self.rule = rule
        self.old = old
        self.new = new
        let place = new ?? old
        self.file = place?.file ?? ""
        self.pointer = place?.pointer ?? ""
        self.message = message
    }
}
