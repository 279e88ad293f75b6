import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInKoppeltaal
import HealthSignInKoppeltaal2
import HealthSignInOAuth
import HealthSignInVital

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The generated codecs: HealthVault XML against the platform parser's floor, request encoding and signing, and
/// the JSON and form codecs of the OAuth protocols.
struct CodecBenchmarks {
    func run(into report: Report) throws {
        try xmlDecoding(into: report)
        try adversarialInput(into: report)
        try healthVaultEncoding(into: report)
        try json(into: report)
    }

    // MARK: - XML

    private func xmlDecoding(into report: Report) throws {
        for people in [1, 100, 10_000] {
            let body = Samples.authorizedPeopleResponse(people: people)
            let iterations: Int? = people >= 10_000 ? 1 : nil
            // The decoder and the floor are timed in pairs, so that both see the same load.
            let (decoded, floor, ratio) = try Harness.paired(iterations: iterations) {
                let envelope = try HealthVaultResponseEnvelope(body: body)
                let response = try GetAuthorizedPeople.Response(xml: envelope.info(namespace: Samples.peopleNamespace))
                guard response.responseResults.personInfo.count == people else {
                    throw BenchmarkError.wrongResult("people decoded")
                }
            } against: {
                // The same entry point as the SDK's reader: from a stream, which has no 10 MB limit on Linux.
                let parser = XMLParser(stream: InputStream(data: body))
                let delegate = EmptyParserDelegate()
                parser.delegate = delegate
                guard parser.parse() else { throw BenchmarkError.wrongResult("XMLParser failed") }
            }
            let tree = try Harness.measure(iterations: iterations) { _ = try HealthVaultResponseEnvelope(body: body) }
            let megabytes = Double(body.count) / 1e6
            // Speeds relative to the floor's, each pair measured together: 2.0 means twice as fast as XMLParser's pass.
            let speedup = 1 / ratio.median
            let required = Budgets.xmlDecodeOverFloor(people: people)
            let label =
                "GetAuthorizedPeople, \(people) \(people == 1 ? "person" : "people") (\(Report.number(megabytes)) MB)"
            report.add(
                Row(
                    section: "XML", metric: "decode " + label, unit: "MB/s",
                    summary: Self.throughput(megabytes, decoded),
                    budget: String(format: "≥ %.1f× the floor's speed", required), withinBudget: speedup >= required,
                    note: String(format: "%.2f× the floor's speed", speedup)
                ))
            report.add(
                Row(
                    section: "XML", metric: "of which parsing into the tree, " + label, unit: "MB/s",
                    summary: Self.throughput(megabytes, tree),
                    note: String(format: "%.2f× the floor's speed", floor.median / tree.median)
                ))
            report.add(
                Row(
                    section: "XML", metric: "floor: XMLParser, empty delegate, " + label, unit: "MB/s",
                    summary: Self.throughput(megabytes, floor)))
        }
    }

    /// One document built to make a reader quadratic, and how it is read.
    struct AdversarialShape: Sendable {
        let section: String
        let name: String
        let document: @Sendable (Int) -> Data
        let read: @Sendable (Data) throws -> Void
    }

    /// Documents built to make a reader quadratic: in XML, one element with many attributes, and many namespace
    /// declarations on the root with a child per declaration that uses the first prefix declared; in JSON, a string of
    /// escapes and an object of members a model keeps, each read as a token response.
    static let adversarialShapes: [AdversarialShape] = [
        AdversarialShape(
            section: "XML", name: "attributes on one element",
            document: { count in Data(("<r" + (0..<count).map { " a\($0)='v'" }.joined() + "/>").utf8) },
            read: { _ = try XMLTree.parse($0, limits: adversarialLimits) }),
        AdversarialShape(
            section: "XML", name: "xmlns declarations, each prefix used",
            document: { count in
                let declarations = (0..<count).map { " xmlns:p\($0)='urn:\($0)'" }.joined()
                return Data(("<r\(declarations)>" + String(repeating: "<p0:c/>", count: count) + "</r>").utf8)
            },
            read: { _ = try XMLTree.parse($0, limits: adversarialLimits) }),
        AdversarialShape(
            section: "JSON", name: "escapes in one string",
            document: { count in
                Data(("{\"access_token\":\"" + String(repeating: #"\"\n"#, count: count) + "\"}").utf8)
            },
            read: { _ = try JSONCoding.decode(HealthSignInOAuth.TokenResponse.self, from: $0) }),
        AdversarialShape(
            section: "JSON", name: "members a model keeps",
            document: { count in
                Data(("{\"access_token\":\"a\"" + (0..<count).map { ",\"m\($0)\":\($0)" }.joined() + "}").utf8)
            },
            read: { _ = try JSONCoding.decode(HealthSignInOAuth.TokenResponse.self, from: $0) }),
    ]

    /// Limits high enough for the largest adversarial document.
    static let adversarialLimits = XMLLimits(
        maximumAttributesPerElement: 200_000, maximumNamespaceDeclarations: 200_000)

    /// Builds and reads one adversarial document: what `--parse-adversarial SHAPE:COUNT` runs in a process of its
    /// own, whose instructions are counted.
    static func parseAdversarial(_ argument: String) throws {
        let parts = argument.split(separator: ":")
        guard parts.count == 2, let shape = Int(parts[0]), adversarialShapes.indices.contains(shape),
            let count = Int(parts[1])
        else { throw BenchmarkError.missing("SHAPE:COUNT after --parse-adversarial") }
        try adversarialShapes[shape].read(adversarialShapes[shape].document(count))
    }

    /// Linear work shows as a constant time per item from 10^3 to 10^5. The times are reported; the budget is on
    /// instructions, which the machine's load and its caches do not move: the instructions each item adds from 10^4
    /// to 10^5 items over those it adds from 10^3 to 10^4.
    private func adversarialInput(into report: Report) throws {
        for (index, shape) in Self.adversarialShapes.enumerated() {
            var smallest: Double?
            for count in [1_000, 10_000, 100_000] {
                let document = shape.document(count)
                let seconds = try Harness.measure(runs: count >= 100_000 ? 5 : 11) { try shape.read(document) }
                let perItem = seconds.scaled(by: 1e9 / Double(count))
                let growth = smallest.map { perItem.median / $0 }
                smallest = smallest ?? perItem.median
                report.add(
                    Row(
                        section: shape.section, metric: "adversarial: \(count) \(shape.name)", unit: "ns per item",
                        summary: perItem, note: growth.map { String(format: "%.2f× per item at 10^3", $0) }))
            }
            let counts = try [1_000, 10_000, 100_000].map { count in
                Double(
                    try InstructionCount.of([
                        CommandLine.arguments[0], "--parse-adversarial", "\(index):\(count)",
                    ]))
            }
            let first = (counts[1] - counts[0]) / 9_000
            let second = (counts[2] - counts[1]) / 90_000
            report.add(
                Row(
                    section: shape.section,
                    metric: "adversarial: \(shape.name), instructions per item, 10^4–10^5 over 10^3–10^4",
                    unit: "ratio", summary: Summary([second / first]),
                    budget: "≤ \(Budgets.adversarialGrowth) (linear)",
                    withinBudget: second / first <= Budgets.adversarialGrowth,
                    note: String(format: "%.0f then %.0f instructions per item", first, second)))
        }
    }

    /// Megabytes per second from seconds per pass: the fastest pass gives the highest rate.
    private static func throughput(_ megabytes: Double, _ seconds: Summary) -> Summary {
        Summary(
            median: megabytes / seconds.median, min: megabytes / seconds.max, max: megabytes / seconds.min,
            runs: seconds.runs)
    }

    private func healthVaultEncoding(into report: Report) throws {
        let settings = HealthVaultEnvelopeSettings(clientVersion: "bench/1.0")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let people = try Harness.measure {
            var info = XMLWriter()
            try info.element("info", writing: GetAuthorizedPeople.Request(), context: .empty)
            _ = try HealthVaultRequestEnvelope.encode(
                method: "GetAuthorizedPeople", version: 1, auth: .session(Samples.session), settings: settings,
                messageTime: now, info: info
            )
        }
        report.add(
            Row(
                section: "XML", metric: "encode + sign GetAuthorizedPeople (info-hash, hmac-data)", unit: "µs",
                summary: people.scaled(by: 1e6)))
        let cast = try Harness.measure {
            var info = XMLWriter()
            try info.element(
                "info", writing: CreateAuthenticatedSessionToken.Request(),
                context: try Samples.application.castSignatureContext(signingTime: now))
            _ = try HealthVaultRequestEnvelope.encode(
                method: "CreateAuthenticatedSessionToken", version: 2,
                auth: .applicationID(Samples.application.applicationID),
                settings: settings, messageTime: now, info: info
            )
        }
        report.add(
            Row(
                section: "XML", metric: "encode + sign CreateAuthenticatedSessionToken (CAST)", unit: "µs",
                summary: cast.scaled(by: 1e6)))
    }

    // MARK: - JSON and form

    /// Each response decoded by the runtime's JSON reader, and by Foundation's `JSONDecoder` through the same
    /// generated `init(from:)` for reference (the ratio is in the note).
    private func json(into report: Report) throws {
        try decode(
            KoppeltaalTokenResponse.self, Samples.koppeltaalTokenResponse, "the Koppeltaal seed token response",
            into: report)
        try decode(
            HealthSignInOAuth.TokenResponse.self, Samples.vitalTokenResponse, "a Vital token response", into: report)
        try encode(
            JSONCoding.decode(KT2Patient.self, from: Data(Samples.koppeltaal2Patient.utf8)), "a Koppeltaal 2.0 Patient",
            into: report)
    }

    private func decode<T: Decodable>(_ type: T.Type, _ text: String, _ name: String, into report: Report) throws {
        let body = Data(text.utf8)
        let runtime = try Harness.measure { _ = try JSONCoding.decode(T.self, from: body) }
        let foundation = try Harness.measure { _ = try JSONDecoder().decode(T.self, from: body) }
        let ratio = String(format: "%.2f× JSONDecoder's time", runtime.median / foundation.median)
        report.add(
            Row(section: "JSON", metric: "decode \(name)", unit: "µs", summary: runtime.scaled(by: 1e6), note: ratio))
        report.add(
            Row(
                section: "JSON", metric: "decode \(name) with Foundation's JSONDecoder (reference)", unit: "µs",
                summary: foundation.scaled(by: 1e6)))
    }

    /// A value written by the runtime's JSON writer, and by Foundation's `JSONEncoder` with the same options through
    /// the same generated `encode(to:)`: the same bytes, and the ratio of their times.
    private func encode<T: Encodable>(_ value: T, _ name: String, into report: Report) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard try JSONCoding.encode(value) == encoder.encode(value) else {
            throw BenchmarkError.wrongResult("\(name) written differently from JSONEncoder")
        }
        let writing = try Harness.measure { _ = try JSONCoding.encode(value) }
        let reference = try Harness.measure { _ = try encoder.encode(value) }
        report.add(
            Row(
                section: "JSON", metric: "encode \(name)", unit: "µs", summary: writing.scaled(by: 1e6),
                note: String(format: "%.2f× JSONEncoder's time", writing.median / reference.median)))
        report.add(
            Row(
                section: "JSON", metric: "encode \(name) with Foundation's JSONEncoder (reference)", unit: "µs",
                summary: reference.scaled(by: 1e6)))
    }
}

/// An `XMLParser` delegate that does nothing: the cost of parsing alone.
final class EmptyParserDelegate: NSObject, XMLParserDelegate {}

/// A benchmark's result was not what the operation should produce.
enum BenchmarkError: Error, CustomStringConvertible {
    case wrongResult(String)
    case missing(String)

    var description: String {
        switch self {
        case .wrongResult(let what): return "unexpected result: \(what)"
        case .missing(let what): return "missing: \(what)"
        }
    }
}
