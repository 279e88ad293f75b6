import Foundation
import HealthSignInTestSupport
import XCTest

/// An app's file that imports the FHIR product keeps the names Swift gave it: FHIR's types never take the place of
/// the standard library's, Foundation's, or a module's.
final class SwiftNamesTests: XCTestCase {
    func testAFileImportingTheProductKeepsSwiftsOwnNames() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("FHIRApp-\(UUID().uuidString).swift")
        try """
        import Foundation
        import Observation
        import HealthSignInFHIR

        @Observable final class ViewModel {
            var observations: [FHIRObservation] = []
            var bundle: FHIRBundle? = nil
        }

        func names() async throws -> Int {
            let task = Task { 1 }
            let range: Range<Int> = 0..<3
            let timeout: Duration = .seconds(1)
            _ = Bundle.main.bundlePath
            let resource = Resource.observation(FHIRObservation(status: .final, code: CodeableConcept()))
            _ = resource
            return await task.value + range.count + Int(timeout.components.seconds) + ViewModel().observations.count
        }
        """.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let outcome = try SwiftCompiler.typecheck(sources: [file.path])
        XCTAssertEqual(outcome.status, 0, outcome.output.suffix(4000).description)
    }
}
