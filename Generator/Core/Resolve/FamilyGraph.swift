import Foundation

/// A reference to a schema of another family: `../<Family>/<file>.json#<pointer>`, resolved against the referring
/// file as JSON Schema resolves a relative reference, for the families that sit side by side in one schemas
/// directory.
struct FamilyReference: Equatable {
    /// The family directory whose schemas declare the referred type.
    let family: String
    /// The file in it, e.g. `types.json` or `Token.json`.
    let file: String
    /// The JSON pointer inside the file, percent-decoded, e.g. `/$defs/TokenResponse`.
    let pointer: String

    /// The reference `text` spells, or nil when it does not start with `../` or is not of this shape.
    init?(_ text: String) {
        guard text.hasPrefix("../") else { return nil }
        let rest = text.dropFirst(3)
        guard let hash = rest.firstIndex(of: "#") else { return nil }
        let path = rest[..<hash].split(separator: "/", omittingEmptySubsequences: false)
        guard path.count == 2, Naming.isTypeName(String(path[0])), path[1].hasSuffix(".json"), path[1].count > 5,
            !path[1].contains("\\"),
            let pointer = String(rest[rest.index(after: hash)...]).removingPercentEncoding, pointer.hasPrefix("/")
        else { return nil }
        family = String(path[0])
        file = String(path[1])
        self.pointer = pointer
    }

    /// The family a reference text names, when it refers to another family at all.
    static func family(of text: String) -> String? { FamilyReference(text)?.family }
}

/// The families of a schemas directory and the references between them: which to resolve, and in which order.
struct FamilyGraph {
    private let families: [String: FamilyDocuments]

    init(_ families: [FamilyDocuments]) {
        self.families = Dictionary(families.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The families `family` refers to, with the first reference to each, sorted by name.
    private func dependencies(of family: FamilyDocuments) -> [(name: String, reference: Located<String>)] {
        var first: [String: Located<String>] = [:]
        for reference in family.references {
            guard let name = FamilyReference.family(of: reference.value), name != family.name, first[name] == nil
            else { continue }
            first[name] = reference
        }
        return first.keys.sorted().compactMap { name in first[name].map { (name, $0) } }
    }

    /// `wanted` and every family they refer to, directly or not, sorted by name; every family when `wanted` is nil.
    func closure(of wanted: Set<String>?) -> [FamilyDocuments] {
        guard let wanted else { return families.keys.sorted().compactMap { families[$0] } }
        var included = Set<String>()
        var pending = wanted.sorted()
        while let name = pending.popLast() {
            guard included.insert(name).inserted, let family = families[name] else { continue }
            pending += dependencies(of: family).map(\.name)
        }
        return included.sorted().compactMap { families[$0] }
    }

    /// Every family, each after the families it refers to; a reference that closes a cycle is reported and the
    /// cycle's families are resolved without each other's types.
    func resolutionOrder(diagnostics: inout Diagnostics) -> [FamilyDocuments] {
        var order: [FamilyDocuments] = []
        var state: [String: Bool] = [:]  // false while visiting, true when done
        func visit(_ name: String, path: [String]) {
            guard state[name] == nil, let family = families[name] else { return }
            state[name] = false
            for dependency in dependencies(of: family) {
                if state[dependency.name] == false {
                    let cycle = (path.drop { $0 != dependency.name } + [name, dependency.name]).joined(separator: " → ")
                    diagnostics.error(
                        "the family \(name) refers to \(dependency.name), which refers back to it (\(cycle)), expected references between families that do not form a cycle",
                        at: dependency.reference.location, pointer: dependency.reference.pointer)
                    continue
                }
                visit(dependency.name, path: path + [name])
            }
            state[name] = true
            order.append(family)
        }
        for name in families.keys.sorted() { visit(name, path: []) }
        return order
    }
}
