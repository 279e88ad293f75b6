/// Emits a test case that round-trips a sample value of every generated model through its codecs, and checks that
/// models holding secrets never show them.
///
/// Each model gets a full sample (every optional set, strings that need escaping) and, when it has optional fields,
/// a minimal one (every optional nil). XML models are written and read back; JSON models are encoded and decoded.
/// Sensitive strings hold a canary, which the description, debug description, mirror and `dump` of every model that
/// holds one must not contain. The assertions live in the generated file, so it needs nothing from the test target.
///
/// The SDK gives each model only the directions its use needs (a response is read, a request written); the round
/// trips need both, so the file declares the missing direction of each model itself, as the SDK would declare it.
struct SampleEmitter {
    let family: IRFamily
    let xml: XMLCodecEmitter

    func emit() -> SwiftPrinter {
        var p = SwiftPrinter()
        let models = TypeAnalysis(family: family).allTypes.compactMap { family.typeTable[$0] }.filter { type in
            switch type.kind {
            case .object, .union: return true
            case .enumeration, .alias: return false
            }
        }
        assertions(into: &p)
        // One test case per top-level type (a method's types sit under its name) keeps each case small: the list of
        // tests that test discovery writes per case is an expression the compiler must type-check quickly.
        for group in groups(of: models) {
            p.doc(
                "Round trips of the generated \(family.name) models under `\(group.name)` through the codecs they have."
            )
            p.block("final class Generated\(group.name)Tests: XCTestCase") { p in
                // A type extending another family's is read only: that family's test target makes its base
                // writable, so its round trip cannot be declared here.
                for type in group.types where (type.needsXML || type.needsJSON) && type.base == nil {
                    for (label, full) in variants(of: type) {
                        let counter = Counter()
                        p.block("func test\(testName(type))\(label)() throws") { p in
                            p.line(
                                "let value = \(sample(.named(type.qualifiedName), full: full, depth: 0, counter: counter, visiting: []))"
                            )
                            if type.needsXML { p.line("try assertXMLRoundTrip(value)") }
                            if type.needsJSON { p.line("try assertJSONRoundTrip(value)") }
                        }
                        p.blank()
                    }
                }
                for type in group.types where type.holdsSensitive {
                    p.block("func test\(testName(type))HidesItsSecrets()") { p in
                        p.line(
                            "assertHidesSecrets(\(sample(.named(type.qualifiedName), full: true, depth: 0, counter: Counter(), visiting: [])))"
                        )
                    }
                    p.blank()
                }
            }
            p.blank()
        }
        complements(of: models, into: &p)
        return p
    }

    /// The codec directions the SDK leaves out of each model, declared here for the round trips.
    func complements(of models: [IRType], into p: inout SwiftPrinter) {
        var printed = SwiftPrinter()
        let both: IRDirections = [.decode, .encode]
        for type in models where type.base == nil {
            for codec in [xml, JSONCodecEmitter(types: family.typeTable)] as [any CodecEmitter]
            where !codec.directions(of: type).isEmpty {
                codec.conformanceExtension(
                    of: type, directions: both.subtracting(codec.directions(of: type)), into: &printed)
            }
        }
        guard !printed.lines.isEmpty else { return }
        p.line("// MARK: - The directions the SDK leaves out, for the round trips")
        p.line("")
        p.append(printed)
    }

    /// The models grouped by the first component of their qualified name, in the order they are first met.
    private func groups(of models: [IRType]) -> [(name: String, types: [IRType])] {
        var order: [String] = []
        var members: [String: [IRType]] = [:]
        for type in models where hasTests(type) {
            let top = String(type.qualifiedName.qualified.prefix { $0 != "." })
            if members[top] == nil { order.append(top) }
            members[top, default: []].append(type)
        }
        return order.compactMap { name in members[name].map { (name, $0) } }
    }

    private func hasTests(_ type: IRType) -> Bool {
        ((type.needsXML || type.needsJSON) && type.base == nil && !variants(of: type).isEmpty) || type.holdsSensitive
    }

    private func testName(_ type: IRType) -> String {
        type.qualifiedName.qualified.replacingOccurrences(of: ".", with: "")
    }

    /// The assertions the tests call, kept in the generated file so it needs nothing else from the test target.
    private func assertions(into p: inout SwiftPrinter) {
        p.doc("The context requests are written with: every bindable value and a stand-in signer.")
        p.block("private func sampleContext() -> HealthSignInCore.EncodingContext") { p in
            p.call(
                "HealthSignInCore.EncodingContext(",
                [
                    "values: [\"applicationID\": \"b5c5593b-afb4-466d-88f2-31707fb8634b\", \"signingTime\": \"2017-08-10T12:34:56.000Z\", \"signature\": \"c2lnbmF0dXJl\"]",
                    "signer: { region in \"signature-over-\\(region.count)-bytes\" }",
                ], ")")
        }
        p.blank()
        p.block("extension XCTestCase") { p in
            p.doc(
                "Writes `value` inside a `<sample>` element, reads it back, and checks equality and deterministic bytes."
            )
            p.block(
                "fileprivate func assertXMLRoundTrip<T: HealthSignInCore.XMLCodable & Equatable>(_ value: T, line: UInt = #line) throws"
            ) { p in
                p.line("let context = sampleContext()")
                p.line("var writer = HealthSignInCore.XMLWriter()")
                p.line("try writer.element(\"sample\", writing: value, context: context)")
                p.line("let decoded = try T(xml: HealthSignInCore.XMLTree.parse(Foundation.Data(writer.bytes)).root)")
                p.line(
                    "XCTAssertEqual(decoded, value, Swift.String(decoding: writer.bytes, as: UTF8.self), line: line)")
                p.line("var again = HealthSignInCore.XMLWriter()")
                p.line("try again.element(\"sample\", writing: decoded, context: context)")
                p.line("XCTAssertEqual(again.bytes, writer.bytes, \"XML writing is not deterministic\", line: line)")
            }
            p.blank()
            p.doc("Encodes `value` as JSON, decodes it back, and checks equality and deterministic bytes.")
            p.block(
                "fileprivate func assertJSONRoundTrip<T: Codable & Equatable>(_ value: T, line: UInt = #line) throws"
            ) { p in
                p.line("let data = try HealthSignInCore.JSONCoding.encode(value)")
                p.line("let decoded = try HealthSignInCore.JSONCoding.decode(T.self, from: data)")
                p.line("XCTAssertEqual(decoded, value, Swift.String(decoding: data, as: UTF8.self), line: line)")
                p.line(
                    "XCTAssertEqual(try HealthSignInCore.JSONCoding.encode(decoded), data, \"JSON encoding is not deterministic\", line: line)"
                )
            }
            p.blank()
            p.doc(
                "Fails when any way of printing `value` shows a sensitive sample, all of which start with `canary-secret`."
            )
            p.block("fileprivate func assertHidesSecrets(_ value: Any, line: UInt = #line)") { p in
                p.line("var dumped = \"\"")
                p.line("dump(value, to: &dumped)")
                p.line(
                    "let mirrored = Mirror(reflecting: value).children.map { \"\\($0.label ?? \"\"): \\($0.value)\" }.joined(separator: \", \")"
                )
                p.block(
                    "for text in [Swift.String(describing: value), Swift.String(reflecting: value), dumped, mirrored]"
                ) { p in
                    p.line("XCTAssertFalse(text.contains(\"canary-secret\"), text, line: line)")
                }
            }
        }
        p.blank()
    }

    private func variants(of type: IRType) -> [(String, Bool)] {
        switch type.kind {
        case .object(let properties):
            let hasOptional = properties.contains { $0.isStored && ($0.isOptional || $0.isArrayDefaultingToEmpty) }
            return hasOptional ? [("Full", true), ("Minimal", false)] : [("", true)]
        case .union(let union):
            return union.variants.count > 1 ? [("FirstVariant", true), ("LastVariant", false)] : [("", true)]
        default:
            return []
        }
    }

    /// A Swift expression for a sample value of `type`.
    func sample(_ type: IRTypeRef, full: Bool, depth: Int, counter: Counter, visiting: Set<IRTypeName>)
        -> String
    {
        switch type {
        case .scalar(.string, sensitive: true):
            return SwiftLiteral.string("canary-secret-\(counter.next()) & <escaped>")
        case .scalar(let scalar, _):
            return scalarSample(scalar, counter: counter)
        case .array(let element):
            if case .named(let named) = element, visiting.contains(named) { return "[]" }
            return "[" + sample(element, full: full, depth: depth + 1, counter: counter, visiting: visiting) + "]"
        case .map(let value):
            if case .named(let named) = value, visiting.contains(named) { return "[:]" }
            return "[\"key-\(counter.next())\": "
                + sample(value, full: full, depth: depth + 1, counter: counter, visiting: visiting) + "]"
        case .named(let name):
            guard let named = family.typeTable[name] else { return "" }
            var visiting = visiting
            visiting.insert(name)
            switch named.kind {
            case .alias(let target):
                return sample(target, full: full, depth: depth, counter: counter, visiting: visiting)
            case .enumeration(let cases):
                guard let first = cases.first else { return "\(named.qualifiedName)(rawValue: \"sample\")" }
                return full
                    ? "." + Emit.name(first.swiftName)
                    : "\(named.qualifiedName).unknown(\"unlisted-\(counter.next())\")"
            case .union(let union):
                guard let variant = full ? union.variants.first : union.variants.last else { return "" }
                return
                    "\(named.qualifiedName).\(Emit.name(variant.caseName))(\(sample(variant.type, full: full, depth: depth + 1, counter: counter, visiting: visiting)))"
            case .object:
                var arguments = named.storedProperties.compactMap { property -> String? in
                    let optional =
                        property.isOptional || property.isArrayDefaultingToEmpty || property.defaultExpression != nil
                    if optional && (!full || depth > 3) { return nil }
                    return "\(Emit.argumentLabel(property.swiftName)): "
                        + sample(property.type, full: full, depth: depth + 1, counter: counter, visiting: visiting)
                }
                if let extra = named.extraMembers, full, depth <= 3 {
                    arguments.append(
                        "additionalProperties: "
                            + sample(.map(extra), full: full, depth: depth + 1, counter: counter, visiting: visiting))
                }
                return "\(named.qualifiedName)(\(arguments.joined(separator: ", ")))"
            }
        }
    }

    private func scalarSample(_ scalar: IRScalar, counter: Counter) -> String {
        let n = counter.next()
        switch scalar {
        case .string: return SwiftLiteral.string("sample \(n) & <escaped> \"quoted\"")
        case .int: return String(n)
        case .int32: return String(-n)
        case .int64: return String(4_294_967_296 + n)
        case .float: return "\(n).25"
        case .double: return "\(n).5"
        case .decimal: return "HealthSignInCore.JSONNumber(\"\(n).50\")!"
        case .bool: return n % 2 == 0 ? "true" : "false"
        case .uuid: return "Foundation.UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, \(n % 256)))"
        case .dateTime: return "Foundation.Date(timeIntervalSince1970: \(1_502_368_496 + n * 86_400))"
        case .date: return "HealthSignInCore.LocalDate(year: 2017, month: 8, day: \(n % 28 + 1))!"
        case .uri: return "Foundation.URL(string: \"https://example.com/\(n)\")!"
        case .bytes: return "Foundation.Data([0, 255, \(n % 256), 62, 63])"
        case .jsonValue: return "HealthSignInCore.JSONValue.object([\"n\": \(n), \"list\": [\"a\", true, .null]])"
        case .xmlFragment:
            return "try! HealthSignInCore.XMLFragment(wellFormed: \"<item n=\\\"\(n)\\\">a &amp; b</item>text\")"
        }
    }

    /// Hands out distinct numbers so that sample values differ field by field.
    final class Counter {
        private var value = 0
        func next() -> Int {
            value += 1
            return value
        }
    }
}
