/// The decoded documents of one family directory.
public struct FamilyDocuments: Sendable {
    /// The directory name, which is the family's name.
    public var name: String
    /// The directory as shown to users, e.g. `Schemas/Vital`.
    public var directory: String
    public var protocolDocument: ProtocolDocument?
    /// Whether the directory has a protocol.json, even one that could not be read (its errors are reported then).
    public var hasProtocolFile = false
    public var typesDocument: TypesDocument?
    public var methods: [MethodDocument]
    /// Every reference to another family's schemas (`$ref` values starting with `../`), in file order.
    public var references: [Located<String>] = []
    /// What reading the directory's files reported.
    public var diagnostics = Diagnostics()
}

/// Resolves one family's documents into an ``IRFamily``, reporting every semantic problem.
struct FamilyResolver {
    var diagnostics: Diagnostics
    private var types: TypeResolver
    /// The package's configuration, whose naming overrides replace the schemas' names.
    private let config: GeneratorConfig

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

    private mutating func checkFamilyName(_ protocolDocument: ProtocolDocument, documents: FamilyDocuments) {
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
    private mutating func namedTypes(_ documents: FamilyDocuments) -> [IRTypeName] {
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
    private mutating func analyze(_ family: IRFamily, binding: any BindingResolver) -> IRTypeTable {
        diagnostics.append(contentsOf: types.diagnostics)
        types.diagnostics = Diagnostics()
        var analysis = TypeAnalysis(family: family, references: types.externals.firstReferences)
        analysis.resolveFixedProperties()
        analysis.checkRecursion()
        analysis.resolveDefaults()
        analysis.checkXMLShapes()
        analysis.markUsage(codecs: binding.codecUsage(of:))
        analysis.checkAnyValues()
        analysis.markSensitivity()
        diagnostics.append(contentsOf: analysis.diagnostics)
        return analysis.table
    }

    // MARK: - Methods

    private mutating func method(
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

    // MARK: - Paging

    private mutating func resolvePaging(_ node: PagingNode, method: IRMethod, table: IRTypeTable) -> IRPaging? {
        guard let request = method.request.flatMap({ table[$0] }), let response = method.response.flatMap({ table[$0] })
        else {
            diagnostics.error(
                "\"paging\" on a method without both a request and a response, expected both", at: node.location)
            return nil
        }
        var resolver = PointerResolver(table: table)
        defer { diagnostics.append(contentsOf: resolver.diagnostics) }
        guard let cursor = resolver.resolve(node.cursor, from: request, allowFirst: false),
            let items = resolver.resolve(node.items, from: response, allowFirst: false)
        else { return nil }
        guard case .property(let cursorProperty) = cursor.last, cursorProperty.isOptional,
            table.isScalarLike(cursorProperty.type)
        else {
            diagnostics.error(
                "\"cursor\" points to \(resolver.describeEnd(cursor)), expected an optional scalar property of the request",
                at: node.cursor.location, pointer: node.cursor.pointer)
            return nil
        }
        guard case .property(let itemsProperty) = items.last, case .array(let element) = itemsProperty.type,
            let itemType = table.namedType(element)
        else {
            diagnostics.error(
                "\"items\" points to \(resolver.describeEnd(items)), expected an array of objects in the response",
                at: node.items.location, pointer: node.items.pointer)
            return nil
        }
        guard let itemCursor = resolver.resolve(node.itemCursor, from: itemType, allowFirst: false) else { return nil }
        guard case .property(let itemCursorProperty) = itemCursor.last,
            itemCursorProperty.type.swiftType == cursorProperty.type.swiftType
        else {
            diagnostics.error(
                "\"itemCursor\" points to \(resolver.describeEnd(itemCursor)), expected a value of the cursor's type \(cursorProperty.type.swiftType)",
                at: node.itemCursor.location, pointer: node.itemCursor.pointer)
            return nil
        }
        var more: [IRPathStep]?
        if let moreNode = node.more {
            guard let path = resolver.resolve(moreNode, from: response, allowFirst: false) else { return nil }
            guard case .property(let moreProperty) = path.last, case .scalar(.bool, _) = moreProperty.type else {
                diagnostics.error(
                    "\"more\" points to \(resolver.describeEnd(path)), expected a boolean in the response",
                    at: moreNode.location, pointer: moreNode.pointer)
                return nil
            }
            more = path
        }
        return IRPaging(cursorPath: cursor, itemsPath: items, itemCursorPath: itemCursor, morePath: more)
    }

    // MARK: - Errors

    private mutating func errorFormat(_ node: ErrorFormatNode, file: SchemaFile, isStatusError: Bool) -> IRErrorFormat?
    {
        guard let bodyNode = node.body else { return nil }
        let scope = ResolutionScope(
            file: file, localTypes: [:], allowedBinds: [], canSign: false, isHTTPRequestRoot: false,
            bindRestriction: "no bound values in an error body"
        )
        // Inline types of the body would be nested in a type named after the format, which is not generated: a
        // placeholder collects them for the diagnostic and is dropped.
        let holder = IRType(
            name: node.name, parent: nil, kind: .object([]), documentation: nil,
            provenance: Provenance(file: file.displayPath, pointer: node.pointer), location: node.keyLocation)
        guard types.table.insert(holder) else { return nil }
        let body = types.typeRef(
            bodyNode, nameHint: node.name + "Body", owner: holder.qualifiedName, scope: scope)
        let inline = types.table[holder.qualifiedName]?.nestedTypes ?? []
        types.table.remove(holder.qualifiedName)
        guard let body else { return nil }
        guard let bodyType = types.table.namedType(body), case .object = bodyType.kind else {
            diagnostics.error(
                "the body of \"\(node.name)\" is \(types.describe(body)), expected an object", at: bodyNode.location,
                pointer: bodyNode.pointer)
            return nil
        }
        if !inline.isEmpty {
            diagnostics.error(
                "the body of \"\(node.name)\" is written inline, expected a $ref to a type in types.json",
                at: bodyNode.location, pointer: bodyNode.pointer)
        }
        var resolver = PointerResolver(table: types.table)
        let codePaths = node.code.compactMap { resolver.resolve($0, from: bodyType, allowFirst: true, allowEach: true) }
        let messagePaths = node.message.compactMap { resolver.resolve($0, from: bodyType, allowFirst: true) }
        diagnostics.append(contentsOf: resolver.diagnostics)
        checkEveryElementPointers(codePaths, node.code)
        var isInteger: Bool?
        for (path, pointer) in zip(codePaths, node.code) {
            guard case .property(let property) = path.last, case .scalar(let scalar, _) = property.type,
                [.int, .string].contains(scalar)
            else {
                diagnostics.error(
                    "\"code\" points to \(resolver.describeEnd(path)), expected an integer or string field",
                    at: pointer.location, pointer: pointer.pointer)
                continue
            }
            if let previous = isInteger, previous != (scalar == .int) {
                diagnostics.error(
                    "the \"code\" pointers lead to both integers and strings, expected one type", at: pointer.location,
                    pointer: pointer.pointer)
            }
            isInteger = scalar == .int
        }
        for (path, pointer) in zip(messagePaths, node.message) {
            guard case .property(let property) = path.last, case .scalar(.string, let sensitive) = property.type else {
                diagnostics.error(
                    "\"message\" points to \(resolver.describeEnd(path)), expected a string field",
                    at: pointer.location, pointer: pointer.pointer)
                continue
            }
            if sensitive {
                diagnostics.error(
                    "\"message\" points to a sensitive field, expected a field that may be shown (messages appear in error descriptions)",
                    at: pointer.location, pointer: pointer.pointer)
            }
        }
        if node.encodings.contains("xml"), node.root == nil, !isStatusError {
            diagnostics.error(
                "\"\(node.name)\" may be XML but has no \"root\", expected the XML document element's name",
                at: node.keyLocation, pointer: node.pointer)
        }
        var codeType: IRCodeType?
        if !node.codes.isEmpty || node.codeType != nil {
            if node.code.isEmpty {
                diagnostics.error(
                    "\"\(node.name)\" has codes but no \"code\" pointer, expected where the code is in the body",
                    at: node.keyLocation, pointer: node.pointer)
            }
            codeType = codeTable(node, isInteger: isInteger ?? false, file: file)
        }
        return IRErrorFormat(
            name: node.name, documentation: node.description,
            provenance: Provenance(file: file.displayPath, pointer: node.pointer),
            body: body, json: node.encodings.contains("json"), xml: node.encodings.contains("xml"), root: node.root,
            codePaths: codePaths, messagePaths: messagePaths, codeType: codeType
        )
    }

    /// Another family's error format, used under its own name, with the codes whose recovery this family's protocol
    /// sets differently (or adds).
    private mutating func referredErrorFormat(_ node: ErrorFormatNode, reference: Located<String>) -> IRErrorFormat? {
        guard var format = types.externals.errorFormat(reference, into: &types.table, diagnostics: &diagnostics)
        else { return nil }
        if format.name != node.name {
            diagnostics.error(
                "the error format \"\(node.name)\" refers to \(format.swiftName), expected it under the name of the format it refers to, \"\(format.name)\"",
                at: node.keyLocation, pointer: node.pointer)
        }
        if !node.description.isEmpty { format.documentation = node.description }
        guard !node.codes.isEmpty else { return format }
        guard let codeType = format.codeType else {
            diagnostics.error(
                "\"codes\" on a reference to \(format.swiftName), which has no codes, expected \"codes\" only for a format with a code table",
                at: node.keyLocation, pointer: node.pointer + "/codes")
            return format
        }
        var seen = Set<ErrorCodeNode.Value>()
        for code in node.codes {
            switch code.value {
            case ErrorCodeNode.Value.integer where !codeType.isInteger,
                ErrorCodeNode.Value.string where codeType.isInteger:
                diagnostics.error(
                    "the code \(describe(code.value)) is \(codeType.isInteger ? "a string" : "an integer"), expected \(codeType.isInteger ? "an integer" : "a string") like the codes of \(format.swiftName)",
                    at: code.location, pointer: code.pointer + "/value")
                continue
            default: break
            }
            guard seen.insert(code.value).inserted else {
                diagnostics.error(
                    "the code \(describe(code.value)) is listed twice, expected each code once", at: code.location,
                    pointer: code.pointer)
                continue
            }
            // A code the other family knows keeps its case; one it does not know is its `unknown` case here.
            let known = codeType.codes.first { $0.value == code.value }
            format.recoveryOverrides.append(
                IRCode(
                    value: code.value, name: code.name, swiftName: known?.swiftName ?? "",
                    description: code.description, recovery: code.recovery))
        }
        return format
    }

    /// Code pointers that read every element of an array (`/*`) are alternatives per element, so all of them must
    /// read the same array.
    private mutating func checkEveryElementPointers(_ paths: [[IRPathStep]], _ pointers: [Located<String>]) {
        let arrays = paths.map { path in path.firstIndex(where: \.isEach).map { PointerResolver.spelling(path[..<$0]) }
        }
        guard let first = arrays.compactMap({ $0 }).first, arrays.contains(where: { $0 != first }),
            let pointer = zip(arrays, pointers).first(where: { $0.0 != first })?.1
        else { return }
        diagnostics.error(
            "the \"code\" pointer \"\(pointer.value)\" does not read every element of \(first.isEmpty ? "the body" : first) as another one does, expected all code pointers to use /* on the same array",
            at: pointer.location, pointer: pointer.pointer)
    }

    private mutating func codeTable(_ node: ErrorFormatNode, isInteger: Bool, file: SchemaFile) -> IRCodeType {
        var codes: [IRCode] = []
        var values = Set<ErrorCodeNode.Value>()
        var names: [String: String] = [:]
        for code in node.codes {
            switch code.value {
            case .integer where !isInteger, .string where isInteger:
                diagnostics.error(
                    "the code \(describe(code.value)) is \(isInteger ? "a string" : "an integer"), expected \(isInteger ? "an integer" : "a string") like the field \"code\" points to",
                    at: code.location, pointer: code.pointer + "/value")
                continue
            default: break
            }
            if !values.insert(code.value).inserted {
                diagnostics.error(
                    "the code \(describe(code.value)) is listed twice, expected each code once", at: code.location,
                    pointer: code.pointer)
                continue
            }
            let swiftName = code.swiftName ?? Naming.lowerCamel(code.name)
            if swiftName == "unknown" {
                diagnostics.error(
                    "the code \(describe(code.value)) becomes the case 'unknown', which is reserved, expected another name (set \"x-swift-name\")",
                    at: code.location, pointer: code.pointer)
                continue
            }
            if let other = names[swiftName] {
                diagnostics.error(
                    "the codes \(other) and \(describe(code.value)) both become the Swift case '\(swiftName)', expected distinct names (set \"x-swift-name\")",
                    at: code.location, pointer: code.pointer)
                continue
            }
            names[swiftName] = describe(code.value)
            codes.append(
                IRCode(
                    value: code.value, name: code.name, swiftName: swiftName, description: code.description,
                    recovery: code.recovery))
        }
        return IRCodeType(
            name: node.codeType ?? node.name + "Code", isInteger: isInteger, codes: codes,
            provenance: Provenance(file: file.displayPath, pointer: node.pointer + "/codes")
        )
    }

    private func describe(_ value: ErrorCodeNode.Value) -> String {
        switch value {
        case .integer(let number): return String(number)
        case .string(let text): return "\"\(text)\""
        }
    }

    // MARK: - Names

    private mutating func checkTopLevelNames(
        _ family: IRFamily, protocolDocument: ProtocolDocument, documents: FamilyDocuments
    ) {
        var owners: [String: String] = [family.clientName: "the client"]
        func claim(_ name: String, by owner: String, at location: SourceLocation?, pointer: String?) {
            if let existing = owners[name] {
                diagnostics.error(
                    "\(owner) is named \(name), like \(existing), expected distinct Swift names in the module",
                    at: location, pointer: pointer)
            } else {
                owners[name] = owner
            }
        }
        for type in family.typeTable.types(family.types) {
            claim(
                type.name, by: "the type \(type.name) in types.json", at: type.sourceLocation,
                pointer: type.provenance.pointer)
        }
        for method in family.methods {
            let document = documents.methods.first { $0.name.value == method.name }
            claim(
                method.name, by: "the method \(method.name)", at: document?.name.location,
                pointer: document?.name.pointer)
        }
        for (error, node) in zip(family.errors, protocolDocument.errors) where error.module == nil {
            claim(error.name, by: "the error format \(error.name)", at: node.keyLocation, pointer: node.pointer)
            if let codeType = error.codeType {
                claim(codeType.name, by: "the code enum of \(error.name)", at: node.keyLocation, pointer: node.pointer)
            }
        }
        for server in protocolDocument.servers where Naming.keywords.contains(server.name) {
            diagnostics.error(
                "the server name \"\(server.name)\" is a Swift keyword, expected another name", at: server.keyLocation)
        }
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
