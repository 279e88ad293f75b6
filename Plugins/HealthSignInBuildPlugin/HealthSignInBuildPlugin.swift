import Foundation
import PackagePlugin

/// Generates a target's clients at build time: every family directory under the target's `Schemas` directory
/// becomes `<Family>.sdkgen.swift` in the build directory (a name none of the target's own files has), compiled with
/// the target and never committed. The target still needs one Swift file of its own: SwiftPM refuses a target without
/// sources before any plugin runs. A
/// `sdkgen-config.json` beside `Schemas` sets the families, the access level (`internal` for an app target),
/// imports and names (see `Schemas/config.schema.json` in this package).
///
/// ```swift
/// .target(
///     name: "MyApp",
///     dependencies: [.product(name: "HealthSignInCore", package: "HealthSignInSDK")],
///     plugins: [.plugin(name: "HealthSignInBuildPlugin", package: "HealthSignInSDK")]
/// )
/// ```
@main
struct HealthSignInBuildPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        // `Target.directoryURL` needs tools version 6.1; this package's manifest is 6.0.
        let directory = URL(fileURLWithPath: String(describing: target.directory))
        let schemas = directory.appendingPathComponent("Schemas")
        let config = directory.appendingPathComponent("sdkgen-config.json")
        let manager = FileManager.default
        guard manager.fileExists(atPath: schemas.path) else {
            Diagnostics.error(
                "\(target.name) uses HealthSignInBuildPlugin but has no Schemas directory at \(schemas.path)")
            return []
        }
        let hasConfig = manager.fileExists(atPath: config.path)
        let wanted = hasConfig ? Self.families(in: config) : nil
        var families: [String] = []
        var inputs: [URL] = hasConfig ? [config] : []
        for entry in try manager.contentsOfDirectory(atPath: schemas.path).sorted() where !entry.hasPrefix(".") {
            let familyDirectory = schemas.appendingPathComponent(entry)
            inputs += Self.jsonFiles(in: familyDirectory)
            guard manager.fileExists(atPath: familyDirectory.appendingPathComponent("protocol.json").path) else {
                continue
            }
            if let wanted, !wanted.contains(entry) { continue }
            families.append(entry)
        }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("Generated")
        let arguments =
            ["--schemas", schemas.path, "--output", output.path, "--single-file"]
            + (hasConfig ? ["--config", config.path] : [])
        return [
            .buildCommand(
                displayName: "Generating \(families.joined(separator: ", ")) for \(target.name) with sdkgen",
                executable: try context.tool(named: "HealthSignInSDKGen").url, arguments: arguments, inputFiles: inputs,
                outputFiles: families.map { output.appendingPathComponent($0 + ".sdkgen.swift") })
        ]
    }

    /// The `.json` files directly inside `directory` (a family's schemas).
    private static func jsonFiles(in directory: URL) -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// The configuration's `families`, or nil when it names none (or cannot be read: sdkgen reports why).
    private static func families(in config: URL) -> Set<String>? {
        guard let data = FileManager.default.contents(atPath: config.path),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let families = object["families"] as? [String]
        else { return nil }
        return Set(families)
    }
}
