/// What a package's `sdkgen-config.json` asks of the generator: which families, the access level of the generated
/// code, extra imports, and Swift names that replace the schemas' own. The file's shape is
/// `Schemas/config.schema.json`.
///
/// ```json
/// {
///   "families": ["Vital"],
///   "accessModifier": "internal",
///   "additionalImports": ["MyLogging"],
///   "namingOverrides": {
///     "types": {"Vital.ConnectedProvider": "LinkedProvider"},
///     "methods": {"Vital.GetConnectedProviders": "linkedProviders"}
///   }
/// }
/// ```
package struct GeneratorConfig: Sendable, Equatable {
    /// The access level of every generated declaration.
    enum AccessModifier: String, Sendable, CaseIterable {
        /// Visible to every module that imports the target (the default).
        case `public`
        /// Visible to the targets of the same package.
        case `package`
        /// Visible only inside the target, as for code generated into an app.
        case `internal`
    }

    /// Generate only these families (nil for all).
    var families: Set<String>?
    /// The access level of the generated declarations.
    var accessModifier: AccessModifier
    /// Modules every generated source file imports besides Foundation and HealthSignInCore.
    package var additionalImports: [String]
    /// Swift names of `types.json` types, by `Family.Key` (the key under `$defs`).
    package var typeNames: [String: String]
    /// Client method names, by `Family.Method` (the method's `name`).
    package var methodNames: [String: String]

    /// Creates a configuration; the defaults are what `sdkgen` does without a file.
    init(
        families: Set<String>? = nil, accessModifier: AccessModifier = .public, additionalImports: [String] = [],
        typeNames: [String: String] = [:], methodNames: [String: String] = [:]
    ) {
        self.families = families
        self.accessModifier = accessModifier
        self.additionalImports = additionalImports
        self.typeNames = typeNames
        self.methodNames = methodNames
    }

    /// Where each naming override is in the file, for diagnostics about what it names.
    var overrideLocations: [String: Located<String>] = [:]

    /// Reads the configuration in `text`, shown in diagnostics as `file`; nil (with diagnostics) when it is not
    /// valid.
    package static func decode(_ text: String, file: String) -> (GeneratorConfig?, Diagnostics) {
        var diagnostics = Diagnostics()
        guard let root = JSONParser.parse(text, file: file, diagnostics: &diagnostics),
            let reader = ObjectReader(
                root, what: "the configuration",
                keywords: ["$schema", "families", "accessModifier", "additionalImports", "namingOverrides"],
                diagnostics: &diagnostics)
        else { return (nil, diagnostics) }
        var config = GeneratorConfig()
        if let families = reader.strings("families", diagnostics: &diagnostics) {
            for family in families where !Naming.isTypeName(family.value) {
                diagnostics.error(
                    "\"\(family.value)\" in \"families\" is not a family name, expected a Swift module name",
                    at: family.location, pointer: family.pointer)
            }
            config.families = Set(families.map(\.value))
        }
        if let access = reader.choice("accessModifier", AccessModifier.self, diagnostics: &diagnostics) {
            config.accessModifier = access.value
        }
        for module in reader.strings("additionalImports", diagnostics: &diagnostics) ?? [] {
            guard Naming.isIdentifier(module.value), !Naming.keywords.contains(module.value) else {
                diagnostics.error(
                    "\"\(module.value)\" in \"additionalImports\" is not a module name, expected a Swift identifier",
                    at: module.location, pointer: module.pointer)
                continue
            }
            config.additionalImports.append(module.value)
        }
        if let overrides = reader.value("namingOverrides") {
            config.readOverrides(overrides, diagnostics: &diagnostics)
        }
        reader.finish(&diagnostics)
        return (diagnostics.hasErrors ? nil : config, diagnostics)
    }

    private mutating func readOverrides(_ node: JSONNode, diagnostics: inout Diagnostics) {
        guard
            let reader = ObjectReader(
                node, what: "\"namingOverrides\"", keywords: ["types", "methods"], diagnostics: &diagnostics)
        else { return }
        for (key, isType) in [("types", true), ("methods", false)] {
            guard let value = reader.value(key) else { continue }
            guard let members = value.members else {
                diagnostics.error(
                    "\"\(key)\" is \(ObjectReader.article(value.kindName)), expected an object of names",
                    at: value.location, pointer: value.pointer)
                continue
            }
            for member in members {
                guard let name = member.value.stringValue else {
                    diagnostics.error(
                        "\"\(member.key)\" is \(ObjectReader.article(member.value.kindName)), expected a string",
                        at: member.value.location, pointer: member.value.pointer)
                    continue
                }
                let parts = member.key.split(separator: ".", omittingEmptySubsequences: false)
                guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty }) else {
                    diagnostics.error(
                        "\"\(member.key)\" is not \(isType ? "Family.TypeKey" : "Family.Method"), expected the family and the schema's name joined by a dot",
                        at: member.keyLocation, pointer: member.value.pointer)
                    continue
                }
                let valid = isType ? Naming.isTypeName(name) : Self.isMethodName(name)
                guard valid else {
                    diagnostics.error(
                        "\"\(name)\" is not \(isType ? "an UpperCamelCase Swift type name" : "a lowerCamelCase Swift function name"), expected letters and digits\(isType ? " starting with a capital" : " starting with a lowercase letter")",
                        at: member.value.location, pointer: member.value.pointer)
                    continue
                }
                if isType { typeNames[member.key] = name } else { methodNames[member.key] = name }
                overrideLocations[(isType ? "types:" : "methods:") + member.key] = Located(
                    value: member.key, location: member.keyLocation, pointer: member.value.pointer)
            }
        }
        reader.finish(&diagnostics)
    }

    private static func isMethodName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return Naming.isIdentifier(name) && !Naming.keywords.contains(name)
    }

    /// Reports naming overrides that name no family, type or method of `families`.
    func checkOverrides(against families: [FamilyDocuments], diagnostics: inout Diagnostics) {
        let byName = Dictionary(families.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for (entry, located) in overrideLocations.sorted(by: { $0.key < $1.key }) {
            let isType = entry.hasPrefix("types:")
            let parts = located.value.split(separator: ".").map(String.init)
            guard parts.count == 2 else { continue }
            guard let family = byName[parts[0]] else {
                diagnostics.error(
                    "\"\(located.value)\" names the family \(parts[0]), which is not generated, expected one of \(Diagnostics.choices(byName.keys, empty: "no families"))",
                    at: located.location, pointer: located.pointer)
                continue
            }
            let known: [String] =
                isType ? (family.typesDocument?.defs.map(\.name) ?? []) : family.methods.map(\.name.value)
            if !known.contains(parts[1]) {
                diagnostics.error(
                    "\"\(located.value)\" names no \(isType ? "type of types.json" : "method") in \(parts[0]), expected one of \(Diagnostics.choices(known, empty: "there are none"))",
                    at: located.location, pointer: located.pointer)
            }
        }
    }
}
