import Foundation
import HealthSignInFuzzTargets
import HealthSignInTestSupport
import XCTest

/// Every input a fuzzing run found troublesome, kept under `Tests/Fixtures/Fuzz/<target>/`, and every seed of the
/// fuzzing corpora, run through the same entry points as `make fuzz`: none may crash or hang.
final class FuzzRegressionTests: XCTestCase {
    func testEveryTargetSurvivesItsRegressionsAndSeeds() throws {
        var count = 0
        for target in FuzzTarget.allCases {
            for file in try FuzzCorpus.files(for: target) {
                target.run(try Data(contentsOf: file))
                count += 1
            }
        }
        XCTAssertGreaterThan(count, 100, "the regression inputs and seeds were found")
    }

    func testEveryTargetSurvivesEdgeInputs() {
        let inputs: [Data] = [
            Data(), Data([0]), Data([0xFF, 0xFE]), Data(repeating: 0x3C, count: 10_000), Data("{".utf8), Data("<".utf8),
        ]
        for target in FuzzTarget.allCases {
            for input in inputs { target.run(input) }
        }
    }
}
