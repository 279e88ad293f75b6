import Foundation
import HealthSignInTestSupport

@testable import HealthSignInGenerator

/// Random JSON messages of a version's schema, for two versions to read: mostly valid (each value drawn from what the
/// schema allows), with the variations where versions can differ: optional members present or not, null where
/// allowed, every enum value and `oneOf` variant, alias spellings, members beyond the properties, strings and numbers
/// around common bounds.
struct DiffInstances {
    let family: IRFamily
    var random: SplitMix64

    private var types: IRTypeTable { family.typeTable }

    /// Every message of the family: `<family>/<method>/<part>/<tag><n>` and its JSON text, `count` per part.
    mutating func messages(tag: String, count: Int) -> [(String, String)] {
        var messages: [(String, String)] = []
        for method in family.methods {
            guard case .http(let http) = method.binding else { continue }
            var parts: [(String, IRTypeName)] = []
            if let request = method.request, let type = types[request], !type.isFixed {
                parts.append(("request", request))
            }
            if let response = method.response, types[response].map({ $0.isObject || $0.isUnion }) == true {
                parts.append(("response", response))
            }
            for (index, name) in http.errors.enumerated() {
                guard let format = family.errors.first(where: { $0.name == name }), case .named(let body) = format.body
                else { continue }
                parts.append(("error/\(index)", body))
            }
            for (part, type) in parts {
                for n in 0..<count {
                    let value = self.value(.named(type), constraints: .none, depth: 0)
                    guard let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed])
                    else { continue }
                    messages.append(
                        ("\(family.name)/\(method.name)/\(part)/\(tag)\(n)", String(decoding: data, as: UTF8.self)))
                }
            }
        }
        return messages
    }

    private mutating func value(_ reference: IRTypeRef, constraints: IRConstraints, depth: Int) -> Any {
        switch reference {
        case .scalar(let scalar, _): return self.scalar(scalar)
        case .array(let element):
            return (0..<random.below(depth > 2 ? 1 : 4)).map { _ in
                value(element, constraints: constraints.elements, depth: depth + 1)
            }
        case .map(let element):
            var map: [String: Any] = [:]
            for index in 0..<random.below(3) {
                map["k\(index)"] = value(element, constraints: constraints.elements, depth: depth + 1)
            }
            return map
        case .named(let name):
            guard let type = types[name] else { return NSNull() }
            switch type.kind {
            case .alias(let target): return value(target, constraints: type.constraints, depth: depth)
            case .enumeration(let cases):
                if random.chance(0.1) || cases.isEmpty { return "unlisted" }
                return cases[random.below(cases.count)].wireValue
            case .union(let union):
                guard !union.variants.isEmpty else { return NSNull() }
                let variant = union.variants[random.below(union.variants.count)]
                return value(variant.type, constraints: variant.constraints, depth: depth + 1)
            case .object(let properties):
                return object(type, properties, depth: depth)
            }
        }
    }

    private mutating func object(_ type: IRType, _ properties: [IRProperty], depth: Int) -> [String: Any] {
        var object: [String: Any] = [:]
        for property in properties {
            var key = property.wireName
            if !property.aliases.isEmpty, random.chance(0.3) {
                key = property.aliases[random.below(property.aliases.count)]
            }
            switch property.storage {
            case .constant(let constant):
                if property.isRequired || random.chance(0.8) { object[key] = constant }
            case .fixed:
                if property.isRequired || random.chance(0.5) { object[key] = [String: Any]() }
            case .bound:
                continue
            case .stored:
                guard property.isRequired || random.chance(0.6) else { continue }
                if property.isNullable, random.chance(0.2) {
                    object[key] = NSNull()
                } else if depth < 4 || property.isRequired {
                    object[key] = value(property.type, constraints: property.constraints, depth: depth + 1)
                }
            }
        }
        if let extra = type.extraMembers, random.chance(0.4) {
            object["k\(random.below(3))"] = value(extra, constraints: type.extraConstraints, depth: depth + 1)
        } else if random.chance(0.2) {
            object["diffExtra"] = random.chance(0.5) ? 1 : "x"
        }
        return object
    }

    private mutating func scalar(_ scalar: IRScalar) -> Any {
        switch scalar {
        case .string:
            let length = [0, 1, 3, 5, 8, 10, 11, 20, 40][random.below(9)]
            return String(repeating: "ab", count: length).prefix(length).description
        case .int, .int32, .int64: return [-1, 0, 1, 2, 3, 5, 10, 11, 99, 150][random.below(10)]
        case .float, .double, .decimal: return [0.5, 2.5, -1.5, 3.0, 100.25][random.below(5)]
        case .bool: return random.chance(0.5)
        case .uuid: return "3d34d87e-7fc1-4153-800f-f56592cb0d17"
        case .dateTime: return "2024-01-02T03:04:05Z"
        case .date: return "2024-01-02"
        case .uri: return "https://example.com/\(random.below(5))"
        case .bytes: return "AAEC"
        case .jsonValue: return ["n": random.below(5)]
        case .xmlFragment: return "<a/>"
        }
    }
}

extension SplitMix64 {
    /// A number in `0..<bound` (0 when `bound` is not positive).
    mutating func below(_ bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
}
