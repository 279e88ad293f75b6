/// The types and error formats a family uses from other families: finding what a `../<Family>/…` reference names in
/// that family's resolved IR, and copying it, with everything it refers to, into this family's type table under
/// the names generated code uses for it (`OAuth2.TokenResponse` when each family is its own module).
struct ExternalTypes {
    /// The families resolved before this one, by name.
    let families: [String: IRFamily]
    /// The families generated into the same module as this one, whose types are named without a module; every
    /// other family is a module of its own, imported.
    let sharedModule: Set<String>
    /// The family being resolved.
    var family = ""
    /// The family directories that exist, resolved or not: a reference to one that could not be resolved (its own
    /// errors, or a cycle, are reported elsewhere) says nothing more.
    var existing: Set<String> = []
    /// The names given here to the types imported so far, by their family and name there.
    private var imported: [String: IRTypeName] = [:]
    /// The first reference to each family used, where a problem with what is used from it is reported.
    private(set) var firstReferences: [String: Located<String>] = [:]

    init(families: [String: IRFamily] = [:], sharedModule: Set<String> = []) {
        self.families = families
        self.sharedModule = sharedModule
    }

    /// Whether `family`'s types are named with its module here.
    private func qualifies(_ family: String) -> Bool { !sharedModule.contains(family) }

    /// The family a `../` reference names, or nil with a diagnostic (or silently, for a family known to exist but not
    /// resolved).
    private mutating func family(
        of reference: Located<String>, parsed: FamilyReference?, expected: String, diagnostics: inout Diagnostics
    ) -> (IRFamily, FamilyReference)? {
        guard let parsed else {
            diagnostics.error(
                "\"$ref\": \"\(reference.value)\" is not a reference sdkgen understands, expected \(expected)",
                at: reference.location, pointer: reference.pointer)
            return nil
        }
        if parsed.family == family {
            diagnostics.error(
                "\"$ref\": \"\(reference.value)\" refers to this family through \"../\", expected \"types.json#/$defs/Name\" or \"#/$defs/Name\"",
                at: reference.location, pointer: reference.pointer)
            return nil
        }
        guard let target = families[parsed.family] else {
            if existing.contains(parsed.family) { return nil }
            diagnostics.error(
                "\"$ref\": \"\(reference.value)\" names the family \(parsed.family), which is not a family directory beside this one, expected one of \(Diagnostics.choices(existing.subtracting([family]), empty: "no other families"))",
                at: reference.location, pointer: reference.pointer)
            return nil
        }
        if firstReferences[parsed.family] == nil { firstReferences[parsed.family] = reference }
        return (target, parsed)
    }

    // MARK: - Types

    /// The name under which the type `reference` names is known here, importing it (and what it refers to) on first
    /// use; nil with a diagnostic when it names nothing of the other family.
    mutating func type(
        _ reference: Located<String>, into table: inout IRTypeTable, diagnostics: inout Diagnostics
    ) -> IRTypeName? {
        let expected = "\"../Family/types.json#/$defs/Name\" or \"../Family/Method.json#/$defs/Name\""
        guard
            let (target, parsed) = family(
                of: reference, parsed: FamilyReference(reference.value), expected: expected, diagnostics: &diagnostics)
        else { return nil }
        let file = target.directory + "/" + parsed.file
        guard
            let name = target.typeTable.names.first(where: { name in
                guard let type = target.typeTable[name], !type.isImported else { return false }
                return type.provenance.file == file && type.provenance.pointer == parsed.pointer
            })
        else {
            let shared = target.typeTable.types(target.types).map {
                "../\(target.name)/types.json#" + $0.provenance.pointer
            }
            diagnostics.error(
                "\"$ref\": \"\(reference.value)\" names no type of \(target.name), expected a schema it generates as a type: one of \(Diagnostics.choices(shared, empty: "it has no types.json")), or one of a method file's $defs",
                at: reference.location, pointer: reference.pointer)
            return nil
        }
        return importType(name, of: target, into: &table, at: reference, diagnostics: &diagnostics)
    }

    /// Copies `name` of `origin`, and every type it refers to, into `table`; the name it has there.
    private mutating func importType(
        _ name: IRTypeName, of origin: IRFamily, into table: inout IRTypeTable, at reference: Located<String>,
        diagnostics: inout Diagnostics
    ) -> IRTypeName {
        let local = localName(name, of: origin)
        let key = origin.name + " " + name.qualified
        if imported[key] != nil { return local }
        imported[key] = local
        guard let type = origin.typeTable[name] else { return local }
        var copy = type.renamed(local, module: type.module ?? origin.name) { localName($0, of: origin) }
        copy.nestedTypes = []
        if !table.insert(copy) {
            diagnostics.error(
                "\"$ref\": \"\(reference.value)\" brings \(origin.name)'s type \(name.qualified), whose name a type of this family has, expected distinct names when the families share one module",
                at: reference.location, pointer: reference.pointer)
            return local
        }
        for referenced in type.referencedNames {
            _ = importType(referenced, of: origin, into: &table, at: reference, diagnostics: &diagnostics)
        }
        return local
    }

    /// The name here of `name` of `origin`: qualified by its module when families are modules (a type `origin`
    /// itself imported keeps the name it has there).
    private func localName(_ name: IRTypeName, of origin: IRFamily) -> IRTypeName {
        if origin.typeTable[name]?.isImported == true || !qualifies(origin.name) { return name }
        return IRTypeName(origin.module + "." + name.qualified)
    }

    // MARK: - Error formats

    /// The error format of another family that `reference` names, its body type imported into `table`.
    mutating func errorFormat(
        _ reference: Located<String>, into table: inout IRTypeTable, diagnostics: inout Diagnostics
    ) -> IRErrorFormat? {
        let expected = "\"../Family/protocol.json#/errors/Name\""
        let parsed = FamilyReference(reference.value).flatMap { $0.file == "protocol.json" ? $0 : nil }
        guard
            let (target, parsed) = family(of: reference, parsed: parsed, expected: expected, diagnostics: &diagnostics)
        else { return nil }
        guard parsed.pointer.hasPrefix("/errors/"),
            let format = target.errors.first(where: { "/errors/" + JSONNode.escape($0.name) == parsed.pointer })
        else {
            diagnostics.error(
                "\"$ref\": \"\(reference.value)\" names no error format of \(target.name), expected one of \(Diagnostics.choices(target.errors.map { "../\(target.name)/protocol.json#/errors/\($0.name)" }, empty: "none"))",
                at: reference.location, pointer: reference.pointer)
            return nil
        }
        if format.module != nil { return format }
        var result = format
        result.module = target.name
        result.qualifier = qualifies(target.name) ? target.module : nil
        if case .named(let body) = format.body {
            result.body = .named(importType(body, of: target, into: &table, at: reference, diagnostics: &diagnostics))
        }
        result.codeType?.name = (result.qualifier.map { $0 + "." } ?? "") + (format.codeType?.name ?? "")
        result.codePaths = []
        result.messagePaths = []
        return result
    }

    // MARK: - Dependencies

    /// The modules of the families whose types `table` holds or whose error formats `errors` are, sorted by name
    /// (families generated into this family's module are not imported).
    func dependencies(in table: IRTypeTable, errors: [IRErrorFormat]) -> [IRDependency] {
        var usesSPI: [String: Bool] = [:]
        for name in table.names {
            guard let type = table[name], let module = type.module else { continue }
            usesSPI[module] = (usesSPI[module] ?? false) || type.needsXML
        }
        for error in errors {
            guard let module = error.module else { continue }
            usesSPI[module] = (usesSPI[module] ?? false) || error.xml
        }
        return usesSPI.keys.filter(qualifies).sorted().map {
            IRDependency(family: $0, module: families[$0]?.module ?? $0, usesSPI: usesSPI[$0] ?? false)
        }
    }
}

extension IRType {
    /// The names of the types this one refers to directly.
    var referencedNames: [IRTypeName] {
        var references: [IRTypeRef] = []
        switch kind {
        case .object(let properties): references = properties.map(\.type)
        case .union(let union): references = union.variants.map(\.type)
        case .alias(let target): references = [target]
        case .enumeration: break
        }
        references += [extraMembers].compactMap { $0 }
        return references.flatMap(\.namedTypes) + [base].compactMap { $0 }
    }

    /// This type named `name`, declared by `module`, with every reference renamed by `rename`.
    func renamed(_ name: IRTypeName, module: String, rename: (IRTypeName) -> IRTypeName) -> IRType {
        let parentName = name.qualified.split(separator: ".").dropLast().joined(separator: ".")
        var copy = IRType(
            name: self.name, parent: parentName.isEmpty ? nil : IRTypeName(parentName), kind: kind,
            documentation: documentation, provenance: provenance, location: sourceLocation)
        copy.kind = kind.renamed(rename)
        copy.xmlNamespace = xmlNamespace
        copy.xmlPrefix = xmlPrefix
        copy.json = json
        copy.xml = xml
        copy.extraMembers = extraMembers?.renamed(rename)
        copy.needsHTTPFields = needsHTTPFields
        copy.holdsSensitive = holdsSensitive
        copy.base = base.map(rename)
        copy.module = module
        return copy
    }
}

extension IRType.Kind {
    /// The kind with every type reference renamed by `rename`.
    func renamed(_ rename: (IRTypeName) -> IRTypeName) -> IRType.Kind {
        switch self {
        case .object(let properties):
            return .object(
                properties.map { property in
                    var property = property
                    property.type = property.type.renamed(rename)
                    return property
                })
        case .union(var union):
            union.variants = union.variants.map { variant in
                var variant = variant
                variant.type = variant.type.renamed(rename)
                return variant
            }
            return .union(union)
        case .alias(let target): return .alias(target.renamed(rename))
        case .enumeration: return self
        }
    }
}

extension IRTypeRef {
    /// The reference with every named type renamed by `rename`.
    func renamed(_ rename: (IRTypeName) -> IRTypeName) -> IRTypeRef {
        switch self {
        case .scalar: return self
        case .named(let name): return .named(rename(name))
        case .array(let element): return .array(element.renamed(rename))
        case .map(let value): return .map(value.renamed(rename))
        }
    }

    /// The named types in the reference.
    var namedTypes: [IRTypeName] {
        switch self {
        case .scalar: return []
        case .named(let name): return [name]
        case .array(let element), .map(let element): return element.namedTypes
        }
    }
}
