import Foundation
import HealthSignInTestSupport
import XCTest

/// The emulator's values the documentation lists (the README's "Sandboxes and test servers" table and each family's
/// "Pointing at a test server") are the emulator's own configuration, as `GET /_control/sandbox` reads it.
final class SandboxTableTests: XCTestCase {
    private static let documents: [String: String] = [
        "README.md": "",
        "Sources/HealthSignInHealthVault/HealthSignInHealthVault.docc/GettingStarted.md": "healthvault",
        "Sources/HealthSignInKoppeltaal/HealthSignInKoppeltaal.docc/GettingStarted.md": "koppeltaal",
        "Sources/HealthSignInVital/HealthSignInVital.docc/GettingStarted.md": "vital",
        "Sources/HealthSignInSMART/HealthSignInSMART.docc/GettingStarted.md": "smart",
    ]

    /// The values in backticks in the last column of the table between the emulator-values markers.
    private static func tableValues(in document: String) throws -> Set<String> {
        let text = try String(
            contentsOf: Fixtures.repository.appendingPathComponent(document), encoding: .utf8)
        guard let start = text.range(of: "<!-- emulator-values -->"),
            let end = text.range(of: "<!-- end emulator-values -->", range: start.upperBound..<text.endIndex)
        else { return [] }
        var values: Set<String> = []
        for row in text[start.upperBound..<end.lowerBound].split(separator: "\n") where row.hasPrefix("|") {
            guard let cell = row.split(separator: "|").last else { continue }
            let parts = cell.split(separator: "`", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() where index % 2 == 1 { values.insert(String(part)) }
        }
        return values
    }

    /// Every string in `value`, however deep.
    private static func strings(in value: Any) -> Set<String> {
        switch value {
        case let string as String: return [string]
        case let array as [Any]: return array.reduce(into: []) { $0.formUnion(strings(in: $1)) }
        case let object as [String: Any]: return object.values.reduce(into: []) { $0.formUnion(strings(in: $1)) }
        default: return []
        }
    }

    func testTheDocumentedValuesAreTheEmulators() async throws {
        let emulator = try Emulator.shared.get()
        let sandbox = try await emulator.read("sandbox")
        let all = Self.strings(in: sandbox)
        XCTAssertGreaterThan(all.count, 20)
        for (document, family) in Self.documents {
            let listed = try Self.tableValues(in: document)
            let expected = family.isEmpty ? all : Self.strings(in: sandbox[family] as Any)
            XCTAssertFalse(expected.isEmpty, family)
            XCTAssertEqual(listed.subtracting(expected).sorted(), [], "\(document) lists values the emulator lacks")
            XCTAssertEqual(expected.subtracting(listed).sorted(), [], "\(document) leaves out values of the emulator")
        }
    }
}
