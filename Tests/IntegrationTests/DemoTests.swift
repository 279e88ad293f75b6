import Foundation
import TestSupport
import XCTest

/// `sdk-demo` walks all four journeys against the emulator and says so (as `make demo` does).
final class DemoTests: XCTestCase {
    private static let shared = Result { try Emulator() }

    func testTheDemoWalksEveryJourney() throws {
        let emulator = try Self.shared.get()
        let demo = Fixtures.repository.appendingPathComponent(".build/debug/sdk-demo")
        XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: demo.path), "build it with swift build --build-tests")
        let result = try Subprocess.run([demo.path, "--emulator", emulator.baseURL.absoluteString])
        XCTAssertEqual(result.status, 0, result.output)
        let output = result.output
        XCTAssertTrue(output.hasSuffix("All 21 steps succeeded.\n"), output)
        XCTAssertTrue(output.contains("GetThings3 read 1 back, its XML byte for byte"), output)
        XCTAssertTrue(output.contains("3 record(s) released, 0 still authorized"), output)
        XCTAssertTrue(output.contains("✓ revoke          revoked"), output)
        XCTAssertTrue(output.contains("✓ backend token   ES384 assertion accepted"), output)
        XCTAssertFalse(output.contains("✗"), output)
        for secret in ["kt-secret", "portal-secret", "sk_us_emulator", "WcrTiYk8jbI"] {
            XCTAssertFalse(output.contains(secret), "the demo printed \(secret)")
        }
    }

    func testTheDemoRefusesBadFlagsAndHavingNothingToRun() throws {
        let demo = Fixtures.repository.appendingPathComponent(".build/debug/sdk-demo").path
        for (arguments, message) in [
            (["--only", "fitbit"], "--only: no journey named fitbit"),
            (["--vital-environment", "sandbox"], "--vital-environment is TIER/REGION"),
            (["--vital-api", "https://api.example"], "--vital-api and --vital-auth go together"),
            (["--koppeltaal-fhir", "not a url"], "--koppeltaal-fhir: not a url is not a URL"),
            ([], "No journey ran"),
        ] {
            let result = try Subprocess.run([demo] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.output)")
            XCTAssertTrue(result.output.contains(message), "\(arguments): \(result.output)")
        }
    }
}
