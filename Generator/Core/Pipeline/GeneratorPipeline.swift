/// A schema file read into memory.
package struct InMemoryFile: Sendable, Hashable {
    /// The path relative to the schemas directory, e.g. `HealthVault/types.json`.
    let path: String
    /// The file's text.
    let contents: String

    /// Creates a file.
    package init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }
}

/// The generator as a pipeline of pure stages over in-memory values:
/// load (parse with positions, check keywords) → resolve (check meaning, build the IR) → emit (render Swift).
///
/// Reading schema files and writing output are separate (``SchemaDirectory``, ``OutputWriter``), so every stage can be
/// tested without a file system.
package enum GeneratorPipeline {
    /// What to generate.
    package struct Options: Sendable {
        /// How the schemas directory is shown in diagnostics and provenance, e.g. `Schemas`.
        var displayRoot: String
        /// Generate only these families (nil for all).
        var families: Set<String>?
        /// Also emit round-trip tests of every model for the families' test targets.
        var testSamples: Bool
        /// The package's `sdkgen-config.json`: families (when ``families`` is nil), access level, imports, names.
        var config: GeneratorConfig
        /// Emit each family as one file, `<Family>.swift`, as a build plugin needs, instead of one file per schema.
        var singleFile: Bool

        /// Creates options.
        package init(
            displayRoot: String = "Schemas", families: Set<String>? = nil, testSamples: Bool = false,
            config: GeneratorConfig = .init(), singleFile: Bool = false
        ) {
            self.displayRoot = displayRoot
            self.families = families
            self.testSamples = testSamples
            self.config = config
            self.singleFile = singleFile
        }

        /// The families to generate: those asked for, else the configuration's, else all (nil).
        var wantedFamilies: Set<String>? { families ?? config.families }
    }

    package /// The generated files, and warnings that did not stop generation.
        struct Output: Sendable
    {
        package /// The files, sorted by root and path.
            let files: [GeneratedFile]
        /// The families generated.
        let families: [String]
        /// The module of each family generated, in the same order.
        let modules: [String]
        /// Warnings.
        let diagnostics: [Diagnostic]
    }

    /// Runs every stage.
    ///
    /// - Throws: ``GenerationFailed`` with every diagnostic when any schema has an error; nothing is generated then.
    package static func run(_ files: [InMemoryFile], options: Options = .init()) throws -> Output {
        let (module, diagnostics) = try resolvedModule(files, options: options)
        let generated =
            options.singleFile
            ? module.families.map { FileEmitter.singleFile(for: $0, config: options.config) }
            : emit(module, testSamples: options.testSamples, config: options.config)
        return Output(
            files: generated, families: module.families.map(\.name), modules: module.families.map(\.module),
            diagnostics: diagnostics.sorted)
    }

    /// Stages 1 and 2: the families of `files` resolved into the IR, with the warnings.
    ///
    /// - Throws: ``GenerationFailed`` with every diagnostic when any schema has an error.
    static func resolvedModule(_ files: [InMemoryFile], options: Options = .init()) throws -> (
        IRModule, Diagnostics
    ) {
        let (loaded, globalDiagnostics) = loadFamilies(files, options: options)
        var diagnostics = globalDiagnostics
        // The families asked for, and those they refer to: the others are neither checked nor generated.
        let families = FamilyGraph(loaded).closure(of: options.wantedFamilies)
        for family in families { diagnostics.append(contentsOf: family.diagnostics) }
        options.config.checkOverrides(against: families, diagnostics: &diagnostics)
        let (module, resolveDiagnostics) = resolve(
            families, config: options.config, wanted: options.wantedFamilies, singleModule: options.singleFile)
        diagnostics.append(contentsOf: resolveDiagnostics)
        if loaded.isEmpty {
            diagnostics.error(
                "no family directories were found under \(options.displayRoot), expected directories holding protocol.json and method files",
                at: nil)
        }
        guard !diagnostics.hasErrors else { throw GenerationFailed(diagnostics: diagnostics.sorted) }
        return (module, diagnostics)
    }

    /// Stage 1: parses every file of every family directory and checks each document's keywords. The diagnostics
    /// are those of every family read, and of families asked for that do not exist.
    static func load(_ files: [InMemoryFile], options: Options = .init()) -> ([FamilyDocuments], Diagnostics) {
        var (families, diagnostics) = loadFamilies(files, options: options)
        for family in families { diagnostics.append(contentsOf: family.diagnostics) }
        return (families, diagnostics)
    }

    /// Every family directory's documents, each with what reading it reported, and the diagnostics of no family.
    private static func loadFamilies(_ files: [InMemoryFile], options: Options) -> ([FamilyDocuments], Diagnostics) {
        var diagnostics = Diagnostics()
        var families: [String: (documents: FamilyDocuments, decoder: DocumentDecoder)] = [:]
        for file in files.sorted(by: { $0.path < $1.path }) {
            let parts = file.path.split(separator: "/").map(String.init)
            // Files beside the family directories (the meta-schemas) are not part of any family.
            guard parts.count == 2, parts[1].hasSuffix(".json") else { continue }
            let (familyName, fileName) = (parts[0], parts[1])
            let schemaFile = SchemaFile(displayPath: options.displayRoot + "/" + file.path, fileName: fileName)
            var (family, decoder) =
                families[familyName]
                ?? (
                    FamilyDocuments(
                        name: familyName, directory: options.displayRoot + "/" + familyName, protocolDocument: nil,
                        typesDocument: nil, methods: []
                    ), DocumentDecoder()
                )
            if fileName == "protocol.json" { family.hasProtocolFile = true }
            if let root = JSONParser.parse(
                file.contents, file: schemaFile.displayPath, diagnostics: &decoder.diagnostics)
            {
                switch fileName {
                case "protocol.json": family.protocolDocument = decoder.protocolDocument(root, file: schemaFile)
                case "types.json": family.typesDocument = decoder.types(root, file: schemaFile)
                default:
                    if let method = decoder.method(root, file: schemaFile) { family.methods.append(method) }
                }
            }
            families[familyName] = (family, decoder)
        }
        if let wanted = options.wantedFamilies {
            for name in wanted.sorted() where families[name] == nil {
                diagnostics.error(
                    "there is no family \(name) under \(options.displayRoot), expected one of the family directories",
                    at: nil)
            }
        }
        let loaded = families.keys.sorted().compactMap { name -> FamilyDocuments? in
            guard let entry = families[name] else { return nil }
            var family = entry.documents
            let decoder = entry.decoder
            family.diagnostics = decoder.diagnostics
            family.references = decoder.references
            return family
        }
        return (loaded, diagnostics)
    }

    /// Stage 2: checks each family's meaning and resolves it into the IR. A family is resolved after the families
    /// it refers to, whose resolved types it uses; the module holds the families of `wanted` (all when nil).
    ///
    /// - Parameter singleModule: whether the families generated share one module (a build plugin's target), so that
    ///   they name each other's types without a module; a family they refer to that is not generated is always a
    ///   module of its own
    ///   (`HealthSignInOAuth.TokenResponse`), as when every family is its own module; false when they share one.
    static func resolve(
        _ families: [FamilyDocuments], config: GeneratorConfig = .init(), wanted: Set<String>? = nil,
        singleModule: Bool = false
    ) -> (IRModule, Diagnostics) {
        var diagnostics = Diagnostics()
        var resolved: [String: IRFamily] = [:]
        let graph = FamilyGraph(families)
        let order = graph.resolutionOrder(diagnostics: &diagnostics)
        for documents in order {
            var resolver = FamilyResolver(
                config: config, dependencies: resolved, existing: Set(families.map(\.name)),
                sharedModule: singleModule ? Set(names(wanted, in: families)) : [])
            if let family = resolver.resolve(documents) { resolved[family.name] = family }
            diagnostics.append(contentsOf: resolver.diagnostics)
        }
        return (IRModule(families: names(wanted, in: families).sorted().compactMap { resolved[$0] }), diagnostics)
    }

    /// The families of `wanted` among `families`, or all of them.
    private static func names(_ wanted: Set<String>?, in families: [FamilyDocuments]) -> [String] {
        families.map(\.name).filter { wanted?.contains($0) ?? true }
    }

    /// Stage 3: renders every family's Swift files.
    static func emit(_ module: IRModule, testSamples: Bool, config: GeneratorConfig = .init()) -> [GeneratedFile] {
        module.families
            .flatMap { FileEmitter.files(for: $0, testSamples: testSamples, config: config) }
            .sorted { ($0.root.rawValue, $0.path) < ($1.root.rawValue, $1.path) }
    }
}
