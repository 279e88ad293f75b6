/// Compares two resolved schema sets and lists every change, each classified by a ``DiffRule``.
///
/// Families, servers, error formats and methods are matched by name. A message's shape is walked from each method's
/// request and response, pairing properties by Swift name and then by wire name, so a change is found where it
/// happens (a renamed member, a tightened keyword) and a type that only moved or was renamed is reported once as
/// such. Types neither walk nor name pairs are added or removed.
struct SchemaDiff {
    let old: IRModule
    let new: IRModule
    let oldConfig: GeneratorConfig
    let newConfig: GeneratorConfig
    var changes: [SchemaChange] = []
    /// The type pairs already compared, old name to new name.
    var paired: [IRTypeName: IRTypeName] = [:]
    var pairedNew: Set<IRTypeName> = []
    /// The pairs of types already compared, so a recursive type is compared once.
    var compared: Set<[IRTypeName]> = []
    /// Error formats whose name changed, in any family, old name to new.
    var renamedFormats: [String: String] = [:]

    /// Every change from `old` to `new`, sorted by file, pointer and rule.
    static func changes(
        old: IRModule, new: IRModule, oldConfig: GeneratorConfig = .init(), newConfig: GeneratorConfig = .init()
    ) -> [SchemaChange] {
        var diff = SchemaDiff(old: old, new: new, oldConfig: oldConfig, newConfig: newConfig)
        diff.compareModules()
        return diff.changes.sorted { ($0.file, $0.pointer, $0.rule.rawValue) < ($1.file, $1.pointer, $1.rule.rawValue) }
    }

    mutating func report(_ rule: DiffRule, old: Provenance?, new: Provenance?, _ message: String) {
        changes.append(SchemaChange(rule, old: old, new: new, message))
    }

    private mutating func compareModules() {
        let levels: [GeneratorConfig.AccessModifier] = [.internal, .package, .public]
        let oldLevel = levels.firstIndex(of: oldConfig.accessModifier) ?? 0
        let newLevel = levels.firstIndex(of: newConfig.accessModifier) ?? 0
        if oldLevel != newLevel {
            let place = Provenance(file: "sdkgen-config.json", pointer: "/accessModifier")
            report(
                newLevel < oldLevel ? .accessNarrowed : .accessWidened, old: place, new: place,
                "the generated code is \(newConfig.accessModifier.rawValue), was \(oldConfig.accessModifier.rawValue)")
        }
        let oldFamilies = Dictionary(old.families.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let newFamilies = Dictionary(new.families.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for family in old.families where newFamilies[family.name] == nil {
            report(.familyRemoved, old: family.protocolFile, new: nil, "the family \(family.name) is gone")
        }
        for family in new.families where oldFamilies[family.name] == nil {
            report(.familyAdded, old: nil, new: family.protocolFile, "the family \(family.name) is new")
        }
        // Formats are renamed before any family's methods are compared: a family may use another's.
        for family in old.families {
            guard let other = newFamilies[family.name] else { continue }
            renamedFormats.merge(FamilyComparison.renamedFormats(old: family, new: other)) { first, _ in first }
        }
        for family in old.families {
            guard let other = newFamilies[family.name] else { continue }
            var comparison = FamilyComparison(old: family, new: other)
            comparison.compare(into: &self)
        }
    }
}

extension IRFamily {
    /// The family's `protocol.json`, for changes to it.
    var protocolFile: Provenance { Provenance(file: directory + "/protocol.json", pointer: "") }
}
