/// Turns parsed JSON into typed schema documents, checking every keyword's spelling and JSON type.
///
/// This is the meta-schema (`Schemas/method.schema.json`, `Schemas/protocol.schema.json`) applied in Swift: the
/// keywords accepted here are exactly the ones the meta-schemas define, which a test keeps in sync.
struct DocumentDecoder {
    var diagnostics = Diagnostics()
    /// Every `$ref` to another family's file read so far, in order.
    var references: [Located<String>] = []

    // MARK: Methods

    mutating func method(_ root: JSONNode, file: SchemaFile) -> MethodDocument? {
        guard
            let reader = ObjectReader(
                root, what: "a method file", keywords: SchemaKeywords.method, diagnostics: &diagnostics)
        else { return nil }
        _ = reader.string("$schema", diagnostics: &diagnostics)
        let name = reader.nonEmptyString("name", required: true, diagnostics: &diagnostics)
        let description = reader.nonEmptyString("description", required: true, diagnostics: &diagnostics)
        var binding: MethodBinding?
        if let node = reader.value("binding") {
            binding = methodBinding(node)
        } else {
            reader.missing(
                "binding", "a method to say how it travels (\"healthvault\" or \"http\")", diagnostics: &diagnostics)
        }
        let request = reader.value("request").flatMap { schema($0) }
        let response = reader.value("response").flatMap { schema($0) }
        let paging = reader.value("paging").flatMap { pagingNode($0) }
        let defs = reader.value("$defs").map { definitions($0) } ?? []
        reader.finish(&diagnostics)
        guard let name, let description, let binding else { return nil }
        return MethodDocument(
            file: file, root: root, name: name, description: description.value, binding: binding,
            request: request, response: response, paging: paging, defs: defs
        )
    }

    mutating func methodBinding(_ node: JSONNode) -> MethodBinding? {
        guard
            let reader = ObjectReader(
                node, what: "\"binding\"", keywords: SchemaKeywords.binding, diagnostics: &diagnostics)
        else { return nil }
        let healthvault = reader.value("healthvault")
        let http = reader.value("http")
        reader.finish(&diagnostics)
        switch (healthvault, http) {
        case (let node?, nil): return healthVaultBinding(node).map(MethodBinding.healthvault)
        case (nil, let node?): return httpBinding(node).map(MethodBinding.http)
        case (_?, _?):
            diagnostics.error(
                "\"binding\" has both \"healthvault\" and \"http\", expected exactly one binding kind",
                at: node.location, pointer: node.pointer)
            return nil
        case (nil, nil):
            if node.members?.isEmpty == true {
                diagnostics.error(
                    "\"binding\" is empty, expected exactly one binding kind (\"healthvault\" or \"http\")",
                    at: node.location, pointer: node.pointer)
            }
            return nil
        }
    }

    mutating func healthVaultBinding(_ node: JSONNode) -> HealthVaultMethodBinding? {
        guard
            let reader = ObjectReader(
                node, what: "the healthvault binding", keywords: SchemaKeywords.healthvaultBinding,
                diagnostics: &diagnostics)
        else { return nil }
        let method = reader.nonEmptyString("method", required: true, diagnostics: &diagnostics)
        let version = reader.integer("version", required: true, minimum: 1, diagnostics: &diagnostics)
        let auth = reader.choice("auth", HealthVaultAuth.self, required: true, diagnostics: &diagnostics)
        let namespace = reader.nonEmptyString("responseNamespace", required: true, diagnostics: &diagnostics)
        let recordScoped = reader.bool("recordScoped", diagnostics: &diagnostics)
        let idempotent = reader.bool("idempotent", diagnostics: &diagnostics)
        reader.finish(&diagnostics)
        guard let method, let version, let auth, let namespace else { return nil }
        return HealthVaultMethodBinding(
            location: node.location, pointer: node.pointer, method: method.value, version: version.value, auth: auth,
            responseNamespace: namespace.value, recordScoped: recordScoped?.value ?? false, idempotent: idempotent
        )
    }

    mutating func httpBinding(_ node: JSONNode) -> HTTPMethodBinding? {
        guard
            let reader = ObjectReader(
                node, what: "the http binding", keywords: SchemaKeywords.httpBinding, diagnostics: &diagnostics)
        else { return nil }
        let method = reader.choice("method", HTTPVerb.self, required: true, diagnostics: &diagnostics)
        let server = reader.nonEmptyString("server", required: true, diagnostics: &diagnostics)
        let path =
            reader.string("path", diagnostics: &diagnostics)
            ?? Located(value: "", location: node.location, pointer: node.pointer + "/path")
        let body =
            reader.choice("body", HTTPBodyKind.self, diagnostics: &diagnostics)
            ?? Located(value: .none, location: node.location, pointer: node.pointer + "/body")
        let auth = reader.choice("auth", HTTPAuth.self, required: true, diagnostics: &diagnostics)
        let response =
            reader.choice("response", HTTPResponseKind.self, diagnostics: &diagnostics)
            ?? Located(value: .json, location: node.location, pointer: node.pointer + "/response")
        // One document element name, or several a server may answer with.
        let responseRoots =
            reader.value("responseRoot")?.elements != nil
            ? reader.strings("responseRoot", diagnostics: &diagnostics)?.map(\.value)
            : reader.nonEmptyString("responseRoot", diagnostics: &diagnostics).map { [$0.value] }
        let errors = reader.strings("errors", diagnostics: &diagnostics) ?? []
        let headers = reader.stringMap("headers", diagnostics: &diagnostics)
        reader.finish(&diagnostics)
        guard let method, let server, let auth else { return nil }
        return HTTPMethodBinding(
            location: node.location, pointer: node.pointer, method: method, server: server, path: path, body: body,
            auth: auth, response: response, responseRoots: responseRoots ?? [], errors: errors, headers: headers
        )
    }

    mutating func pagingNode(_ node: JSONNode) -> PagingNode? {
        guard
            let reader = ObjectReader(
                node, what: "\"paging\"", keywords: SchemaKeywords.paging, diagnostics: &diagnostics)
        else { return nil }
        let cursor = reader.string("cursor", required: true, diagnostics: &diagnostics)
        let items = reader.string("items", required: true, diagnostics: &diagnostics)
        let itemCursor = reader.string("itemCursor", required: true, diagnostics: &diagnostics)
        let more = reader.string("more", diagnostics: &diagnostics)
        reader.finish(&diagnostics)
        guard let cursor, let items, let itemCursor else { return nil }
        return PagingNode(location: node.location, cursor: cursor, items: items, itemCursor: itemCursor, more: more)
    }

    // MARK: Types

    mutating func types(_ root: JSONNode, file: SchemaFile) -> TypesDocument? {
        guard
            let reader = ObjectReader(
                root, what: "types.json", keywords: SchemaKeywords.typesFile, diagnostics: &diagnostics)
        else { return nil }
        _ = reader.string("$schema", diagnostics: &diagnostics)
        _ = reader.string("description", diagnostics: &diagnostics)
        guard let defsNode = reader.value("$defs") else {
            reader.missing("$defs", "types.json to define its types in \"$defs\"", diagnostics: &diagnostics)
            reader.finish(&diagnostics)
            return nil
        }
        let defs = definitions(defsNode)
        reader.finish(&diagnostics)
        return TypesDocument(file: file, defs: defs)
    }

    mutating func definitions(_ node: JSONNode) -> [NamedSchema] {
        guard let members = node.members else {
            diagnostics.error(
                "\"$defs\" is \(ObjectReader.article(node.kindName)), expected an object of named types",
                at: node.location, pointer: node.pointer)
            return []
        }
        return members.compactMap { member in
            schema(member.value).map { NamedSchema(name: member.key, keyLocation: member.keyLocation, schema: $0) }
        }
    }

}
