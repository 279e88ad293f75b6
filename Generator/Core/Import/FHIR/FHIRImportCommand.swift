import Foundation

/// `sdkgen import-fhir`: reads a FHIR core package and writes (or checks) the schema family it becomes.
package enum FHIRImportCommand {
    /// Imports the package in `definitions` into `<schemas>/<family>/`, removing the JSON files there it no longer
    /// writes, and returns the exit status: 0 when written or up to date, 1 when `check` finds the family out of
    /// date, 2 when the package cannot be imported.
    package static func run(
        definitions: String, schemas: String, family: String, module: String, check: Bool,
        report: (String) -> Void = { print($0) }, complain: (String) -> Void = Command.standardError
    ) -> Int32 {
        do {
            let directory = URL(fileURLWithPath: definitions).standardizedFileURL
            let manager = FileManager.default
            var files: [InMemoryFile] = []
            for name in try manager.contentsOfDirectory(atPath: directory.path).sorted() where name.hasSuffix(".json") {
                let data = try Data(contentsOf: directory.appendingPathComponent(name))
                guard let text = String(data: data, encoding: .utf8) else {
                    complain("\(definitions)/\(name): error: the file is not UTF-8, expected a JSON document")
                    return 2
                }
                files.append(InMemoryFile(path: name, contents: text))
            }
            let (read, readDiagnostics) = FHIRPackageReader.read(files, displayRoot: definitions)
            let (documents, buildDiagnostics) = FHIRSchemaBuilder.build(read, family: family, module: module)
            var diagnostics = readDiagnostics
            diagnostics.append(contentsOf: buildDiagnostics)
            for diagnostic in diagnostics.sorted { complain(diagnostic.description) }
            guard !diagnostics.hasErrors else { return 2 }
            let root = URL(fileURLWithPath: schemas)
            var stale: [String] = []
            for document in documents {
                let url = root.appendingPathComponent(document.path)
                let current = try? String(contentsOf: url, encoding: .utf8)
                guard current != document.contents else { continue }
                stale.append(document.path)
                if !check {
                    try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try Data(document.contents.utf8).write(to: url, options: .atomic)
                }
            }
            // A schema file the import no longer writes (a method renamed) would stay a method of the family.
            let written = Set(documents.map(\.path))
            let familyDirectory = root.appendingPathComponent(family)
            let existing = (try? manager.contentsOfDirectory(atPath: familyDirectory.path)) ?? []
            for name in existing.sorted() where name.hasSuffix(".json") && !written.contains(family + "/" + name) {
                stale.append(family + "/" + name)
                if !check { try manager.removeItem(at: familyDirectory.appendingPathComponent(name)) }
            }
            let types = read.structures.values.filter(FHIRSchemaBuilder.isGenerated)
            let resources = types.filter { $0.kind == .resource }.count
            let summary =
                "\(resources) resources and \(types.count - resources) data types from FHIR \(read.version ?? "(no version)")"
            if check, !stale.isEmpty {
                complain(
                    "error: \(stale.joined(separator: ", ")) in \(schemas) are out of date with \(definitions); run HealthSignInSDKGen import-fhir --definitions \(definitions) --schemas \(schemas)"
                )
                return 1
            }
            report("sdkgen import-fhir: \(summary): \(documents.count) files, \(check ? 0 : stale.count) changed")
            return 0
        } catch {
            complain(String(describing: error))
            return 2
        }
    }
}
