/// A JSON value whose objects keep their members in the order given, printed the same way every time: what an
/// importer writes schema documents with, so a re-run over the same definitions changes no byte.
indirect enum SchemaText: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case bool(Bool)
    case array([SchemaText])
    case object([(key: String, value: SchemaText)])

    static func == (lhs: SchemaText, rhs: SchemaText) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): return a == b
        case (.integer(let a), .integer(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The member `key` of an object, or nil.
    subscript(key: String) -> SchemaText? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// The document's text: two spaces of indentation, and any object or array that fits on one line within
    /// `width` columns written on one line, so a large generated schema stays readable and diffs stay small.
    func printed(width: Int = 120) -> String {
        var out = ""
        write(into: &out, indent: 0, lead: 0, width: width)
        out += "\n"
        return out
    }

    /// Writes the value at `indent`, after `lead` characters of its key on the same line.
    private func write(into out: inout String, indent: Int, lead: Int, width: Int) {
        let flat = compact()
        if indent + lead + flat.count <= width || isScalar {
            out += flat
            return
        }
        let pad = String(repeating: " ", count: indent + 2)
        switch self {
        case .array(let items):
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += pad
                item.write(into: &out, indent: indent + 2, lead: 0, width: width)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            out += "{\n"
            for (index, member) in members.enumerated() {
                let key = Self.quoted(member.key) + ": "
                out += pad + key
                member.value.write(into: &out, indent: indent + 2, lead: key.count, width: width)
                out += index == members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        default: out += flat
        }
    }

    private var isScalar: Bool {
        switch self {
        case .array(let items): return items.isEmpty
        case .object(let members): return members.isEmpty
        default: return true
        }
    }

    /// The value on one line.
    func compact() -> String {
        switch self {
        case .string(let text): return Self.quoted(text)
        case .integer(let number): return String(number)
        case .bool(let flag): return flag ? "true" : "false"
        case .array(let items): return "[" + items.map { $0.compact() }.joined(separator: ", ") + "]"
        case .object(let members):
            return "{" + members.map { Self.quoted($0.key) + ": " + $0.value.compact() }.joined(separator: ", ") + "}"
        }
    }

    /// `text` as a JSON string: quotation mark, reverse solidus and control characters escaped, everything else as
    /// it is. Every JSON the generator writes (imported schemas, `sdkgen diff --format json`) quotes with this.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
