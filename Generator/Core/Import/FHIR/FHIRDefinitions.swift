/// What the FHIR importer reads from a FHIR core package (`hl7.fhir.r4.core` and its successors): the base
/// StructureDefinitions of every data type and resource, and the code lists of the value sets their required
/// bindings name. The package is outside input like any schema: every member is checked, and what does not fit is a
/// located diagnostic, never a crash.
struct FHIRDefinitions: Sendable {
    /// The StructureDefinitions the importer turns into types, by type name.
    var structures: [String: FHIRStructure] = [:]
    /// The codes of each value set that a `code` element's required binding names and that can be listed in full, by
    /// canonical URL (without a version).
    var valueSetCodes: [String: FHIRCodeList] = [:]
    /// The package's `fhirVersion` as its package.json names it, e.g. 4.0.1.
    var version: String?
}

/// One base StructureDefinition: a primitive type, a complex data type or a resource.
struct FHIRStructure: Sendable {
    enum Kind: String, Sendable {
        case primitiveType = "primitive-type"
        case complexType = "complex-type"
        case resource
    }

    /// The type's name, e.g. Patient or HumanName.
    let name: String
    let kind: Kind
    let isAbstract: Bool
    /// What the type is, the first sentence of the definition's description.
    let summary: String
    /// The snapshot's elements, in definition order; the first is the type itself.
    let elements: [FHIRElement]
    /// The file it came from, for diagnostics and the generated documentation.
    let file: String
}

/// One element of a snapshot: a member of the type or of one of its backbone elements.
struct FHIRElement: Sendable {
    /// The element's path, e.g. Patient.contact.name or Observation.value[x].
    let path: String
    /// The fewest occurrences.
    let min: Int
    /// Whether it may occur more than once (max is `*` or above 1).
    let repeats: Bool
    /// Whether it is prohibited (max 0).
    let isProhibited: Bool
    /// The type codes, e.g. [boolean, dateTime] for a choice element; empty for the root and content references.
    let types: [String]
    /// Whether its type is one of FHIRPath's System types (Element.id, Extension.url, a resource's id): an XML
    /// attribute, which has no extensions of its own except for a resource's id.
    let isSystemTyped: Bool
    /// For an element defined by another (`#Questionnaire.item`), the path it repeats.
    let contentReference: String?
    /// The value set of a required binding (its canonical URL without a version), when there is one.
    let requiredValueSet: String?
    /// The short description.
    let short: String
    /// Where it was read.
    let location: SourceLocation
    let pointer: String

    /// The path without the type's name and without `[x]`: contact.name, value.
    var name: String {
        let last = path.split(separator: ".").last.map(String.init) ?? path
        return last.hasSuffix("[x]") ? String(last.dropLast(3)) : last
    }

    /// Whether the element is a choice of types, written `name` + type (`valueQuantity`).
    var isChoice: Bool { path.hasSuffix("[x]") }
}

/// The codes of a value set, in the order its code systems define them.
struct FHIRCodeList: Sendable, Equatable {
    /// The value set's name, e.g. AdministrativeGender.
    let name: String
    /// Its codes, each with the code system's display text.
    let codes: [(code: String, display: String)]

    static func == (lhs: FHIRCodeList, rhs: FHIRCodeList) -> Bool {
        lhs.name == rhs.name && lhs.codes.elementsEqual(rhs.codes) { $0.code == $1.code && $0.display == $1.display }
    }
}
