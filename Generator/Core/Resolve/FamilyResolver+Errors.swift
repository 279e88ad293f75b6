/// Error formats, their codes and recoveries, and names.
extension FamilyResolver {
    // MARK: - Errors

    mutating func errorFormat(_ node: ErrorFormatNode, file: SchemaFile, isStatusError: Bool) -> IRErrorFormat? {
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
            guard case .property(let property) = path.last, let scalar = codeScalar(property.type) else {
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

    /// The scalar a code field holds: an integer or a string, or an enum's string value (read as its `rawValue`,
    /// so a code the enum does not list still reaches the error's own code table).
    private func codeScalar(_ type: IRTypeRef) -> IRScalar? {
        switch type {
        case .scalar(let scalar, _) where [.int, .string].contains(scalar): return scalar
        case .named(let name):
            guard case .enumeration = types.table[name]?.kind else { return nil }
            return .string
        default: return nil
        }
    }

    /// Another family's error format, used under its own name, with the codes whose recovery this family's protocol
    /// sets differently (or adds).
    mutating func referredErrorFormat(_ node: ErrorFormatNode, reference: Located<String>) -> IRErrorFormat? {
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
    mutating func checkEveryElementPointers(_ paths: [[IRPathStep]], _ pointers: [Located<String>]) {
        let arrays = paths.map { path in path.firstIndex(where: \.isEach).map { PointerResolver.spelling(path[..<$0]) }
        }
        guard let first = arrays.compactMap({ $0 }).first, arrays.contains(where: { $0 != first }),
            let pointer = zip(arrays, pointers).first(where: { $0.0 != first })?.1
        else { return }
        diagnostics.error(
            "the \"code\" pointer \"\(pointer.value)\" does not read every element of \(first.isEmpty ? "the body" : first) as another one does, expected all code pointers to use /* on the same array",
            at: pointer.location, pointer: pointer.pointer)
    }

    mutating func codeTable(_ node: ErrorFormatNode, isInteger: Bool, file: SchemaFile) -> IRCodeType {
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

    func describe(_ value: ErrorCodeNode.Value) -> String {
        switch value {
        case .integer(let number): return String(number)
        case .string(let text): return "\"\(text)\""
        }
    }

    // MARK: - Names

    mutating func checkTopLevelNames(
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
