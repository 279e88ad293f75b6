/// The fixed module the compile budget is a ratio to: plain Swift written by this function alone (value types with
/// hand-written `Codable` conformances, an enum with its switches, validation with string building), the kind of
/// code the generator emits but not from it, so that it stays the same when the generator changes. The compiler,
/// the flags and the machine's load of the moment are what the ratio cancels out.
enum CompileReference {
    /// How many types the module holds: its debug compile takes about as long as 70 synthetic methods add.
    static let types = 120

    /// The module's files, by name.
    static func files() -> [(name: String, contents: String)] {
        (0..<types).map { ("Reference\($0).swift", type($0)) }
    }

    private static func type(_ index: Int) -> String {
        let name = "Reference\(index)"
        let fields = (0..<8).map { "field\($0)" }
        let kinds = ["String", "Int", "Bool", "Double", "[String]", "String?", "Int?", "[Int]"]
        let members = zip(fields, kinds).map { "    public var \($0): \($1)" }.joined(separator: "\n")
        let keys = fields.map { "        case \($0) = \"\($0)_\(index)\"" }.joined(separator: "\n")
        let decode = zip(fields, kinds).map { field, kind in
            kind.hasSuffix("?")
                ? "        \(field) = try container.decodeIfPresent(\(kind.dropLast()).self, forKey: .\(field))"
                : "        \(field) = try container.decode(\(kind).self, forKey: .\(field))"
        }
        .joined(separator: "\n")
        let encode = zip(fields, kinds).map { field, kind in
            kind.hasSuffix("?")
                ? "        try container.encodeIfPresent(\(field), forKey: .\(field))"
                : "        try container.encode(\(field), forKey: .\(field))"
        }
        .joined(separator: "\n")
        return """
            import Foundation

            public struct \(name): Codable, Hashable, Sendable {
            \(members)
                public var kind: Kind

                public enum Kind: String, Codable, Hashable, Sendable, CaseIterable {
                    case alpha, beta, gamma, delta, unknown
                }

                enum CodingKeys: String, CodingKey {
            \(keys)
                    case kind
                }

                public init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: CodingKeys.self)
            \(decode)
                    kind = (try? container.decode(Kind.self, forKey: .kind)) ?? .unknown
                }

                public func encode(to encoder: any Encoder) throws {
                    var container = encoder.container(keyedBy: CodingKeys.self)
            \(encode)
                    try container.encode(kind, forKey: .kind)
                }

                public func problems() -> [String] {
                    var problems: [String] = []
                    if field0.count > \(index + 16) { problems.append("field0 is longer than \(index + 16)") }
                    if field1 < 0 { problems.append("field1 is negative: \\(field1)") }
                    if field4.contains("") { problems.append("field4 holds an empty string") }
                    switch kind {
                    case .alpha, .beta: break
                    case .gamma where field2: problems.append("gamma with field2")
                    case .gamma, .delta: break
                    case .unknown: problems.append("kind is unknown")
                    }
                    return problems
                }
            }

            """
    }
}
