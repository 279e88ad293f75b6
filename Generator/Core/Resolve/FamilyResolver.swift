/// The decoded documents of one family directory.
public struct FamilyDocuments: Sendable {
    /// The directory name, which is the module name.
    public var name: String
    /// The directory as shown to users, e.g. `Schemas/Vital`.
    public var directory: String
    public var protocolDocument: ProtocolDocument?
    /// Whether the directory has a protocol.json, even one that could not be read (its errors are reported then).
    public var hasProtocolFile = false
    public var typesDocument: TypesDocument?
    public var methods: [MethodDocument]
}

/// Resolves one family's documents into an ``IRFamily``, reporting every semantic problem.
struct FamilyResolver {
    var diagnostics: Diagnostics
    private var types: TypeResolver

    init() {
        diagnostics = Diagnostics()
        types = TypeResolver(diagnostics: Diagnostics())
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
        let binding = familyBinding(protocolDocument)
        if case .healthvault = binding { types.anyValueIsXML = true }
        var family = IRFamily(
            name: documents.name, directory: documents.directory, description: protocolDocument.description,
            binding: binding,
            servers: protocolDocument.servers.map {
                IRServer(name: $0.name, description: $0.description, defaultURL: $0.defaultURL)
            },
            types: [], methods: [], errors: []
        )

        family.types = namedTypes(documents)
        var methods: [IRMethod] = []
        for document in documents.methods.sorted(by: { $0.name.value < $1.name.value }) {
            if let method = method(document, family: family, protocolDocument: protocolDocument) {
                methods.append(method)
            }
        }
        family.methods = methods
        var statusError: String?
        if case .healthvault(let settings) = binding { statusError = settings.statusError }
        family.errors = protocolDocument.errors.compactMap {
            errorFormat($0, file: protocolDocument.file, isStatusError: $0.name == statusError)
        }

        analyze(family)
        for index in family.methods.indices {
            checkHTTPFields(family.methods[index], family: family)
            if let paging = documents.methods.first(where: { $0.name.value == family.methods[index].name })?.paging {
                family.methods[index].paging = resolvePaging(paging, method: family.methods[index])
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
        if protocolDocument.family.value != documents.name {
            diagnostics.error(
                "\"family\" is \"\(protocolDocument.family.value)\", expected \"\(documents.name)\", the directory's name",
                at: protocolDocument.family.location, pointer: protocolDocument.family.pointer)
        }
    }

    /// Declares every type of types.json before defining any, so that references among them resolve in any order.
    private mutating func namedTypes(_ documents: FamilyDocuments) -> [IRType] {
        types.typesFile = documents.typesDocument?.file
        guard let typesDocument = documents.typesDocument else { return [] }
        let scope = ResolutionScope(
            file: typesDocument.file, localTypes: [:], allowedBinds: [], canSign: false, isHTTPRequestRoot: false,
            bindRestriction:
                "bound values only inside a healthvault request whose auth provides them, not in types.json"
        )
        var declared: [IRType] = []
        for named in typesDocument.defs {
            guard let type = types.declare(named, parent: nil, scope: scope) else { continue }
            types.familyTypes[named.name] = type
            declared.append(type)
        }
        var localScope = scope
        localScope.localTypes = types.familyTypes
        for type in declared { types.define(type, scope: localScope) }
        return declared
    }

    private mutating func analyze(_ family: IRFamily) {
        diagnostics.append(contentsOf: types.diagnostics)
        types.diagnostics = Diagnostics()
        var analysis = TypeAnalysis(family: family)
        analysis.resolveFixedProperties()
        analysis.checkRecursion()
        analysis.resolveDefaults()
        analysis.checkXMLShapes()
        analysis.markUsage()
        analysis.checkAnyValues()
        analysis.markSensitivity()
        diagnostics.append(contentsOf: analysis.diagnostics)
    }

    private mutating func familyBinding(_ document: ProtocolDocument) -> IRFamilyBinding {
        switch document.binding {
        case .healthvault(let settings):
            if !document.errors.contains(where: { $0.name == settings.statusError.value }) {
                diagnostics.error(
                    "\"statusError\": \"\(settings.statusError.value)\" names no error format, expected one of \(document.errors.map { "\"\($0.name)\"" }.joined(separator: ", "))",
                    at: settings.statusError.location, pointer: settings.statusError.pointer)
            }
            return .healthvault(
                IRHealthVaultSettings(
                    language: settings.language, country: settings.country, messageTTL: settings.messageTTL ?? 1800,
                    clientVersion: settings.clientVersion ?? "HV-Swift/1.0", statusError: settings.statusError.value
                ))
        case .http(let settings):
            return .http(
                IRHTTPSettings(
                    apiKeyHeader: settings.apiKeyHeader, headers: settings.headers,
                    xmlPrimitives: settings.xmlPrimitives))
        }
    }

    // MARK: - Methods

    private mutating func method(_ document: MethodDocument, family: IRFamily, protocolDocument: ProtocolDocument)
        -> IRMethod?
    {
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
        guard let binding = methodBinding(document, protocolDocument: protocolDocument) else { return nil }

        var allowedBinds: Set<BindName> = []
        var canSign = false
        var restriction = "bound values only in a request whose auth policy provides them"
        var isHTTP = false
        switch binding {
        case .healthvault(let hv):
            if hv.auth == .castSignature {
                allowedBinds = [.applicationID, .signingTime]
                canSign = true
                restriction =
                    "applicationID or signingTime (castSignature provides those; signature only inside an element that \"signs\")"
            } else {
                restriction =
                    "no bound values: auth \(hv.auth.rawValue) provides none (castSignature provides applicationID and signingTime)"
            }
        case .http:
            isHTTP = true
            restriction = "no bound values in http methods"
        }
        let provenanceFile = document.file.displayPath
        var localTypes: [String: IRType] = [:]
        var namespaceTypes: [IRType] = []
        let localScope = ResolutionScope(
            file: document.file, localTypes: [:], allowedBinds: allowedBinds, canSign: canSign,
            isHTTPRequestRoot: false,
            bindRestriction: restriction
        )
        var declared: [IRType] = []
        for named in document.defs {
            guard let type = types.declare(named, parent: name.value, scope: localScope) else { continue }
            localTypes[named.name] = type
            declared.append(type)
        }
        var scope = localScope
        scope.localTypes = localTypes
        // Local types can refer to each other, so each is defined once all are declared.
        for type in declared { types.define(type, scope: scope) }

        var request: IRType?
        if let schema = document.request {
            var requestScope = scope
            requestScope.isHTTPRequestRoot = isHTTP
            request = types.inlineType(named: "Request", parent: name.value, schema: schema, scope: requestScope)
        }
        var response: IRType?
        if let schema = document.response {
            var responseScope = scope
            responseScope.allowedBinds = []
            responseScope.canSign = false
            responseScope.bindRestriction = "no bound values in a response"
            response = types.inlineType(named: "Response", parent: name.value, schema: schema, scope: responseScope)
        }
        namespaceTypes += [request, response].compactMap { $0 } + declared

        if case .healthvault = binding {
            for (type, word) in [(request, "request"), (response, "response")] {
                guard let type, let schema = word == "request" ? document.request : document.response else { continue }
                guard case .object = IRTypeRef.named(type).namedType?.kind else {
                    diagnostics.error(
                        "the \(word) of a healthvault method is not an object, expected an object describing the content of <info>",
                        at: schema.location, pointer: schema.pointer)
                    continue
                }
            }
        }
        if case .http(let http) = binding, http.response == .none, let schema = document.response {
            diagnostics.error(
                "the method has a \"response\" schema but its binding's \"response\" is none, expected one of json, xml or jsonOrXml",
                at: schema.location, pointer: schema.pointer)
        }
        return IRMethod(
            name: name.value, clientMethodName: Naming.lowerCamel(name.value), documentation: document.description,
            provenance: Provenance(file: provenanceFile, pointer: ""), binding: binding, request: request,
            response: response, namespaceTypes: namespaceTypes, paging: nil
        )
    }

    private mutating func methodBinding(_ document: MethodDocument, protocolDocument: ProtocolDocument)
        -> IRMethodBinding?
    {
        switch (document.binding, protocolDocument.binding) {
        case (.healthvault(let binding), .healthvault(let settings)):
            if !settings.authPolicies.contains(binding.auth.value) {
                diagnostics.error(
                    "\"auth\" is \"\(binding.auth.value.rawValue)\", which protocol.json does not list, expected one of \(settings.authPolicies.map(\.rawValue).joined(separator: ", "))",
                    at: binding.auth.location, pointer: binding.auth.pointer)
            }
            if let idempotent = binding.idempotent, idempotent.value, binding.auth.value == .castSignature {
                diagnostics.error(
                    "\"idempotent\" is true on a castSignature method: creating a session is never sent twice",
                    at: idempotent.location, pointer: idempotent.pointer)
            }
            return .healthvault(
                IRHealthVaultMethod(
                    method: binding.method, version: binding.version, auth: binding.auth.value,
                    responseNamespace: binding.responseNamespace, recordScoped: binding.recordScoped,
                    idempotent: binding.idempotent?.value ?? false
                ))
        case (.http(let binding), .http(let settings)):
            return .http(httpBinding(binding, settings: settings, protocolDocument: protocolDocument))
        case (.healthvault(let binding), .http):
            diagnostics.error(
                "the method uses the healthvault binding, expected http like the rest of the family (protocol.json)",
                at: binding.location, pointer: binding.pointer)
            return nil
        case (.http(let binding), .healthvault):
            diagnostics.error(
                "the method uses the http binding, expected healthvault like the rest of the family (protocol.json)",
                at: binding.location, pointer: binding.pointer)
            return nil
        }
    }

    private mutating func httpBinding(
        _ binding: HTTPMethodBinding, settings: HTTPFamilySettings, protocolDocument: ProtocolDocument
    ) -> IRHTTPMethod {
        if !protocolDocument.servers.contains(where: { $0.name == binding.server.value }) {
            diagnostics.error(
                "\"server\" is \"\(binding.server.value)\", which protocol.json does not define, expected one of \(Diagnostics.choices(protocolDocument.servers.map(\.name), empty: "it defines no servers"))",
                at: binding.server.location, pointer: binding.server.pointer)
        }
        if !settings.authPolicies.contains(binding.auth.value) {
            diagnostics.error(
                "\"auth\" is \"\(binding.auth.value.rawValue)\", which protocol.json does not list, expected one of \(settings.authPolicies.map(\.rawValue).joined(separator: ", "))",
                at: binding.auth.location, pointer: binding.auth.pointer)
        }
        if [.apiKey, .bearerOrApiKey].contains(binding.auth.value), settings.apiKeyHeader == nil {
            diagnostics.error(
                "\"auth\" is \"\(binding.auth.value.rawValue)\" but protocol.json has no \"apiKeyHeader\", expected the header that carries the key",
                at: binding.auth.location, pointer: binding.auth.pointer)
        }
        if binding.auth.value == .oauthClient, binding.body.value != .form {
            diagnostics.error(
                "\"auth\" is \"oauthClient\" but \"body\" is \"\(binding.body.value.rawValue)\", expected \"form\": a client secret sent as a form field (client_secret_post) travels only in a form body, never in the query",
                at: binding.body.location, pointer: binding.body.pointer)
        }
        if [.GET, .DELETE].contains(binding.method.value), binding.body.value != .none {
            diagnostics.error(
                "a \(binding.method.value.rawValue) request with a \(binding.body.value.rawValue) body, expected \"body\": \"none\" (a \(binding.method.value.rawValue) request cannot carry a body)",
                at: binding.body.location, pointer: binding.body.pointer)
        }
        if [.xml, .jsonOrXml].contains(binding.response.value), binding.responseRoots.isEmpty {
            diagnostics.error(
                "\"response\" is \"\(binding.response.value.rawValue)\" but \"responseRoot\" is missing, expected the XML document element's name",
                at: binding.response.location, pointer: binding.response.pointer)
        }
        for error in binding.errors where !protocolDocument.errors.contains(where: { $0.name == error.value }) {
            diagnostics.error(
                "\"errors\" names \"\(error.value)\", which protocol.json does not define, expected one of \(Diagnostics.choices(protocolDocument.errors.map(\.name), empty: "it defines no error formats"))",
                at: error.location, pointer: error.pointer)
        }
        return IRHTTPMethod(
            verb: binding.method.value, server: binding.server.value, pathSegments: pathSegments(binding.path),
            pathLocation: binding.path,
            body: binding.body.value, auth: binding.auth.value, response: binding.response.value,
            responseRoots: binding.responseRoots, errors: binding.errors.map(\.value), headers: binding.headers
        )
    }

    private mutating func pathSegments(_ path: Located<String>) -> [IRPathSegment] {
        var segments: [IRPathSegment] = []
        var rest = Substring(path.value)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { segments.append(.literal(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                diagnostics.error(
                    "\"path\" has an unclosed \"{\", expected {name} placeholders", at: path.location,
                    pointer: path.pointer)
                return segments
            }
            let name = String(rest[rest.index(after: open)..<close])
            segments.append(.parameter(swiftName: Naming.lowerCamel(name), wireName: name))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { segments.append(.literal(String(rest))) }
        return segments
    }

    // MARK: - HTTP fields

    private mutating func checkHTTPFields(_ method: IRMethod, family: IRFamily) {
        guard case .http(let binding) = method.binding else { return }
        let placeholders = method.binding.pathParameterNames
        var fieldObjects: [IRType] = []
        if let request = method.request {
            let resolved = IRTypeRef.named(request).namedType
            switch resolved?.kind {
            case .object?: fieldObjects = resolved.map { [$0] } ?? []
            case .union(let union)?: fieldObjects = union.variants.compactMap { $0.type.namedType }
            default:
                diagnostics.error(
                    "the request of an http method is \(types.describe(.named(request))), expected an object or a oneOf of objects",
                    at: request.sourceLocation)
            }
        }
        var pathProperties: Set<String> = []
        for object in fieldObjects {
            for property in object.properties {
                let location = property.effectiveLocation(body: binding.body)
                switch (location, binding.body) {
                case (.body, .none):
                    diagnostics.error(
                        "the property \"\(property.wireName)\" travels in the body but the binding has no body, expected \"body\": \"form\" or \"json\", or another \"in\"",
                        at: property.sourceLocation, pointer: property.provenance.pointer)
                case (.path, _), (.query, _), (.header, _):
                    if binding.body == .json {
                        diagnostics.error(
                            "the property \"\(property.wireName)\" is \"in\": \"\(location.rawValue)\" in a JSON-body request, expected every field of a JSON request in the body",
                            at: property.sourceLocation, pointer: property.provenance.pointer)
                    }
                default: break
                }
                if location == .path {
                    pathProperties.insert(property.wireName)
                    if !property.isRequired || !property.type.isScalarLike {
                        diagnostics.error(
                            "the path parameter \"\(property.wireName)\" is \(property.isRequired ? "not a scalar" : "optional"), expected a required scalar",
                            at: property.sourceLocation, pointer: property.provenance.pointer)
                    }
                    if !placeholders.contains(property.wireName) {
                        diagnostics.error(
                            "the property \"\(property.wireName)\" is \"in\": \"path\" but the path has no {\(property.wireName)}, expected the path to name it",
                            at: property.sourceLocation, pointer: property.provenance.pointer)
                    }
                }
                if binding.body != .json, !property.isFieldValue {
                    diagnostics.error(
                        "the property \"\(property.wireName)\" is \(types.describe(property.type)), expected query, header and form fields to be scalars or arrays of scalars",
                        at: property.sourceLocation, pointer: property.provenance.pointer)
                }
            }
        }
        for name in placeholders where !pathProperties.contains(name) {
            diagnostics.error(
                "the path names {\(name)} but the request has no property \"\(name)\" with \"in\": \"path\", expected one",
                at: binding.pathLocation.location, pointer: binding.pathLocation.pointer)
        }
    }

    // MARK: - Paging

    private mutating func resolvePaging(_ node: PagingNode, method: IRMethod) -> IRPaging? {
        guard let request = method.request, let response = method.response else {
            diagnostics.error(
                "\"paging\" on a method without both a request and a response, expected both", at: node.location)
            return nil
        }
        var resolver = PointerResolver()
        defer { diagnostics.append(contentsOf: resolver.diagnostics) }
        guard let cursor = resolver.resolve(node.cursor, from: request, allowFirst: false),
            let items = resolver.resolve(node.items, from: response, allowFirst: false)
        else { return nil }
        guard case .property(let cursorProperty) = cursor.last, cursorProperty.isOptional,
            cursorProperty.type.isScalarLike
        else {
            diagnostics.error(
                "\"cursor\" points to \(resolver.describeEnd(cursor)), expected an optional scalar property of the request",
                at: node.cursor.location, pointer: node.cursor.pointer)
            return nil
        }
        guard case .property(let itemsProperty) = items.last, case .array(let element) = itemsProperty.type,
            let itemType = element.namedType
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
        let scope = ResolutionScope(
            file: file, localTypes: [:], allowedBinds: [], canSign: false, isHTTPRequestRoot: false,
            bindRestriction: "no bound values in an error body"
        )
        let holder = IRType(
            name: node.name, parent: nil, kind: .object([]), documentation: nil,
            provenance: Provenance(file: file.displayPath, pointer: node.pointer), location: node.keyLocation)
        guard let body = types.typeRef(node.body, nameHint: node.name + "Body", owner: holder, scope: scope) else {
            return nil
        }
        guard let bodyType = body.namedType, case .object = bodyType.kind else {
            diagnostics.error(
                "the body of \"\(node.name)\" is \(types.describe(body)), expected an object", at: node.body.location,
                pointer: node.body.pointer)
            return nil
        }
        if !holder.nestedTypes.isEmpty {
            diagnostics.error(
                "the body of \"\(node.name)\" is written inline, expected a $ref to a type in types.json",
                at: node.body.location, pointer: node.body.pointer)
        }
        var resolver = PointerResolver()
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
        for type in family.types {
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
        for (error, node) in zip(family.errors, protocolDocument.errors) {
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

extension IRMethodBinding {
    /// The `{name}` placeholders of an http path.
    var pathParameterNames: [String] {
        guard case .http(let binding) = self else { return [] }
        return binding.pathSegments.compactMap { segment in
            if case .parameter(_, let wire) = segment { return wire }
            return nil
        }
    }
}

extension IRProperty {
    /// Where an http request property travels: its `in`, or the body when the binding has one, else the query.
    func effectiveLocation(body: HTTPBodyKind) -> ParameterLocation {
        location ?? (body == .none ? .query : .body)
    }

    /// Whether the property can be a query, header or form field: a scalar, an enum, or an array of those.
    var isFieldValue: Bool {
        if type.isScalarLike { return true }
        if case .array(let element) = type { return element.isScalarLike }
        return false
    }
}
