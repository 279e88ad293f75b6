import Foundation
import HealthSignInFHIR
import HealthSignInTestSupport
import XCTest

/// HL7's R4 examples are the referee of the generated models: each one reads as a `Resource` and writes back as the
/// same JSON value (members in any order, every number in the text it was written with).
final class HL7ExampleTests: XCTestCase {
    static let examples = Fixtures.root.appendingPathComponent("FHIR/hl7.fhir.r4.examples-4.0.1")

    /// The example files, sorted; `package.json` describes the package and is not a resource.
    static func exampleNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: examples.path)
            .filter { $0.hasSuffix(".json") && $0 != "package.json" }.sorted()
    }

    /// The examples that break HL7's own definitions, with what reading them says. A member with a minimum
    /// cardinality of 1 is required in the models, so leaving it out is an error; each example below leaves one out.
    static let examplesBreakingTheDefinitions = [
        // ImplementationGuide.name is 1..1; both copies of the core specification's guide have no name.
        "ImplementationGuide-fhir.json": "name: missing required field",
        "ig-r4.json": "name: missing required field",
        // Questionnaire.item.linkId is 1..1; the first item's first item has none.
        "Questionnaire-qs1.json": "item[0]/item[0]/linkId: missing required field",
    ]

    func testEveryExampleReadsAndWritesBackAsTheSameJSONValue() throws {
        let names = try Self.exampleNames()
        XCTAssertEqual(names.count, 785, "the kept examples")
        var failures: [String] = []
        var resourceTypes: Set<String> = []
        for name in names {
            let data = try Data(contentsOf: Self.examples.appendingPathComponent(name))
            let original = try JSONValue.parse(data)
            do {
                let resource = try FHIRJSON.decode(Resource.self, from: data)
                let written = try JSONValue.parse(FHIRJSON.encode(resource))
                if let difference = JSONDifference.first(between: original, and: written) {
                    failures.append("\(name): written back differently at \(difference)")
                }
                resourceTypes.insert(original["resourceType"]?.stringValue ?? "")
            } catch {
                failures.append("\(name): \(error)")
            }
        }
        XCTAssertEqual(
            failures, Self.examplesBreakingTheDefinitions.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" },
            "\(failures.count) of \(names.count) examples")
        XCTAssertEqual(resourceTypes.count, 135, "every resource type the package has an example of")
    }

    func testAResourceKeepsItsDecimalsAndWhatItsModelDoesNotName() throws {
        let data = Data(
            #"""
            {"resourceType":"Observation","status":"final","code":{"text":"weight"},
             "valueQuantity":{"value":72.50,"unit":"kg"},"_status":{"id":"s1"},"futureMember":{"kept":[1.0,true]}}
            """#.utf8)
        guard case .observation(let observation) = try FHIRJSON.decode(Resource.self, from: data) else {
            return XCTFail("an Observation reads as the union's observation case")
        }
        XCTAssertEqual(observation.valueQuantity?.value?.text, "72.50")
        XCTAssertEqual(observation.statusElement?.id, "s1")
        let written = try JSONValue.parse(FHIRJSON.encode(Resource.observation(observation)))
        XCTAssertEqual(written, try JSONValue.parse(data))
    }
}

/// Where two JSON values first differ, as a JSON Pointer with what each side holds there.
enum JSONDifference {
    static func first(between expected: JSONValue, and actual: JSONValue, at path: String = "") -> String? {
        switch (expected, actual) {
        case (.object(let a), .object(let b)):
            for key in Set(a.keys).union(b.keys).sorted() {
                guard let left = a[key], let right = b[key] else {
                    return "\(path)/\(key): \(a[key].map(\.description) ?? "absent") became "
                        + (b[key].map(\.description) ?? "absent")
                }
                if let found = first(between: left, and: right, at: "\(path)/\(key)") { return found }
            }
            return nil
        case (.array(let a), .array(let b)) where a.count == b.count:
            for (index, pair) in zip(a, b).enumerated() {
                if let found = first(between: pair.0, and: pair.1, at: "\(path)/\(index)") { return found }
            }
            return nil
        default:
            return expected == actual ? nil : "\(path): \(expected) became \(actual)"
        }
    }
}
