/// Reads the files of a FHIR core package into ``FHIRDefinitions``.
///
/// Only base definitions count: StructureDefinitions that specialize (a profile constrains, and is not a type of its
/// own), of a primitive type, a complex type or a resource, and the ValueSets and CodeSystems that list the codes of
/// their required bindings. Other files are ignored.
enum FHIRPackageReader {
    /// Reads `files`, whose paths are file names inside the package, shown in diagnostics under `displayRoot`.
    static func read(_ files: [InMemoryFile], displayRoot: String) -> (FHIRDefinitions, Diagnostics) {
        var diagnostics = Diagnostics()
        var definitions = FHIRDefinitions()
        var valueSets: [String: JSONNode] = [:]
        var codeSystems: [String: JSONNode] = [:]
        for file in files.sorted(by: { $0.path < $1.path }) where file.path.hasSuffix(".json") {
            let display = displayRoot + "/" + file.path
            guard let root = JSONParser.parse(file.contents, file: display, diagnostics: &diagnostics) else { continue }
            if file.path == "package.json" {
                definitions.version =
                    root["fhir-version-list"]?.elements?.first?.stringValue
                    ?? root["fhirVersions"]?.elements?.first?.stringValue
                continue
            }
            switch root["resourceType"]?.stringValue {
            case "StructureDefinition":
                guard let structure = structure(root, file: display, diagnostics: &diagnostics) else { continue }
                if let earlier = definitions.structures[structure.name] {
                    diagnostics.error(
                        "the type \(structure.name) is defined again, expected one definition (the first is in \(earlier.file))",
                        at: root.location, pointer: root.pointer)
                    continue
                }
                definitions.structures[structure.name] = structure
            case "ValueSet":
                if let url = root["url"]?.stringValue { valueSets[url] = root }
            case "CodeSystem":
                if let url = root["url"]?.stringValue { codeSystems[url] = root }
            default: continue
            }
        }
        var terminology = Terminology(valueSets: valueSets, codeSystems: codeSystems)
        // Only a code's binding becomes an enum; a CodeableConcept or Coding bound to the same codes stays as it is.
        let bound = Set(
            definitions.structures.values.flatMap { structure in
                structure.elements.filter { $0.types.contains("code") }.compactMap(\.requiredValueSet)
            })
        for url in bound.sorted() {
            if let codes = terminology.codes(ofValueSet: url) { definitions.valueSetCodes[url] = codes }
        }
        return (definitions, diagnostics)
    }

    /// The base definition `root` holds, or nil for a profile, a logical model or a definition with errors.
    private static func structure(_ root: JSONNode, file: String, diagnostics: inout Diagnostics) -> FHIRStructure? {
        guard root["derivation"]?.stringValue == "specialization" || root["baseDefinition"] == nil,
            let kindText = root["kind"]?.stringValue, let kind = FHIRStructure.Kind(rawValue: kindText)
        else { return nil }
        func fail(_ message: String, _ node: JSONNode) -> FHIRStructure? {
            diagnostics.error(message, at: node.location, pointer: node.pointer)
            return nil
        }
        guard let name = root["type"]?.stringValue, FHIRNames.isTypeName(name) else {
            return fail(
                "the StructureDefinition's type is missing or not a FHIR type name, expected a name such as Patient",
                root)
        }
        guard let snapshot = root["snapshot"]?["element"], let elementNodes = snapshot.elements,
            !elementNodes.isEmpty
        else {
            return fail("\(name) has no snapshot elements, expected snapshot.element with the type's elements", root)
        }
        var elements: [FHIRElement] = []
        for node in elementNodes {
            guard let element = element(node, of: name, diagnostics: &diagnostics) else { continue }
            elements.append(element)
        }
        guard elements.first?.path == name else {
            return fail(
                "the first snapshot element of \(name) is not \(name), expected the type's own element first", snapshot)
        }
        let description = root["description"]?.stringValue ?? elements.first?.short ?? name
        return FHIRStructure(
            name: name, kind: kind, isAbstract: root["abstract"]?.value == .bool(true),
            summary: FHIRNames.firstSentence(description), elements: elements, file: file)
    }

    /// One snapshot element, or nil (with a diagnostic) when it cannot be read.
    private static func element(_ node: JSONNode, of type: String, diagnostics: inout Diagnostics) -> FHIRElement? {
        func fail(_ message: String, _ at: JSONNode) -> FHIRElement? {
            diagnostics.error(message, at: at.location, pointer: at.pointer)
            return nil
        }
        guard let path = node["path"]?.stringValue else {
            return fail("an element has no path, expected a string path", node)
        }
        let segments = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard segments.first == type,
            segments.dropFirst().allSatisfy({
                FHIRNames.isElementName($0.hasSuffix("[x]") ? String($0.dropLast(3)) : $0)
            })
        else {
            return fail(
                "the element path \(path) is not \(type) followed by element names, expected a path such as \(type).name",
                node)
        }
        var min = 0
        if let minNode = node["min"] {
            guard case .number(let value, _, true) = minNode.value, value >= 0, value <= 1_000 else {
                let found: String
                if case .number(_, let literal, _) = minNode.value { found = literal } else { found = minNode.kindName }
                return fail("min is \(found), expected an integer from 0 to 1000", minNode)
            }
            min = Int(value)
        }
        let max = node["max"]?.stringValue ?? "1"
        guard max == "*" || Int(max).map({ $0 >= 0 }) == true else {
            return fail("max is \(max), expected * or a non-negative integer", node["max"] ?? node)
        }
        var types: [String] = []
        var isSystemTyped = false
        for typeNode in node["type"]?.elements ?? [] {
            guard let code = typeNode["code"]?.stringValue else {
                return fail("a type has no code, expected a string code", typeNode)
            }
            // System types (the primitives' own values, Element.id, Extension.url) name their FHIR type in an
            // extension; without one they are strings.
            let fhirType = typeNode["extension"]?.elements?.first {
                $0["url"]?.stringValue == "http://hl7.org/fhir/StructureDefinition/structuredefinition-fhir-type"
            }?["valueUrl"]?.stringValue
            isSystemTyped = isSystemTyped || code.hasPrefix("http://hl7.org/fhirpath/System.")
            let resolved = code.hasPrefix("http://hl7.org/fhirpath/System.") ? (fhirType ?? "string") : code
            guard FHIRNames.isTypeName(resolved) || FHIRNames.primitiveJSON[resolved] != nil else {
                return fail(
                    "the type code \(code) is not a FHIR type name, expected a name such as HumanName or string",
                    typeNode)
            }
            if !types.contains(resolved) { types.append(resolved) }
        }
        var contentReference: String?
        if let reference = node["contentReference"]?.stringValue {
            guard reference.hasPrefix("#"), reference.dropFirst().hasPrefix(type + ".") else {
                return fail(
                    "contentReference \(reference) does not name an element of \(type), expected #\(type).path", node)
            }
            contentReference = String(reference.dropFirst())
        }
        var requiredValueSet: String?
        if let binding = node["binding"], binding["strength"]?.stringValue == "required",
            let valueSet = binding["valueSet"]?.stringValue
        {
            requiredValueSet = String(valueSet.prefix { $0 != "|" })
        }
        return FHIRElement(
            path: path, min: min, repeats: max == "*" || (Int(max) ?? 0) > 1, isProhibited: max == "0", types: types,
            isSystemTyped: isSystemTyped, contentReference: contentReference, requiredValueSet: requiredValueSet,
            short: node["short"]?.stringValue ?? "", location: node.location, pointer: node.pointer)
    }
}
