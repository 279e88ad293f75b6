import Foundation
import HealthSignInTestSupport
import XCTest

/// A package that depends on this one by path, as the README's "Install" section shows: an app target using every
/// library product with the README's own code (the snippets), and a library target whose client the build plugin
/// generates from its `Schemas` directory at `internal` access. It must build, call its generated client, and
/// expose nothing generated.
///
/// The app also depends on stand-ins of the libraries this SDK's users already have, with their real package,
/// product and module names: `OAuth2`, `SMART` (which depends on `OAuth2` and re-exports it) and Junction's
/// `VitalCore`. SwiftPM refuses a graph where two packages declare one target or product name, and a type named like
/// a module hides that module's qualified names, so the build proves that none of this package's names collides
/// with theirs.
final class ConsumerPackageTests: XCTestCase {
    private static let fixture = Fixtures.repository.appendingPathComponent("Tests/Fixtures/ConsumerPackage")
    /// Kept between runs, so a rebuild is incremental.
    private static let package = Fixtures.repository.appendingPathComponent(".build/consumer-package")
    private static let scratch = Fixtures.repository.appendingPathComponent(".build/consumer-package-build")

    /// Copies the fixture into place, with the SDK's path in its manifest, the snippets in its app (but those of the
    /// package's own `package` declarations), and the snippets that are tests (those of the test kit) in its test
    /// target.
    private static func preparePackage() throws {
        let manager = FileManager.default
        try? manager.removeItem(at: package.appendingPathComponent("Sources"))
        try? manager.removeItem(at: package.appendingPathComponent("Tests"))
        try manager.createDirectory(at: package, withIntermediateDirectories: true)
        try manager.copyItem(
            at: fixture.appendingPathComponent("Sources"), to: package.appendingPathComponent("Sources"))
        try manager.createDirectory(
            at: package.appendingPathComponent("Tests/ConsumerAppTests"), withIntermediateDirectories: true)
        let snippets = Fixtures.repository.appendingPathComponent("Tests/HealthSignInDocumentationTests/Snippets")
        // The examples of the package's own `package` declarations are not an app's to compile. Nor is the FHIR
        // product, whose debug build alone takes four minutes on two cores and would run beside the whole test suite:
        // its snippets compile in this target, and SwiftNamesTests type-checks an app's file that imports it beside
        // the names of Swift, Foundation and the Observation module.
        for name in try manager.contentsOfDirectory(atPath: snippets.path)
        where name.hasSuffix(".swift") && !name.hasSuffix("PackageSnippets.swift") && !name.hasPrefix("FHIR") {
            let file = snippets.appendingPathComponent(name)
            let isTest = try String(contentsOf: file, encoding: .utf8).contains("\nimport XCTest\n")
            try manager.copyItem(
                at: file,
                to: package.appendingPathComponent((isTest ? "Tests/ConsumerAppTests/" : "Sources/ConsumerApp/") + name)
            )
        }
        let manifest =
            try String(
                contentsOf: fixture.appendingPathComponent("Package.swift.template"), encoding: .utf8
            )
            .replacingOccurrences(of: "@SDK_PATH@", with: Fixtures.repository.path)
            .replacingOccurrences(of: "@SDK_PACKAGE@", with: Fixtures.repository.lastPathComponent)
            // SwiftPM plans a path dependency's files again only when a manifest changes: a new source file of the
            // SDK changes this line, so an incremental build sees it.
            + "\n// SDK source files: \(try sourceFingerprint())\n"
        let path = package.appendingPathComponent("Package.swift")
        if (try? String(contentsOf: path, encoding: .utf8)) != manifest {
            try manifest.write(to: path, atomically: true, encoding: .utf8)
        }
    }

    /// The SDK's source file paths (the libraries' and the generator's, which the build plugin runs), as a number
    /// that changes when a file is added, removed or renamed (FNV-1a).
    private static func sourceFingerprint() throws -> String {
        let paths = ["Sources", "Generator"].flatMap { folder in
            let root = Fixtures.repository.appendingPathComponent(folder)
            return (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String] ?? []).map {
                folder + "/" + $0
            }
        }.sorted()
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in paths.joined(separator: "\n").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return "\(paths.count), \(String(hash, radix: 16))"
    }

    func testAConsumerPackageBuildsWithEveryProductAndTheBuildPlugin() throws {
        try Self.preparePackage()
        // The app's tests (the test kit's examples) are built with it, against the products as an app's test target
        // is.
        let build = try Subprocess.run([
            "swift", "build", "--build-tests", "--package-path", Self.package.path, "--scratch-path", Self.scratch.path,
        ])
        XCTAssertEqual(build.status, 0, String(build.output.suffix(6000)))
        guard build.status == 0 else { return }

        // The app calls the client the plugin generated, through a transport that answers like the service.
        let run = try Subprocess.run([Self.scratch.appendingPathComponent("debug/ConsumerApp").path])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(
            run.output.split(separator: "\n").map(String.init),
            [
                "Hello, consumer", "GET https://greeting.example/greeting?name=consumer",
                // The stand-ins, beside every module of the SDK in one file (Sources/ConsumerApp/SideBySide.swift).
                "VitalCore: configured", "SMART: fhir.example expired u active", "OAuth2: noClientId",
                "Provider: oura",
                "SDK: invalid_grant expired VitalSession HealthVaultRecord SMARTSession KoppeltaalSession "
                    + "URLSessionHTTPTransport ManualClock",
            ])

        // Generated at internal access, the client, models and errors are not part of DemoKit's interface.
        XCTAssertEqual(try publicSymbols(of: "DemoKit"), ["demoGreeting(for:transport:)"])
    }

    /// The public symbols of `module` in the consumer's build, by title.
    private func publicSymbols(of module: String) throws -> [String] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        let graph = try SymbolGraph.extract(
            module: module, modules: Self.scratch.appendingPathComponent("debug/Modules"), into: output)
        return graph.symbols.map(\.title).sorted()
    }
}
