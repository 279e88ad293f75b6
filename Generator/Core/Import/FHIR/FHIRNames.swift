import Foundation

/// FHIR's names and primitive types, as the importer spells them in the schema language.
enum FHIRNames {
    /// How each FHIR primitive type is carried in JSON (json.html), as a schema-language schema.
    static let primitiveJSON: [String: SchemaText] = {
        let string = SchemaText.object([("type", .string("string"))])
        var table: [String: SchemaText] = [
            "boolean": .object([("type", .string("boolean"))]),
            "integer": .object([("type", .string("integer"))]),
            "unsignedInt": .object([("type", .string("integer")), ("minimum", .integer(0))]),
            "positiveInt": .object([("type", .string("integer")), ("minimum", .integer(1))]),
            // A decimal's written form is significant (1.50 is not 1.5), so it keeps its text.
            "decimal": .object([("type", .string("number")), ("format", .string("decimal"))]),
        ]
        for name in [
            "string", "code", "id", "uri", "url", "canonical", "oid", "uuid", "markdown", "base64Binary", "instant",
            "date", "dateTime", "time", "xhtml",
            // R5's 64-bit integer is a JSON string, so that a reader whose numbers are doubles keeps every digit.
            "integer64",
        ] {
            table[name] = string
        }
        return table
    }()

    /// FHIR type names that a Swift file beside this module already sees: the standard library's (`Task`, `Range`,
    /// `Duration`), Foundation's (`Bundle`, `Expression`), SwiftUI's (`List`, `Group`), the module `Observation`, and
    /// `Status`, Junction's SDK's (R4 names the codes of a VerificationResult's status just that).
    /// - A module's type shadows the standard library's without a word: `Task { … }` in an app would name FHIR's Task.
    /// - A type hides a module of its name: `@Observable` expands to `Observation.ObservationRegistrar`, which would
    ///   be looked up in FHIR's Observation.
    /// - The others make every use ambiguous.
    /// Their Swift names take the prefix `FHIR`; their JSON keeps HL7's names.
    static let namesSwiftAlreadyUses: Set<String> = [
        "Task", "Range", "Duration", "Bundle", "Expression", "List", "Group", "Observation", "Status",
    ]

    /// The Swift name of the FHIR type `name`.
    static func swiftTypeName(_ name: String) -> String {
        namesSwiftAlreadyUses.contains(name) ? "FHIR" + name : name
    }

    /// Whether `name` can be a FHIR type's name: ASCII letters and digits, starting with a letter.
    static func isTypeName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64,
            ("A"..."Z").contains(first) || ("a"..."z").contains(first)
        else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
    }

    /// Whether `name` can be an element's name: a type name starting with a lowercase letter.
    static func isElementName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return isTypeName(name)
    }

    /// The name of the type a backbone element at `path` becomes: its segments capitalized and joined
    /// (Patient.contact is PatientContact, Bundle.entry.request is BundleEntryRequest).
    static func backboneTypeName(_ path: String) -> String {
        path.split(separator: ".").map { capitalized(String($0)) }.joined()
    }

    /// `name` with its first letter uppercased: the suffix a choice element's member takes (valueQuantity).
    static func capitalized(_ name: String) -> String {
        name.prefix(1).uppercased() + name.dropFirst()
    }

    /// The first sentence of `text`, on one line.
    static func firstSentence(_ text: String) -> String {
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? text
        guard let end = line.range(of: ". ") else { return line.trimmingCharacters(in: .whitespaces) }
        return String(line[..<end.lowerBound]) + "."
    }
}
