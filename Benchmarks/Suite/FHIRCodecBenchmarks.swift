import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInFHIR

/// The generated FHIR models read and written by the runtime's JSON codecs, against Foundation's `JSONDecoder` and
/// `JSONEncoder` through the same generated `init(from:)` and `encode(to:)`: a Patient, an Observation and a 1 MB
/// searchset Bundle of HL7's R4 examples.
struct FHIRCodecBenchmarks {
    let repository: URL

    private var examples: URL {
        repository.appendingPathComponent("Tests/Fixtures/FHIR/hl7.fhir.r4.examples-4.0.1")
    }

    func run(into report: Report) throws {
        let patient = try Data(contentsOf: examples.appendingPathComponent("Patient-example.json"))
        let observation = try Data(contentsOf: examples.appendingPathComponent("Observation-example.json"))
        let bundle = try searchset(ofAtLeast: 1 << 20)
        try compare(Patient.self, patient, "a FHIR Patient (\(patient.count) bytes)", into: report)
        try compare(FHIRObservation.self, observation, "a FHIR Observation (\(observation.count) bytes)", into: report)
        try compare(FHIRBundle.self, bundle, "a FHIR Bundle (\(bundle.count) bytes)", into: report)
    }

    /// A searchset Bundle of HL7's example resources, in file order, of at least `size` bytes.
    private func searchset(ofAtLeast size: Int) throws -> Data {
        var entries: [JSONValue] = []
        var total = 0
        for name in try FileManager.default.contentsOfDirectory(atPath: examples.path).sorted()
        where name.hasSuffix(".json") && name != "package.json" {
            let data = try Data(contentsOf: examples.appendingPathComponent(name))
            let resource = try JSONValue.parse(data)
            // Only examples that read as a Resource, so the Bundle measures reading and not an error.
            guard (try? FHIRJSON.decode(Resource.self, from: data)) != nil else { continue }
            entries.append(["fullUrl": .string("urn:uuid:\(entries.count)"), "resource": resource])
            total += resource.serialized().count
            if total >= size { break }
        }
        let bundle: JSONValue = [
            "resourceType": "Bundle", "type": "searchset", "total": .number(JSONNumber(entries.count)),
            "entry": .array(entries),
        ]
        return bundle.serialized()
    }

    /// Decodes and encodes `data` as `T` with the runtime and with Foundation, each pair of runs in turn on the same
    /// thread time: four rows, the median of the pairs' ratios in the notes.
    private func compare<T: Codable>(_ type: T.Type, _ data: Data, _ name: String, into report: Report) throws {
        let value = try FHIRJSON.decode(T.self, from: data)
        let decoding = try Harness.paired(
            { _ = try FHIRJSON.decode(T.self, from: data) },
            against: { _ = try JSONDecoder().decode(T.self, from: data) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let encoding = try Harness.paired(
            { _ = try FHIRJSON.encode(value) }, against: { _ = try encoder.encode(value) })
        for (verb, pair, reference) in [("decode", decoding, "JSONDecoder"), ("encode", encoding, "JSONEncoder")] {
            report.add(
                Row(
                    section: "FHIR", metric: "\(verb) \(name)", unit: "µs", summary: pair.subject.scaled(by: 1e6),
                    note: String(format: "%.2f× \(reference)'s time", pair.ratio.median)))
            report.add(
                Row(
                    section: "FHIR", metric: "\(verb) \(name) with \(reference) (reference)", unit: "µs",
                    summary: pair.reference.scaled(by: 1e6)))
        }
    }
}
