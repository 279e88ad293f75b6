import Foundation
import HealthSignInTestSupport
import HealthSignInTesting
import XCTest

/// The test kit's article lists every operation of every in-process server, each with its emulator name, and no
/// other: a server that gains an operation gains a line there.
final class TestKitOperationTests: XCTestCase {
    private func listed(under server: String, in article: String) -> [String] {
        article.split(separator: "\n").filter { $0.hasPrefix("  - ``\(server)/Operation/") }.compactMap { line in
            line.split(separator: "`").last.map(String.init)
        }
    }

    private func check<Operation: TestServerOperation>(_ type: Operation.Type, server: String, article: String) {
        XCTAssertEqual(listed(under: server, in: article), type.all.map(\.name), server)
        XCTAssertEqual(Set(type.all).count, type.all.count, "\(server): an operation is listed twice in `all`")
    }

    func testTheArticleListsEveryOperationOfEveryServer() throws {
        let article = try String(
            contentsOf: Fixtures.repository.appendingPathComponent(
                "Sources/HealthSignInTesting/HealthSignInTesting.docc/TestingSignIn.md"),
            encoding: .utf8)
        check(SMARTTestServer.Operation.self, server: "SMARTTestServer", article: article)
        check(KoppeltaalTestServer.Operation.self, server: "KoppeltaalTestServer", article: article)
        check(VitalTestServer.Operation.self, server: "VitalTestServer", article: article)
        check(HealthVaultTestServer.Operation.self, server: "HealthVaultTestServer", article: article)
        check(Koppeltaal2TestServer.Operation.self, server: "Koppeltaal2TestServer", article: article)
    }
}
