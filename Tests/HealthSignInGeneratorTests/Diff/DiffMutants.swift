import Foundation
import HealthSignInTestSupport

@testable import HealthSignInGenerator

/// Random examples for the proof: a random schema of the language (drawn by the verdict test's generator, as the
/// request's and the response's property `v`), and the same family with one random change to it.
enum DiffMutants {
    private struct Drawn: Decodable {
        let schema: String
        let defs: String
    }

    /// `count` mutants, drawn from `seed`; each family is `M<n>`.
    static func draw(seed: UInt64, count: Int) throws -> [DiffExample] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("diff-mutants-\(seed)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("cases.json")
        let venv = Fixtures.repository.appendingPathComponent("Tests/Emulator/.venv/bin/python").path
        let python = FileManager.default.isExecutableFile(atPath: venv) ? venv : "python3"
        let script = Fixtures.repository.appendingPathComponent("Tests/Tools/schema_verdicts.py").path
        let run = try Subprocess.run([
            python, script, "--seed", "\(seed % 1_000_000)", "--count", "\(count)", "--instances", "1", "--out",
            out.path,
        ])
        guard run.status == 0 else { throw MutantsFailed(description: run.output) }
        let drawn = try JSONDecoder().decode([Drawn].self, from: Data(contentsOf: out))
        var random = SplitMix64(seed: seed)
        var examples: [DiffExample] = []
        for (index, item) in drawn.enumerated() {
            guard let schema = try JSONSerialization.jsonObject(with: Data(item.schema.utf8)) as? [String: Any],
                let defs = try JSONSerialization.jsonObject(with: Data(item.defs.utf8)) as? [String: Any]
            else { continue }
            var mutated = schema
            guard let change = mutate(&mutated, &random) else { continue }
            let family = "M\(index + 1)"
            let old = set(family, schema, defs)
            let new = set(family, mutated, defs)
            examples.append(
                DiffExample(
                    rule: nil, label: "mutant \(family) (\(change)) of \(item.schema) with $defs \(item.defs)",
                    family: family, old: old, new: new, alsoReports: []))
        }
        return examples
    }

    /// A schema of the shapes `sdkgen import-fhir` writes from HL7's definitions: a resource told by a constant
    /// `resourceType`, a required binding's codes, a choice element (`value[x]`: one optional member per type),
    /// primitive extensions (`_status`, `_valueString`: the `Element` beside a primitive), an exact decimal, a repeated
    /// backbone element with a choice of its own, and the recursive `Extension`; every object keeps the members it
    /// does not name.
    static let fhirShape = (
        schema: #"""
        {"type":"object","required":["resourceType","status"],"additionalProperties":true,"properties":{\#
        "resourceType":{"const":"Observation"},"status":{"enum":["registered","final","amended"]},\#
        "_status":{"$ref":"#/$defs/Element","x-swift-name":"statusElement"},"valueString":{"type":"string"},\#
        "_valueString":{"$ref":"#/$defs/Element","x-swift-name":"valueStringElement"},\#
        "valueBoolean":{"type":"boolean"},"valueQuantity":{"$ref":"#/$defs/Quantity"},\#
        "extension":{"type":"array","items":{"$ref":"#/$defs/Extension"}},"component":{"type":"array","items":{\#
        "type":"object","additionalProperties":true,"properties":{"valueInteger":{"type":"integer"},\#
        "_valueInteger":{"$ref":"#/$defs/Element","x-swift-name":"valueIntegerElement"},\#
        "valueQuantity":{"$ref":"#/$defs/Quantity"}}}}}}
        """#,
        defs: #"""
        {"Element":{"type":"object","additionalProperties":true,"properties":{"id":{"type":"string"},\#
        "extension":{"type":"array","items":{"$ref":"#/$defs/Extension"}}}},\#
        "Extension":{"type":"object","required":["url"],"additionalProperties":true,"properties":{\#
        "url":{"type":"string"},"extension":{"type":"array","items":{"$ref":"#/$defs/Extension"}},\#
        "valueString":{"type":"string"},"_valueString":{"$ref":"#/$defs/Element","x-swift-name":"valueStringElement"},\#
        "valueDecimal":{"type":"number","format":"decimal"},\#
        "_valueDecimal":{"$ref":"#/$defs/Element","x-swift-name":"valueDecimalElement"}}},\#
        "Quantity":{"type":"object","additionalProperties":true,"properties":{\#
        "value":{"type":"number","format":"decimal"},\#
        "_value":{"$ref":"#/$defs/Element","x-swift-name":"valueElement"},"unit":{"type":"string"}}}}
        """#
    )

    /// `count` random changes of ``fhirShape``, drawn from `seed`; each family is `F<n>`.
    static func fhir(seed: UInt64, count: Int) throws -> [DiffExample] {
        guard let schema = object(fhirShape.schema), let defs = object(fhirShape.defs) else {
            throw MutantsFailed(description: "the FHIR shape is not a JSON object")
        }
        var random = SplitMix64(seed: seed ^ 0x4648_4952)
        var examples: [DiffExample] = []
        // The change is in the resource or in one of the types it refers to (`Extension`'s own choice element).
        let targets = [""] + defs.keys.sorted()
        for index in 0..<count {
            var (mutated, mutatedDefs) = (schema, defs)
            let target = targets[random.below(targets.count)]
            let change: String?
            if var definition = defs[target] as? [String: Any] {
                change = mutate(&definition, &random).map { "\($0) of $defs/\(target)" }
                mutatedDefs[target] = definition
            } else {
                change = mutate(&mutated, &random)
            }
            guard let change else { continue }
            let family = "F\(index + 1)"
            examples.append(
                DiffExample(
                    rule: nil, label: "FHIR-shaped mutant \(family) (\(change))", family: family,
                    old: set(family, schema, defs), new: set(family, mutated, mutatedDefs), alsoReports: []))
        }
        return examples
    }

    /// A mutant that exploration found misjudged: where it was found, the schema, and the change at a path.
    struct Regression {
        let found: String
        let schema: String
        let defs: String
        let change: String
        let path: [String]
    }

    /// The mutants `make stress` found misjudged once, proven by every run; families `X1`, `X2`, ….
    static let regressionCases = [
        // A `const` member made required: an old peer leaves it out, and the new reader refused the message.
        Regression(
            found: "SDK_DIFF_SEED=2036547648, M10",
            schema: #"""
                {"type":"object","properties":{"d":{"type":["boolean","null"]},\#
                "c":{"type":["number","null"],"minimum":0,"maximum":2.5},"a":{"const":"x y"}},"required":["d","c"]}
                """#, defs: "{}", change: "toggle-required", path: []),
        // A required `const` member of a closed object made optional: a new peer leaves it out, the old reader
        // refused the message.
        Regression(
            found: "SDK_DIFF_SEED=11 SDK_DIFF_MUTANTS=300, M241",
            schema:
                #"{"type":"object","properties":{"a":{"const":"a"}},"required":["a"],"additionalProperties":false}"#,
            defs: "{}", change: "toggle-required", path: []),
    ]

    /// ``regressionCases`` as examples.
    static var regressions: [DiffExample] {
        get throws {
            try regressionCases.enumerated().map { index, regression in try example(index, regression) }
        }
    }

    private static func example(_ index: Int, _ regression: Regression) throws -> DiffExample {
        guard let schema = object(regression.schema), let defs = object(regression.defs) else {
            throw MutantsFailed(description: "regression \(regression.found): not a JSON object")
        }
        let family = "X\(index + 1)"
        return DiffExample(
            rule: nil,
            label: "regression \(family) (\(regression.change) at /\(regression.path.joined(separator: "/")), "
                + "found with \(regression.found)) of \(regression.schema)",
            family: family, old: set(family, schema, defs),
            new: set(family, apply(regression.change, at: regression.path[...], to: schema), defs), alsoReports: [])
    }

    private static func object(_ text: String) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    struct MutantsFailed: Error, CustomStringConvertible {
        let description: String
    }

    /// The family `family` with `schema` as the property `v` of its request and response.
    private static func set(_ family: String, _ schema: [String: Any], _ defs: [String: Any]) -> ExampleSet {
        var set = DiffExamples.base(family)
        let ping = "\(family)/\(family)Ping.json"
        // `v` is required, so a message is valid only when its `v` is.
        set.set(ping, "request/properties/v", schema)
        set.set(ping, "response/properties/v", schema)
        set.append(ping, "request/required", "v")
        set.append(ping, "response/required", "v")
        set.set(ping, "$defs", defs.isEmpty ? nil : defs)
        return set
    }

    /// Applies one random change to a subschema of `schema`; nil when it has nothing to change.
    private static func mutate(_ schema: inout [String: Any], _ random: inout SplitMix64) -> String? {
        var candidates: [([String], String)] = []
        collect(schema, at: [], into: &candidates)
        guard !candidates.isEmpty else { return nil }
        let (path, change) = candidates[random.below(candidates.count)]
        schema = apply(change, at: path[...], to: schema)
        return change + " at /" + path.joined(separator: "/")
    }

    private static func collect(_ node: [String: Any], at path: [String], into candidates: inout [([String], String)]) {
        if let properties = node["properties"] as? [String: Any] {
            candidates += [(path, "add-property"), (path, "add-required-with-default")]
            if !properties.isEmpty { candidates.append((path, "remove-property")) }
            // Any member's presence, not only the first's: a constant, a nullable value, a default each read it.
            candidates += properties.keys.sorted().map { (path, "toggle-required \($0)") }
            candidates.append((path, node["additionalProperties"] as? Bool == false ? "open" : "close"))
            for (name, child) in properties.sorted(by: { $0.key < $1.key }) {
                if let child = child as? [String: Any] {
                    collect(child, at: path + ["properties", name], into: &candidates)
                }
            }
        }
        switch node["type"] as? String {
        case "string": candidates += [(path, "max-length"), (path, "to-integer")]
        case "integer", "number": candidates += [(path, "minimum"), (path, "to-string")]
        case "array": candidates.append((path, "min-items"))
        default: break
        }
        if !path.isEmpty, node["type"] is String || (node["type"] as? [String])?.count == 2 {
            candidates.append((path, "toggle-null"))
        }
        if !path.isEmpty, ["string", "integer", "number", "boolean"].contains(node["type"] as? String ?? "") {
            candidates.append((path, "toggle-default"))
        }
        if let values = node["enum"] as? [Any] {
            candidates.append((path, "add-enum-value"))
            if values.count > 1 { candidates.append((path, "remove-enum-value")) }
        }
        if let variants = node["oneOf"] as? [Any] {
            candidates.append((path, "add-variant"))
            if variants.count > 2 { candidates.append((path, "remove-variant")) }
        }
        if let items = node["items"] as? [String: Any] { collect(items, at: path + ["items"], into: &candidates) }
    }

    private static func apply(_ change: String, at path: ArraySlice<String>, to node: [String: Any]) -> [String: Any] {
        var node = node
        if let key = path.first {
            if var container = node[key] as? [String: Any], path.count >= 2,
                let child = container[path[path.startIndex + 1]] as? [String: Any]
            {
                container[path[path.startIndex + 1]] = apply(change, at: path.dropFirst(2), to: child)
                node[key] = container
            } else if let child = node[key] as? [String: Any] {
                node[key] = apply(change, at: path.dropFirst(), to: child)
            }
            return node
        }
        let words = change.split(separator: " ", maxSplits: 1).map(String.init)
        let kind = words.first ?? ""
        if !changeMembers(kind, named: words.count > 1 ? words[1] : nil, of: &node) { changeNode(kind, of: &node) }
        return node
    }

    /// Applies a change to an object's members and `required`; false when `kind` is not such a change.
    private static func changeMembers(_ kind: String, named member: String?, of node: inout [String: Any]) -> Bool {
        var properties = node["properties"] as? [String: Any] ?? [:]
        let first = properties.keys.sorted().first
        switch kind {
        case "add-property": properties["zz"] = ["type": "string"]
        case "add-required-with-default":
            properties["zz"] = ["type": "string", "default": "z"]
            node["required"] = (node["required"] as? [String] ?? []) + ["zz"]
        case "remove-property":
            if let first {
                properties[first] = nil
                node["required"] = (node["required"] as? [String])?.filter { $0 != first }
            }
        case "toggle-required":
            // The member named after the change, else the first.
            if let name = member ?? first {
                var required = node["required"] as? [String] ?? []
                if required.contains(name) { required.removeAll { $0 == name } } else { required.append(name) }
                node["required"] = required.isEmpty ? nil : required
            }
        default: return false
        }
        if node["properties"] != nil { node["properties"] = properties }
        return true
    }

    /// Applies a change to the node itself: its type, bounds, values or variants.
    private static func changeNode(_ kind: String, of node: inout [String: Any]) {
        switch kind {
        case "toggle-null":
            if let types = node["type"] as? [String] {
                node["type"] = types.first { $0 != "null" } ?? "string"
            } else if let type = node["type"] as? String {
                node["type"] = [type, "null"]
            }
        case "toggle-default":
            let defaults: [String: Any] = ["string": "z", "integer": 1, "number": 0.5, "boolean": true]
            node["default"] = node["default"] == nil ? defaults[node["type"] as? String ?? ""] : nil
        case "close": node["additionalProperties"] = false
        case "open": node["additionalProperties"] = nil
        case "max-length": node["maxLength"] = (node["maxLength"] as? Int).map { $0 == 2 ? 5 : 2 } ?? 2
        case "to-integer":
            node = ["type": "integer"]
        case "minimum": node["minimum"] = (node["minimum"] as? Int).map { $0 == 2 ? 0 : 2 } ?? 2
        case "to-string": node = ["type": "string"]
        case "min-items": node["minItems"] = node["minItems"] == nil ? 1 : nil
        case "add-enum-value": node["enum"] = (node["enum"] as? [Any] ?? []) + ["zz"]
        case "remove-enum-value": node["enum"] = Array((node["enum"] as? [Any] ?? []).dropFirst())
        case "add-variant": node["oneOf"] = (node["oneOf"] as? [Any] ?? []) + [["type": "boolean"]]
        case "remove-variant": node["oneOf"] = Array((node["oneOf"] as? [Any] ?? []).dropLast())
        default: break
        }
    }
}
