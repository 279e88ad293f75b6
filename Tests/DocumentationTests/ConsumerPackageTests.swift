import Foundation
import TestSupport
import XCTest

/// A package that depends on this one by path, as the README's "Install" section shows: an app target using every
/// library product with the README's own code (the snippets), and a library target whose client the build plugin
/// generates from its `Schemas` directory at `internal` access. It must build, call its generated client, and
/// expose nothing generated.
final class ConsumerPackageTests: XCTestCase {
    private static let fixture = Fixtures.repository.appendingPathComponent("Tests/Fixtures/ConsumerPackage")
    /// Kept between runs, so a rebuild is incremental.
    private static let package = Fixtures.repository.appendingPathComponent(".build/consumer-package")
    private static let scratch = Fixtures.repository.appendingPathComponent(".build/consumer-package-build")

    /// Copies the fixture into place, with the SDK's path in its manifest and the README snippets in its app.
    private static func preparePackage() throws {
        let manager = FileManager.default
        try? manager.removeItem(at: package.appendingPathComponent("Sources"))
        try manager.createDirectory(at: package, withIntermediateDirectories: true)
        try manager.copyItem(
            at: fixture.appendingPathComponent("Sources"), to: package.appendingPathComponent("Sources"))
        let snippets = Fixtures.repository.appendingPathComponent("Tests/DocumentationTests/Snippets")
        for name in try manager.contentsOfDirectory(atPath: snippets.path) where name.hasSuffix(".swift") {
            try manager.copyItem(
                at: snippets.appendingPathComponent(name),
                to: package.appendingPathComponent("Sources/ConsumerApp/" + name))
        }
        let manifest = try String(
            contentsOf: fixture.appendingPathComponent("Package.swift.template"), encoding: .utf8
        )
        .replacingOccurrences(of: "@SDK_PATH@", with: Fixtures.repository.path)
        .replacingOccurrences(of: "@SDK_PACKAGE@", with: Fixtures.repository.lastPathComponent)
        let path = package.appendingPathComponent("Package.swift")
        if (try? String(contentsOf: path, encoding: .utf8)) != manifest {
            try manifest.write(to: path, atomically: true, encoding: .utf8)
        }
    }

    func testAConsumerPackageBuildsWithEveryProductAndTheBuildPlugin() throws {
        try Self.preparePackage()
        let build = try Subprocess.run([
            "swift", "build", "--package-path", Self.package.path, "--scratch-path", Self.scratch.path,
        ])
        XCTAssertEqual(build.status, 0, String(build.output.suffix(6000)))
        guard build.status == 0 else { return }

        // The app calls the client the plugin generated, through a transport that answers like the service.
        let run = try Subprocess.run([Self.scratch.appendingPathComponent("debug/ConsumerApp").path])
        XCTAssertEqual(run.status, 0, run.output)
        XCTAssertEqual(
            run.output, "Hello, consumer\nGET https://greeting.example/greeting?name=consumer\n")

        // Generated at internal access, the client, models and errors are not part of DemoKit's interface.
        XCTAssertEqual(try publicSymbols(of: "DemoKit"), ["demoGreeting(for:transport:)"])
    }

    /// The public symbols of `module` in the consumer's build, by title.
    private func publicSymbols(of module: String) throws -> [String] {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("consumer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        let target = try XCTUnwrap(
            (try JSONSerialization.jsonObject(
                with: Data(try Subprocess.run(["swift", "-print-target-info"]).output.utf8))
                as? [String: Any])?["target"] as? [String: Any])
        var arguments = [
            "swift", "symbolgraph-extract", "-module-name", module, "-I",
            Self.scratch.appendingPathComponent("debug/Modules").path, "-target",
            try XCTUnwrap(target["triple"] as? String),
            "-output-dir", output.path, "-minimum-access-level", "public",
        ]
        #if os(Linux)
            arguments += [
                "-Xcc",
                "-fmodule-map-file="
                    + Fixtures.repository.appendingPathComponent("Sources/COpenSSL/module.modulemap").path,
            ]
        #endif
        let result = try Subprocess.run(arguments)
        XCTAssertEqual(result.status, 0, result.output)
        let data = try Data(contentsOf: output.appendingPathComponent("\(module).symbols.json"))
        let graph = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let symbols = graph["symbols"] as? [[String: Any]] ?? []
        return symbols.compactMap { ($0["names"] as? [String: Any])?["title"] as? String }.sorted()
    }
}
