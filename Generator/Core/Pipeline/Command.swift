import Foundation

/// What `sdkgen` does once its arguments are parsed: read, generate, then write or check.
package enum Command {
    /// Runs the generator and returns the process exit status (0 success, 1 stale output under `check`, 2 errors).
    ///
    /// - Parameters:
    ///   - schemaReference: where to write the schema language's reference (rendered from the meta-schemas in the
    ///     schemas directory), or nil for none. It is checked and written like the generated code.
    ///   - config: the path of an `sdkgen-config.json`, or nil for the defaults; `families` overrides its families.
    ///   - singleFile: write each family as one file, `<output>/<Family>.sdkgen.swift` (what the build plugin runs).
    ///   - report: receives progress lines (standard output by default).
    ///   - complain: receives diagnostics and diffs (standard error by default).
    package static func run(
        schemas: String, output: String, testSamples: String?, families: Set<String>?, check: Bool, verbose: Bool,
        schemaReference: String? = nil, config: String? = nil, singleFile: Bool = false,
        report: (String) -> Void = { print($0) },
        complain: (String) -> Void = standardError
    ) -> Int32 {
        do {
            let schemasURL = URL(fileURLWithPath: schemas).standardizedFileURL
            let files = try SchemaDirectory.read(schemasURL)
            // Files are named from the schemas directory's own name, so the output is the same however the path
            // was spelled (relative, absolute, with ./ or ..).
            let options = GeneratorPipeline.Options(
                displayRoot: schemasURL.lastPathComponent, families: families, testSamples: testSamples != nil,
                config: try config.map(readConfig) ?? .init(), singleFile: singleFile
            )
            let generated = try GeneratorPipeline.run(files, options: options)
            for diagnostic in generated.diagnostics { complain(diagnostic.description) }
            let writer = OutputWriter(
                sources: URL(fileURLWithPath: output), tests: URL(fileURLWithPath: testSamples ?? "Tests"))
            var changes = try writer.plan(
                generated.files, modules: generated.modules, testSamples: testSamples != nil)
            if let schemaReference, let change = try referenceChange(schemas: schemasURL, path: schemaReference) {
                changes.append(change)
            }
            if check {
                guard !changes.isEmpty else {
                    report("sdkgen: \(generated.files.count) generated files are up to date")
                    return 0
                }
                for change in changes { complain(change.diff) }
                let fix =
                    ["HealthSignInSDKGen", "--schemas", schemas, "--output", output]
                    + (config.map { ["--config", $0] } ?? [])
                    + (testSamples.map { ["--test-samples", $0] } ?? [])
                    + (schemaReference.map { ["--schema-reference", $0] } ?? [])
                complain(
                    "error: \(changes.count) generated file\(changes.count == 1 ? " is" : "s are") out of date with the schemas."
                )
                complain("run without --check to update them: \(fix.joined(separator: " "))")
                return 1
            }
            try writer.apply(changes)
            if verbose {
                for change in changes {
                    switch change {
                    case .create: report("created \(change.path)")
                    case .update: report("updated \(change.path)")
                    case .delete: report("deleted \(change.path)")
                    }
                }
            }
            let families = generated.families.joined(separator: ", ")
            report("sdkgen: \(families): \(generated.files.count) files, \(changes.count) changed")
            return 0
        } catch let failure as GenerationFailed {
            complain(failure.description)
            return 2
        } catch {
            complain(String(describing: error))
            return 2
        }
    }

    /// The configuration in the file at `path`.
    ///
    /// - Throws: ``GenerationFailed`` with the file's diagnostics when it is not a valid configuration.
    static func readConfig(_ path: String) throws -> GeneratorConfig {
        let url = URL(fileURLWithPath: path)
        return try decodeConfig(String(contentsOf: url, encoding: .utf8), file: url.path)
    }

    /// The configuration in `text`, read from `file`.
    ///
    /// - Throws: ``GenerationFailed`` with the file's diagnostics when it is not a valid configuration.
    static func decodeConfig(_ text: String, file: String) throws -> GeneratorConfig {
        let (config, diagnostics) = GeneratorConfig.decode(text, file: URL(fileURLWithPath: file).lastPathComponent)
        guard let config else { throw GenerationFailed(diagnostics: diagnostics.sorted) }
        return config
    }

    /// The change that brings the reference at `path` in line with the meta-schemas, or nil when it is current.
    private static func referenceChange(schemas: URL, path: String) throws -> OutputWriter.Change? {
        let read = { (name: String) in try String(contentsOf: schemas.appendingPathComponent(name), encoding: .utf8) }
        let reference = try SchemaReference.render(
            protocolSchema: try read("protocol.schema.json"), methodSchema: try read("method.schema.json"))
        guard let existing = FileManager.default.contents(atPath: path) else {
            return .create(path: path, contents: reference)
        }
        let old = String(decoding: existing, as: UTF8.self)
        return old == reference ? nil : .update(path: path, old: old, new: reference)
    }

    /// Writes `text` and a newline to standard error.
    static func standardError(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }
}
