/// The decoded documents of one family directory.
struct FamilyDocuments: Sendable {
    /// The directory name, which is the family's name.
    var name: String
    /// The directory as shown to users, e.g. `Schemas/Vital`.
    var directory: String
    var protocolDocument: ProtocolDocument?
    /// Whether the directory has a protocol.json, even one that could not be read (its errors are reported then).
    var hasProtocolFile = false
    var typesDocument: TypesDocument?
    var methods: [MethodDocument]
    /// Every reference to another family's schemas (`$ref` values starting with `../`), in file order.
    var references: [Located<String>] = []
    /// What reading the directory's files reported.
    var diagnostics = Diagnostics()
}

/// Resolves one family's documents into an ``IRFamily``, reporting every semantic problem.
struct FamilyResolver {
    var diagnostics: Diagnostics
    var types: TypeResolver
    /// The package's configuration, whose naming overrides replace the schemas' names.
    let config: GeneratorConfig

    /// - Parameters:
    ///   - dependencies: the families resolved before this one, whose types references may name.
    ///   - existing: every family directory, resolved or not.
    ///   - sharedModule: the families generated into one module with this one (the others are modules of their own).
    init(
        config: GeneratorConfig = .init(), dependencies: [String: IRFamily] = [:], existing: Set<String> = [],
        sharedModule: Set<String> = []
    ) {
        diagnostics = Diagnostics()
        types = TypeResolver(diagnostics: Diagnostics())
        types.externals = ExternalTypes(families: dependencies, sharedModule: sharedModule)
        types.externals.existing = existing
        self.config = config
    }

    mutating func resolve(_ documents: FamilyDocuments) -> IRFamily? {
        guard let protocolDocument = documents.protocolDocument else {
            guard !documents.hasProtocolFile else { return nil }
            diagnostics.error(
                "the family directory \(documents.directory) has no protocol.json, expected one describing the family's binding, servers and errors",
                at: nil)
            return nil
        }
        checkFamilyName(protocolDocument, documents: documents)
        types.externals.family = documents.name
        let bindingResolver = BindingResolvers.resolver(for: protocolDocument, diagnostics: &diagnostics)
        types.anyValueIsXML = bindingResolver.anyValueIsXML
        var family = IRFamily(
            name: documents.name, module: protocolDocument.module?.value ?? documents.name,
            directory: documents.directory, description: protocolDocument.description,
            binding: bindingResolver.family,
            servers: protocolDocument.servers.map {
                IRServer(name: $0.name, description: $0.description, defaultURL: $0.defaultURL)
            },
            types: [], methods: [], errors: [], typeTable: IRTypeTable()
        )

        family.sampleTests = protocolDocument.sampleTests
        family.types = namedTypes(documents)
        var methods: [IRMethod] = []
        for document in documents.methods.sorted(by: { $0.name.value < $1.name.value }) {
            if let method = method(document, family: documents.name, binding: bindingResolver) {
                methods.append(method)
            }
        }
        family.methods = methods
        family.errors = protocolDocument.errors.compactMap {
            guard let reference = $0.reference else {
                return errorFormat(
                    $0, file: protocolDocument.file, isStatusError: $0.name == bindingResolver.statusError)
            }
            return referredErrorFormat($0, reference: reference)
        }

        family.typeTable = types.table
        family.typeTable = analyze(family, binding: bindingResolver)
        family.dependencies = types.externals.dependencies(in: family.typeTable, errors: family.errors)
        for index in family.methods.indices {
            guard let document = documents.methods.first(where: { $0.name.value == family.methods[index].name })
            else { continue }
            bindingResolver.check(
                family.methods[index], document: document, types: family.typeTable, diagnostics: &diagnostics)
            if let paging = document.paging {
                family.methods[index].paging = resolvePaging(
                    paging, method: family.methods[index], table: family.typeTable)
            }
        }
        checkTopLevelNames(family, protocolDocument: protocolDocument, documents: documents)
        return family
    }

    // MARK: - Family

    mutating func checkFamilyName(_ protocolDocument: ProtocolDocument, documents: FamilyDocuments) {
        if !Naming.isTypeName(protocolDocument.family.value) {
            diagnostics.error(
                "\"family\" is \"\(protocolDocument.family.value)\", expected a Swift module name (UpperCamelCase letters and digits)",
                at: protocolDocument.family.location, pointer: protocolDocument.family.pointer
            )
        }
        if let module = protocolDocument.module, !Naming.isTypeName(module.value) {
            diagnostics.error(
                "\"module\" is \"\(module.value)\", expected a Swift module name (UpperCamelCase letters and digits)",
                at: module.location, pointer: module.pointer)
        }
        if protocolDocument.family.value != documents.name {
            diagnostics.error(
                "\"family\" is \"\(protocolDocument.family.value)\", expected \"\(documents.name)\", the directory's name",
                at: protocolDocument.family.location, pointer: protocolDocument.family.pointer)
        }
    }

    /// Declares every type of types.json before defining any, so that references among them resolve in any order.
    mutating func namedTypes(_ documents: FamilyDocuments) -> [IRTypeName] {
        types.typesFile = documents.typesDocument?.file
        guard let typesDocument = documents.typesDocument else { return [] }
        let scope = ResolutionScope(
            file: typesDocument.file, localTypes: [:], allowedBinds: [], canSign: false, isHTTPRequestRoot: false,
            bindRestriction:
                "bound values only inside a healthvault request whose auth provides them, not in types.json"
        )
        var declared: [IRTypeName] = []
        for named in typesDocument.defs {
            let name = config.typeNames[documents.name + "." + named.name]
            guard let type = types.declare(named, parent: nil, scope: scope, name: name) else { continue }
            types.familyTypes[named.name] = type
            declared.append(type)
        }
        var localScope = scope
        localScope.localTypes = types.familyTypes
        for type in declared { types.define(type, scope: localScope) }
        return declared
    }

    /// Completes the family's types with the whole-family passes; the table they leave.
    mutating func analyze(_ family: IRFamily, binding: any BindingResolver) -> IRTypeTable {
        diagnostics.append(contentsOf: types.diagnostics)
        types.diagnostics = Diagnostics()
        var analysis = TypeAnalysis(family: family, references: types.externals.firstReferences)
        analysis.resolveFixedProperties()
        analysis.breakRecursion()
        analysis.resolveDefaults()
        analysis.checkXMLShapes()
        analysis.markUsage(codecs: binding.codecUsage(of:))
        analysis.checkAnyValues()
        analysis.markSensitivity()
        diagnostics.append(contentsOf: analysis.diagnostics)
        return analysis.table
    }

    // MARK: - Methods

    mutating func method(
        _ document: MethodDocument, family: String, binding bindingResolver: any BindingResolver
    ) -> IRMethod? {
        let name = document.name
        let expectedFile = name.value + ".json"
        if !Naming.isTypeName(name.value) {
            diagnostics.error(
                "\"name\" is \"\(name.value)\", expected an UpperCamelCase Swift identifier", at: name.location,
                pointer: name.pointer)
            return nil
        }
        if document.file.fileName != expectedFile {
            diagnostics.error(
                "\"name\" is \"\(name.value)\" but the file is \(document.file.fileName), expected the file to be named \(expectedFile)",
                at: name.location, pointer: name.pointer)
        }
        guard let binding = bindingResolver.methodBinding(of: document, diagnostics: &diagnostics) else { return nil }
        let rules = bindingResolver.requestRules(for: binding)
        let provenanceFile = document.file.displayPath
        let namespace = IRTypeName(name.value)
        var localTypes: [String: IRTypeName] = [:]
        var namespaceTypes: [IRTypeName] = []
        let localScope = ResolutionScope(
            file: document.file, localTypes: [:], allowedBinds: rules.allowedBinds, canSign: rules.canSign,
            isHTTPRequestRoot: false, bindRestriction: rules.bindRestriction
        )
        var declared: [IRTypeName] = []
        for named in document.defs {
            guard let type = types.declare(named, parent: namespace, scope: localScope) else { continue }
            localTypes[named.name] = type
            declared.append(type)
        }
        var scope = localScope
        scope.localTypes = localTypes
        // Local types can refer to each other, so each is defined once all are declared.
        for type in declared { types.define(type, scope: scope) }

        var request: IRTypeName?
        if let schema = document.request {
            var requestScope = scope
            requestScope.isHTTPRequestRoot = rules.propertiesAreFields
            request = types.inlineType(named: "Request", parent: namespace, schema: schema, scope: requestScope)
        }
        var response: IRTypeName?
        if let schema = document.response {
            var responseScope = scope
            responseScope.allowedBinds = []
            responseScope.canSign = false
            responseScope.bindRestriction = "no bound values in a response"
            response = types.inlineType(named: "Response", parent: namespace, schema: schema, scope: responseScope)
        }
        namespaceTypes += [request, response].compactMap { $0 } + declared

        return IRMethod(
            name: name.value,
            clientMethodName: config.methodNames[family + "." + name.value] ?? Naming.lowerCamel(name.value),
            documentation: document.description,
            provenance: Provenance(file: provenanceFile, pointer: ""), binding: binding, request: request,
            response: response, namespaceTypes: namespaceTypes, paging: nil
        )
    }

}

extension IRProperty {
    /// Where an http request property travels: its `in`, or the body when the binding has one, else the query.
    func effectiveLocation(body: HTTPBodyKind) -> ParameterLocation {
        location ?? (body == .none ? .query : .body)
    }

    /// Whether the property can be a query, header or form field: a scalar, an enum, or an array of those.
    func isFieldValue(in table: IRTypeTable) -> Bool {
        if table.isScalarLike(type) { return true }
        if case .array(let element) = type { return table.isScalarLike(element) }
        return false
    }
}
