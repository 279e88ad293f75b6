/// A generated file, before it is written.
package struct GeneratedFile: Sendable, Hashable {
    /// Which output root the path is relative to.
    enum Root: String, Sendable, Hashable {
        /// The sources root (`Sources/`): `<Module>/Generated/…`.
        case sources
        /// The tests root (`Tests/`): `<Module>Tests/Generated/…`.
        case tests
    }

    /// The root the path is relative to.
    let root: Root
    /// The path under the root, with `/` separators.
    package let path: String
    /// The file's text.
    package let contents: String

}

/// Lays out a family's generated files: one per method, per shared type, per error format, plus the client.
enum FileEmitter {
    /// One generated file before its header and imports.
    private struct Part {
        let root: GeneratedFile.Root
        let path: String
        /// The schema files it comes from, for its header.
        let sources: [String]
        let body: SwiftPrinter
    }

    /// The family's files: one per declaration's schema, and with `testSamples` the round-trip tests unless the family
    /// turns them off.
    static func files(for family: IRFamily, testSamples: Bool, config: GeneratorConfig = .init()) -> [GeneratedFile] {
        let dependencies = imports(of: family)
        var files = parts(of: family).map { part in
            file(part.root, part.path, from: part.sources, body: part.body, config: config, dependencies: dependencies)
        }
        if testSamples, family.sampleTests {
            let types = family.typeTable
            let binding = BindingEmitters.emitter(for: family)
            let xml = XMLCodecEmitter(types: types, primitives: binding.xmlPrimitives)
            let printer = SampleEmitter(family: family, xml: xml).emit()
            // Internal declarations are visible to the tests only through a testable import.
            let familyImport = (config.accessModifier == .internal ? "@testable import " : "import ") + family.module
            files.append(
                file(
                    .tests, "\(family.module)Tests/Generated/GeneratedRoundTripTests.swift", from: [family.directory],
                    body: printer,
                    imports: ["import Foundation", familyImport]
                        + family.dependencies.map { "@_spi(Generated) import " + $0.module }
                        + ["@_spi(Generated) import HealthSignInCore", "import XCTest"])
            )
        }
        return files
    }

    /// The family's code in one file, `<Family>.sdkgen.swift`: what a build plugin generates, since it must name its
    /// outputs before the schemas are read. The suffix keeps it apart from the target's own `<Family>.swift`, which
    /// would otherwise produce the same object file.
    static func singleFile(for family: IRFamily, config: GeneratorConfig = .init()) -> GeneratedFile {
        var body = SwiftPrinter()
        for part in parts(of: family) {
            body.line("// MARK: - " + part.path.dropFirst("\(family.module)/Generated/".count))
            body.line("")
            body.append(part.body)
            body.line("")
        }
        return file(
            .sources, family.name + ".sdkgen.swift", from: [family.directory], body: body, config: config,
            dependencies: imports(of: family))
    }

    /// The imports of the other families' modules whose types `family` uses.
    private static func imports(of family: IRFamily) -> [String] {
        family.dependencies.map { ($0.usesSPI ? "@_spi(Generated) import " : "import ") + $0.module }
    }

    private static func parts(of family: IRFamily) -> [Part] {
        let base = "\(family.module)/Generated/"
        var parts: [Part] = []
        let binding = BindingEmitters.emitter(for: family)
        let types = family.typeTable
        let xml = XMLCodecEmitter(types: types, primitives: binding.xmlPrimitives)
        let declarations = DeclarationEmitter(types: types, codecs: [JSONCodecEmitter(types: types), xml])

        var client = SwiftPrinter()
        ClientEmitter.emit(family, binding: binding, into: &client)
        parts.append(
            Part(
                root: .sources, path: base + family.clientName + ".swift",
                sources: [family.directory + "/protocol.json"], body: client))

        parts += types.types(family.types).parallelMap { type in
            var printer = SwiftPrinter()
            declarations.emit(type, into: &printer)
            var supportCode = SwiftPrinter()
            support(type, declarations: declarations, into: &supportCode)
            if !supportCode.lines.isEmpty {
                printer.blank()
                printer.append(supportCode)
            }
            return Part(
                root: .sources, path: base + "Types/\(type.name).swift", sources: [type.provenance.file], body: printer)
        }

        for error in family.errors where error.module == nil {
            var printer = SwiftPrinter()
            ErrorEmitter.emit(error, into: &printer)
            parts.append(
                Part(
                    root: .sources, path: base + "Errors/\(error.name).swift", sources: [error.provenance.file],
                    body: printer))
        }

        parts += family.methods.parallelMap { method in
            let emitter = MethodEmitter(family: family, method: method, binding: binding)
            var printer = SwiftPrinter()
            emitter.namespace(declarations: declarations, into: &printer)
            printer.blank()
            emitter.clientMethod(into: &printer)
            emitter.paging(into: &printer)
            var supportCode = SwiftPrinter()
            binding.methodSupport(of: method, into: &supportCode)
            for type in types.types(method.namespaceTypes) {
                support(type, declarations: declarations, into: &supportCode)
            }
            if !supportCode.lines.isEmpty {
                printer.blank()
                printer.line("// MARK: - Support code")
                printer.append(supportCode)
            }
            return Part(
                root: .sources, path: base + "Methods/\(method.name).swift", sources: [method.provenance.file],
                body: printer)
        }
        return parts
    }

    /// The runtime codec conformances and the redaction of `type` and of every type nested in it.
    private static func support(
        _ type: IRType, declarations: DeclarationEmitter, into printer: inout SwiftPrinter
    ) {
        declarations.runtimeConformances(of: type, into: &printer)
        RedactionEmitter(types: declarations.types).emit(type, into: &printer)
        for nested in declarations.types.types(type.nestedTypes) {
            support(nested, declarations: declarations, into: &printer)
        }
    }

    /// The file at `path`: the header, `imports` (by default Foundation, HealthSignInCore, the families it uses and the
    /// configuration's), and `body` with its declarations at the configuration's access level.
    private static func file(
        _ root: GeneratedFile.Root, _ path: String, from sources: [String], body: SwiftPrinter,
        config: GeneratorConfig = .init(), imports: [String]? = nil, dependencies: [String] = []
    ) -> GeneratedFile {
        // The runtime's codecs, readers and request builders are its `@_spi(Generated)` interface.
        let imports =
            imports
            ?? ["import Foundation", "@_spi(Generated) import HealthSignInCore"] + dependencies
            + config.additionalImports.map { "import " + $0 }
        var printer = SwiftPrinter()
        printer.comment(
            "DO NOT EDIT: generated by sdkgen from \(sources.joined(separator: ", ")); edit the schema instead.")
        printer.line("// swift-format-ignore-file")
        printer.line("// swiftlint:disable all")
        printer.line("")
        for line in imports { printer.line(line) }
        printer.line("")
        printer.append(root == .sources ? body.withAccess(config.accessModifier) : body)
        return GeneratedFile(root: root, path: path, contents: printer.text)
    }
}
