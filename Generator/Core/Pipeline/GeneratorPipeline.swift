/// A schema file read into memory.
public struct InMemoryFile: Sendable, Hashable {
    /// The path relative to the schemas directory, e.g. `HealthVault/types.json`.
    public let path: String
    /// The file's text.
    public let contents: String

    /// Creates a file.
    public init(path: String, contents: String) {
        self.path = path
        self.contents = contents
    }
}

/// The generator as a pipeline of pure stages over in-memory values:
/// load (parse with positions, check keywords) → resolve (check meaning, build the IR) → emit (render Swift).
///
/// Reading schema files and writing output are separate (``SchemaDirectory``, ``OutputWriter``), so every stage can be
/// tested without a file system.
public enum GeneratorPipeline {
    /// What to generate.
    public struct Options: Sendable {
        /// How the schemas directory is shown in diagnostics and provenance, e.g. `Schemas`.
        public var displayRoot: String
        /// Generate only these families (nil for all).
        public var families: Set<String>?
        /// Also emit round-trip tests of every model for the families' test targets.
        public var testSamples: Bool
        /// The package's `sdkgen-config.json`: families (when ``families`` is nil), access level, imports, names.
        public var config: GeneratorConfig
        /// Emit each family as one file, `<Family>.swift`, as a build plugin needs, instead of one file per schema.
        public var singleFile: Bool

        /// Creates options.
        public init(
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

    /// The generated files, and warnings that did not stop generation.
    public struct Output: Sendable {
        /// The files, sorted by root and path.
        public let files: [GeneratedFile]
        /// The families generated.
        public let families: [String]
        /// Warnings.
        public let diagnostics: [Diagnostic]
    }

    /// Runs every stage.
    ///
    /// - Throws: ``GenerationFailed`` with every diagnostic when any schema has an error; nothing is generated then.
    public static func run(_ files: [InMemoryFile], options: Options = .init()) throws -> Output {
        let (families, loadDiagnostics) = load(files, options: options)
        var diagnostics = loadDiagnostics
        options.config.checkOverrides(against: families, diagnostics: &diagnostics)
        let (module, resolveDiagnostics) = resolve(families, config: options.config)
        diagnostics.append(contentsOf: resolveDiagnostics)
        if families.isEmpty {
            diagnostics.error(
                "no family directories were found under \(options.displayRoot), expected directories holding protocol.json and method files",
                at: nil)
        }
        guard !diagnostics.hasErrors else { throw GenerationFailed(diagnostics: diagnostics.sorted) }
        let generated =
            options.singleFile
            ? module.families.map { FileEmitter.singleFile(for: $0, config: options.config) }
            : emit(module, testSamples: options.testSamples, config: options.config)
        return Output(files: generated, families: module.families.map(\.name), diagnostics: diagnostics.sorted)
    }

    /// Stage 1: parses every file of every family directory and checks each document's keywords.
    public static func load(_ files: [InMemoryFile], options: Options = .init()) -> ([FamilyDocuments], Diagnostics) {
        var diagnostics = Diagnostics()
        var decoder = DocumentDecoder()
        var families: [String: FamilyDocuments] = [:]
        for file in files.sorted(by: { $0.path < $1.path }) {
            let parts = file.path.split(separator: "/").map(String.init)
            // Files beside the family directories (the meta-schemas) are not part of any family.
            guard parts.count == 2, parts[1].hasSuffix(".json") else { continue }
            let (familyName, fileName) = (parts[0], parts[1])
            if let wanted = options.wantedFamilies, !wanted.contains(familyName) { continue }
            let schemaFile = SchemaFile(displayPath: options.displayRoot + "/" + file.path, fileName: fileName)
            var family =
                families[familyName]
                ?? FamilyDocuments(
                    name: familyName, directory: options.displayRoot + "/" + familyName, protocolDocument: nil,
                    typesDocument: nil, methods: []
                )
            if fileName == "protocol.json" { family.hasProtocolFile = true }
            guard let root = JSONParser.parse(file.contents, file: schemaFile.displayPath, diagnostics: &diagnostics)
            else {
                families[familyName] = family
                continue
            }
            switch fileName {
            case "protocol.json": family.protocolDocument = decoder.protocolDocument(root, file: schemaFile)
            case "types.json": family.typesDocument = decoder.types(root, file: schemaFile)
            default:
                if let method = decoder.method(root, file: schemaFile) { family.methods.append(method) }
            }
            families[familyName] = family
        }
        if let wanted = options.wantedFamilies {
            for name in wanted.sorted() where families[name] == nil {
                diagnostics.error(
                    "there is no family \(name) under \(options.displayRoot), expected one of the family directories",
                    at: nil)
            }
        }
        diagnostics.append(contentsOf: decoder.diagnostics)
        return (families.keys.sorted().compactMap { families[$0] }, diagnostics)
    }

    /// Stage 2: checks each family's meaning and resolves it into the IR.
    public static func resolve(_ families: [FamilyDocuments], config: GeneratorConfig = .init()) -> (
        IRModule, Diagnostics
    ) {
        var diagnostics = Diagnostics()
        var resolved: [IRFamily] = []
        for documents in families {
            var resolver = FamilyResolver(config: config)
            if let family = resolver.resolve(documents) { resolved.append(family) }
            diagnostics.append(contentsOf: resolver.diagnostics)
        }
        return (IRModule(families: resolved), diagnostics)
    }

    /// Stage 3: renders every family's Swift files.
    public static func emit(_ module: IRModule, testSamples: Bool, config: GeneratorConfig = .init()) -> [GeneratedFile]
    {
        module.families
            .flatMap { FileEmitter.files(for: $0, testSamples: testSamples, config: config) }
            .sorted { ($0.root.rawValue, $0.path) < ($1.root.rawValue, $1.path) }
    }
}
