import Foundation

/// Turns FHIR's base definitions into a family of the schema language: `types.json` with every data type, every
/// resource, their backbone elements and the codes of their required bindings, and the `Resource` union that
/// `resourceType` tells apart. Pure: the same definitions give the same bytes.
///
/// FHIR's JSON rules (json.html) become schema-language properties:
/// - an element that repeats is an array, one that does not is a single value; `min` 1 or more makes it required;
/// - a choice element (`value[x]`) becomes one optional property per type, named with the type appended
///   (`valueQuantity`);
/// - a primitive element gets a sibling `_name` property holding its `Element` (its id and extensions);
/// - a `code` bound to a value set that can be listed is an open enum of its codes;
/// - a backbone element becomes a type named after its path (`Patient.contact` is `PatientContact`), and a
///   content reference (`#Questionnaire.item`) refers to that type;
/// - every object keeps the members it does not name, and writes them back.
struct FHIRSchemaBuilder {
    let definitions: FHIRDefinitions
    /// The family's name, its directory under the schemas directory.
    let family: String
    /// The Swift module it is generated into.
    let module: String

    private var defs: [(key: String, value: SchemaText)] = []
    private var enumNames: [String: String] = [:]
    /// The element each type of a structure came from, by type name.
    private var origins: [String: FHIRElement] = [:]
    private var diagnostics = Diagnostics()

    init(definitions: FHIRDefinitions, family: String = "FHIR", module: String = "HealthSignInFHIR") {
        self.definitions = definitions
        self.family = family
        self.module = module
    }

    /// The family's files (`protocol.json`, a file per REST method and `types.json`, paths relative to the schemas
    /// directory, sorted), and what could not be imported.
    static func build(_ definitions: FHIRDefinitions, family: String = "FHIR", module: String = "HealthSignInFHIR")
        -> ([InMemoryFile], Diagnostics)
    {
        var builder = FHIRSchemaBuilder(definitions: definitions, family: family, module: module)
        let types = builder.typesDocument()
        let issueCode = definitions.structures["OperationOutcome"]?.elements.first {
            $0.path == "OperationOutcome.issue.code"
        }
        let rest = FHIRRestDocuments(
            types: Set(builder.defs.map(\.key)),
            issueCodes: issueCode?.requiredValueSet.flatMap { definitions.valueSetCodes[$0] }, family: family)
        let files =
            [InMemoryFile(path: family + "/protocol.json", contents: builder.protocolDocument(rest).printed())]
            + rest.methods() + [InMemoryFile(path: family + "/types.json", contents: types.printed())]
        return (files.sorted { $0.path < $1.path }, builder.diagnostics)
    }

    // MARK: Documents

    private func protocolDocument(_ rest: FHIRRestDocuments) -> SchemaText {
        var document: [(key: String, value: SchemaText)] = [
            ("$schema", .string("../protocol.schema.json")),
            ("family", .string(family)),
            ("module", .string(module)),
            (
                "description",
                .string(
                    "FHIR \(definitions.version ?? "R4") REST: every resource and data type of the base specification, imported from HL7's definitions by sdkgen import-fhir."
                )
            ),
            // HL7's examples are the models' referee; samples of every model would be a test target of their own.
            ("sampleTests", .bool(false)),
            (
                "binding",
                .object([
                    (
                        "http",
                        .object([
                            ("authPolicies", .array([.string("none"), .string("bearer")])),
                            ("headers", .object([("Accept", .string("application/fhir+json"))])),
                        ])
                    )
                ])
            ),
            ("servers", .object([("base", .object([("description", .string("The FHIR server's base URL."))]))])),
        ]
        if let errors = rest.errors() { document.append(("errors", errors)) }
        return .object(document)
    }

    private mutating func typesDocument() -> SchemaText {
        let structures = definitions.structures.values.sorted { $0.name < $1.name }
        let generated = structures.filter(Self.isGenerated)
        // Value sets take names no type has, backbone types included.
        var typeNames = Set(generated.map(\.name))
        for structure in generated {
            for element in structure.elements.dropFirst() {
                guard let dot = element.path.lastIndex(of: "."), element.path[..<dot].contains(".") else { continue }
                typeNames.insert(FHIRNames.backboneTypeName(String(element.path[..<dot])))
            }
        }
        nameEnums(avoiding: typeNames)
        for structure in generated { addTypes(of: structure) }
        let resources = generated.filter { $0.kind == .resource }.map(\.name)
        defs.append(
            (
                "Resource",
                .object([
                    ("description", .string("Any resource, told apart by its resourceType.")),
                    ("oneOf", .array(resources.map { .object([("$ref", .string("#/$defs/" + $0))]) })),
                    ("discriminator", .object([("propertyName", .string("resourceType"))])),
                ])
            ))
        for (url, name) in enumNames.sorted(by: { $0.value < $1.value }) {
            guard let list = definitions.valueSetCodes[url] else { continue }
            defs.append(
                (
                    name,
                    .object([
                        ("description", .string("The codes of the value set \(url).")),
                        ("type", .string("string")),
                        ("enum", .array(list.codes.map { .string($0.code) })),
                    ])
                ))
        }
        return .object([
            ("$schema", .string("../method.schema.json#/$defs/typesFile")),
            (
                "description",
                .string(
                    "Every resource and data type of FHIR\(definitions.version.map { " " + $0 } ?? ""), from HL7's StructureDefinitions."
                )
            ),
            ("$defs", .object(defs)),
        ])
    }

    /// Whether a definition becomes a type: every concrete complex type and resource, and `Element`, which holds a
    /// primitive's id and extensions. Primitives are inlined; abstract bases (Resource, DomainResource,
    /// BackboneElement) contribute their elements through the snapshots.
    static func isGenerated(_ structure: FHIRStructure) -> Bool {
        structure.kind != .primitiveType && (!structure.isAbstract || structure.name == "Element")
    }

    /// Gives each listable value set of a required binding on a `code` a type name: its own name, made unique.
    private mutating func nameEnums(avoiding taken: Set<String>) {
        var used = taken.union(["Resource"])
        for url in definitions.valueSetCodes.keys.sorted() {
            guard let list = definitions.valueSetCodes[url] else { continue }
            let words = list.name.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
            var name = words.map { FHIRNames.capitalized(String($0)) }.joined()
            if !FHIRNames.isTypeName(name) || !(name.first?.isUppercase ?? false) { name = "Codes" + name }
            if !FHIRNames.isTypeName(name) { name = "Codes" }
            name = FHIRNames.swiftTypeName(name)
            if used.contains(name) { name += "Code" }
            var candidate = name
            var number = 2
            while used.contains(candidate) {
                candidate = name + String(number)
                number += 1
            }
            used.insert(candidate)
            enumNames[url] = candidate
        }
    }

    // MARK: Types

    private mutating func addTypes(of structure: FHIRStructure) {
        let children = Dictionary(grouping: structure.elements.dropFirst()) { element in
            String(element.path[..<(element.path.lastIndex(of: ".") ?? element.path.endIndex)])
        }
        func object(at path: String, name: String, description: String) {
            var properties: [(key: String, value: SchemaText)] = []
            var required: [SchemaText] = []
            if path == structure.name, structure.kind == .resource {
                properties.append(("resourceType", .object([("const", .string(structure.name))])))
                required.append(.string("resourceType"))
            }
            for element in children[path] ?? [] where !element.isProhibited {
                let members = self.members(for: element, in: structure, hasChildren: children[element.path] != nil)
                for member in members { properties.append(member) }
                if element.min > 0, !element.isChoice, let first = members.first { required.append(.string(first.key)) }
            }
            var schema: [(key: String, value: SchemaText)] = [("description", .string(description))]
            if FHIRNames.swiftTypeName(name) != name {
                schema.append(("x-swift-name", .string(FHIRNames.swiftTypeName(name))))
            }
            schema.append(("type", .string("object")))
            if !required.isEmpty { schema.append(("required", .array(required))) }
            schema.append(("properties", .object(properties)))
            schema.append(("additionalProperties", .bool(true)))
            let origin = structure.elements.first { $0.path == path } ?? structure.elements[0]
            if let earlier = origins[name] {
                diagnostics.error(
                    "the element \(path) becomes the type \(name), as \(earlier.path) does, expected one element per type name",
                    at: origin.location, pointer: origin.pointer)
            }
            origins[name] = origin
            defs.append((name, .object(schema)))
            for element in children[path] ?? [] where children[element.path] != nil && element.contentReference == nil {
                object(
                    at: element.path, name: FHIRNames.backboneTypeName(element.path),
                    description: Self.sentence(element.short, orPath: element.path))
            }
        }
        object(at: structure.name, name: structure.name, description: structure.summary)
    }

    /// The properties an element becomes: itself (one per type for a choice), and `_name` for a primitive.
    private mutating func members(for element: FHIRElement, in structure: FHIRStructure, hasChildren: Bool)
        -> [(key: String, value: SchemaText)]
    {
        let description = Self.sentence(element.short, orPath: element.path)
        if let backbone = element.contentReference ?? (hasChildren ? element.path : nil) {
            let target = FHIRNames.backboneTypeName(backbone)
            let schema = Self.wrap(.object([("$ref", .string("#/$defs/" + target))]), element, description)
            return [(element.name, Self.renamedIfReserved(element.name, schema))]
        }
        guard !element.types.isEmpty else {
            diagnostics.error(
                "the element \(element.path) has no type, expected a type code, children or a content reference",
                at: element.location, pointer: element.pointer)
            return []
        }
        var out: [(key: String, value: SchemaText)] = []
        for type in element.types {
            let key = element.isChoice ? element.name + FHIRNames.capitalized(type) : element.name
            let memberDescription =
                element.isChoice
                ? String(description.dropLast(description.hasSuffix(".") ? 1 : 0)) + " (as \(type))." : description
            guard let schema = schema(forType: type, element: element) else { continue }
            out.append((key, Self.renamedIfReserved(key, Self.wrap(schema, element, memberDescription))))
            let attribute =
                element.isSystemTyped && !(structure.kind == .resource && element.path == structure.name + ".id")
            if FHIRNames.primitiveJSON[type] != nil, !attribute {
                let sibling = SchemaText.object([("$ref", .string("#/$defs/Element"))])
                var wrapped = Self.wrap(sibling, element, "The id and extensions of \(key).")
                wrapped = wrapped.adding("x-swift-name", .string(key + "Element"))
                out.append(("_" + key, wrapped))
            }
        }
        return out
    }

    /// `property`, named in Swift other than `key` when `key` is a name generated types already use: they are
    /// `CustomStringConvertible`, so an element called `description` (a string in R4, a backbone element in R5's
    /// InventoryItem) is `descriptionText`.
    private static func renamedIfReserved(_ key: String, _ property: SchemaText) -> SchemaText {
        key == "description" ? property.adding("x-swift-name", .string("descriptionText")) : property
    }

    /// The schema of one value of FHIR type `type`.
    private mutating func schema(forType type: String, element: FHIRElement) -> SchemaText? {
        if type == "code", let url = element.requiredValueSet, let name = enumNames[url] {
            return .object([("$ref", .string("#/$defs/" + name))])
        }
        if let primitive = FHIRNames.primitiveJSON[type] { return primitive }
        if type == "Resource" { return .object([("$ref", .string("#/$defs/Resource"))]) }
        guard let target = definitions.structures[type], Self.isGenerated(target) else {
            diagnostics.error(
                "the element \(element.path) has the type \(type), which the package does not define as a concrete type, expected a data type or resource",
                at: element.location, pointer: element.pointer)
            return nil
        }
        return .object([("$ref", .string("#/$defs/" + type))])
    }

    /// `schema` as the element's property: an array when it repeats, with its description.
    private static func wrap(_ schema: SchemaText, _ element: FHIRElement, _ description: String) -> SchemaText {
        guard element.repeats else { return schema.adding("description", .string(description), first: true) }
        return .object([("description", .string(description)), ("type", .string("array")), ("items", schema)])
    }

    private static func sentence(_ short: String, orPath path: String) -> String {
        let text = short.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return path + "." }
        return text.hasSuffix(".") ? text : text + "."
    }
}

extension SchemaText {
    /// An object with `key` added (before the other members when `first`).
    func adding(_ key: String, _ value: SchemaText, first: Bool = false) -> SchemaText {
        guard case .object(var members) = self else { return self }
        if first { members.insert((key, value), at: 0) } else { members.append((key, value)) }
        return .object(members)
    }
}
