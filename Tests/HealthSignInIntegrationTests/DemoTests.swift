import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

/// `HealthSignInDemo` walks all five journeys against the emulator and says so (as `make demo` does).
final class DemoTests: XCTestCase {
    private static let shared = Emulator.shared

    func testTheDemoWalksEveryJourney() async throws {
        let emulator = try Self.shared.get()
        try await emulator.control("reset")
        let demo = Fixtures.repository.appendingPathComponent(".build/debug/HealthSignInDemo")
        XCTAssertTrue(
            FileManager.default.isExecutableFile(atPath: demo.path), "build it with swift build --build-tests")
        let result = try Subprocess.run([demo.path, "--emulator", emulator.baseURL.absoluteString])
        XCTAssertEqual(result.status, 0, result.output)
        let output = result.output
        XCTAssertTrue(output.hasSuffix("All 29 steps succeeded.\n"), output)
        XCTAssertTrue(output.contains("a Patient named Emulator"), output)
        XCTAssertTrue(
            output.contains("a page of 2 of 3 Observations (Heart rate 72 /min, Body weight 70.5 kg), and a next page"),
            output)
        XCTAssertTrue(output.contains("with FHIRClient: 3 typed Observations over 2 pages"), output)
        XCTAssertTrue(output.contains("Shell returned AppAuthSuccess on instance 2's Shell"), "bounced: \(output)")
        XCTAssertTrue(output.contains("GetThings3 read 1 back, its XML byte for byte"), output)
        XCTAssertTrue(output.contains("3 record(s) released, 0 still authorized"), output)
        XCTAssertTrue(output.contains("✓ revoke          revoked"), output)
        XCTAssertTrue(output.contains("✓ backend token   ES384 assertion accepted"), output)
        XCTAssertFalse(output.contains("✗"), output)
        for secret in ["kt-secret", "portal-secret", "sk_us_emulator", "WcrTiYk8jbI"] {
            XCTAssertFalse(output.contains(secret), "the demo printed \(secret)")
        }
    }

    /// With `--shell prompt` a script drives the demo through pipes: the authorization page reaches it at once, and
    /// the redirect it pastes back completes the launch, here against a strict OpenID provider signing ES256 and
    /// with every SMART flag set.
    func testAScriptDrivesThePromptThroughPipesWithTheSMARTFlags() async throws {
        let emulator = try Self.shared.get()
        try await emulator.control("reset")
        try await emulator.control("smart", ["strict_openid": true, "id_token_alg": "ES256"])
        let process = Process()
        process.executableURL = Fixtures.repository.appendingPathComponent(".build/debug/HealthSignInDemo")
        process.arguments = [
            "--emulator", emulator.baseURL.absoluteString, "--only", "smart", "--shell", "prompt",
            "--smart-scope", "launch/patient openid fhirUser offline_access patient/Patient.rs",
            "--smart-prompt", "consent", "--smart-id-token-algorithms", "ES256,RS256",
            "--smart-backend-scope", "system/Patient.rs",
        ]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = input
        let text = LockedValue("")
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            text.withValue { $0 += String(decoding: data, as: UTF8.self) }
        }
        try process.run()
        defer {
            output.fileHandleForReading.readabilityHandler = nil
            if process.isRunning { process.terminate() }
        }
        func line(containing needle: String) async throws -> String? {
            for _ in 0..<300 {
                if let line = text.current.split(separator: "\n").first(where: { $0.contains(needle) }) {
                    return String(line)
                }
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            return nil
        }
        let found = try await line(containing: "/smart/auth/authorize")
        let page = try XCTUnwrap(found, "the prompt did not reach the pipe: \(text.current)")
        let url = try XCTUnwrap(URL(string: page.trimmingCharacters(in: .whitespaces)))
        XCTAssertTrue(
            page.contains("scope=launch%2Fpatient%20openid%20fhirUser%20offline_access%20patient%2FPatient.rs"))
        let redirect = try await XCTUnwrapAsync(try await emulator.visit(url))
        input.fileHandleForWriting.write(Data((redirect.absoluteString + "\n").utf8))
        let summary = try await line(containing: "steps succeeded")
        XCTAssertNotNil(summary, text.current)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, text.current)
        XCTAssertTrue(
            text.current.contains("✓ backend token   ES384 assertion accepted; scope system/Patient.rs"), text.current)
        try await emulator.control("reset")
    }

    /// An unknown SMART client id: the SDK's browser reports the server's answer, and the demo says which client id
    /// and redirect URI it used.
    func testAnUnknownSMARTClientNamesTheClientAndTheServersError() async throws {
        let emulator = try Self.shared.get()
        try await emulator.control("reset")
        let demo = Fixtures.repository.appendingPathComponent(".build/debug/HealthSignInDemo")
        let result = try Subprocess.run([
            demo.path, "--emulator", emulator.baseURL.absoluteString, "--only", "smart", "--smart-client",
            "nosuch-client",
        ])
        XCTAssertEqual(result.status, 1, result.output)
        let failure = result.output.split(separator: "\n").first { $0.contains("✗ authorize") } ?? ""
        XCTAssertTrue(failure.contains("invalid_client"), result.output)
        XCTAssertTrue(failure.contains("nosuch-client"), result.output)
        XCTAssertTrue(failure.contains("HTTP 400"), result.output)
    }

    func testTheDemoRefusesBadFlagsAndHavingNothingToRun() throws {
        let demo = Fixtures.repository.appendingPathComponent(".build/debug/HealthSignInDemo").path
        for (arguments, message) in [
            (["--only", "fitbit"], "--only: no journey named fitbit"),
            (["--vital-environment", "sandbox"], "--vital-environment is TIER/REGION"),
            (["--vital-api", "https://api.example"], "--vital-api and --vital-auth go together"),
            (["--koppeltaal-fhir", "not a url"], "--koppeltaal-fhir: not a url is not a URL"),
            (["--smart-id-token-algorithms", "RS256,HS256"], "--smart-id-token-algorithms is a comma-separated list"),
            ([], "No journey ran"),
        ] {
            let result = try Subprocess.run([demo] + arguments)
            XCTAssertEqual(result.status, 2, "\(arguments): \(result.output)")
            XCTAssertTrue(result.output.contains(message), "\(arguments): \(result.output)")
        }
    }
}
