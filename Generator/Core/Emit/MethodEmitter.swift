/// Emits a method's namespace, its client method and its paging; what depends on the binding comes from `binding`.
struct MethodEmitter {
    let family: IRFamily
    let method: IRMethod
    let binding: any BindingEmitter

    /// The namespace enum, `public enum GetAuthorizedPeople { … }` with the method's documentation, holding its
    /// request, response and other types.
    func namespace(declarations: DeclarationEmitter, into p: inout SwiftPrinter) {
        // How the method travels, and the schema it comes from, are told on its client function, where it is called.
        p.doc(method.documentation)
        p.block("public enum \(method.name)") { p in
            for type in family.typeTable.types(method.namespaceTypes) { declarations.emit(type, into: &p) }
        }
    }

    // MARK: - Client method

    private var requestType: IRType? { family.requestType(of: method) }

    /// Whether the client method takes the request as a parameter (not when every field is fixed).
    private var takesRequest: Bool {
        guard let requestType else { return false }
        return !requestType.isFixed
    }

    private var credentialParameters: [MethodParameter] { binding.credentialParameters(of: method) }

    private var returnType: String? { method.response == nil ? nil : "\(method.name).Response" }

    /// The `async throws` method on the family's client.
    ///
    /// ```swift
    /// extension HealthVaultAPIClient {
    ///     public func getAuthorizedPeople(
    ///         _ request: GetAuthorizedPeople.Request = .init(), session: HealthSignInCore.HealthVaultSessionCredential
    ///     ) async throws -> GetAuthorizedPeople.Response { … }
    /// }
    /// ```
    func clientMethod(into p: inout SwiftPrinter) {
        var parameters: [String] = []
        var docs: [String] = []
        if takesRequest, let requestType {
            parameters.append(
                "_ request: \(method.name).Request"
                    + (family.typeTable.hasEmptyInitializer(requestType) ? " = .init()" : ""))
            docs.append("- Parameter request: The request.")
        }
        for parameter in credentialParameters {
            parameters.append("\(parameter.label): \(parameter.type)")
            docs.append("- Parameter \(parameter.label): \(parameter.doc)")
        }
        var remarks: [String] = [binding.summary(of: method)]
        if !docs.isEmpty { remarks.append(docs.joined(separator: "\n")) }
        remarks.append("- Throws: \(binding.errorSummary(of: method))")
        remarks.append(Emit.remark(method.provenance))
        p.block("extension \(family.clientName)") { p in
            p.doc(method.documentation, remarks: remarks)
            p.listBlock(
                "public func \(Emit.name(method.clientMethodName))(", parameters, binding.signatureTail(of: method)
            ) { p in
                if takesRequest, let requestType,
                    ValidationEmitter(types: family.typeTable).needsValidation(requestType)
                {
                    p.line("try request.validate()")
                }
                binding.body(of: method, into: &p)
            }
        }
    }

    // MARK: - Paging

    /// `nextPageRequest(after:for:)` and the client's `…Pages` method.
    func paging(into p: inout SwiftPrinter) {
        guard let paging = method.paging, let requestType, let returnType else { return }
        p.blank()
        p.block("extension \(method.name)") { p in
            p.doc(
                "The request for the page after `response`, or nil when `response` is the last page.\n\nThe cursor is the last item's value, so an empty page ends the sequence too."
            )
            p.block("public static func nextPageRequest(after response: Response, for request: Request) -> Request?") {
                p in
                if let more = paging.morePath {
                    let chain = MemberChain.expression(more, from: "response")
                    let condition: String = chain.isOptional ? chain.expression + " == true" : chain.expression
                    p.line("guard \(condition) else { return nil }")
                }
                let items = MemberChain.expression(paging.itemsPath, from: "response")
                let last = items.expression + (items.isOptional ? "?" : "") + ".last"
                let cursor = MemberChain.expression(paging.itemCursorPath, from: last, rootIsOptional: true)
                p.line("guard let cursor = \(cursor.expression) else { return nil }")
                p.line("return \(rebuild(requestType, steps: paging.cursorPath, from: "request"))")
            }
        }
        p.blank()
        p.block("extension \(family.clientName)") { p in
            var parameters: [String] = []
            var arguments: [String] = ["$0"]
            parameters.append(
                "_ request: \(method.name).Request"
                    + (family.typeTable.hasEmptyInitializer(requestType) ? " = .init()" : ""))
            for parameter in credentialParameters {
                parameters.append("\(parameter.label): \(parameter.type)")
                arguments.append("\(parameter.label): \(parameter.label)")
            }
            let selector: String = Self.selector(method.clientMethodName, parameters: parameters)
            p.doc(
                "Every page of ``\(selector)``, fetched as the sequence is iterated.",
                remarks: [
                    "Each page is requested once; iteration stops after the last page, at an empty page, or with `PagingError.repeatedCursor` if the server repeats a cursor.",
                    Emit.remark(method.provenance),
                ])
            p.listBlock(
                "public func \(method.clientMethodName)Pages(", parameters,
                ") -> HealthSignInCore.PageSequence<\(method.name).Request, \(returnType)>"
            ) { p in
                p.call(
                    "HealthSignInCore.PageSequence(",
                    [
                        "first: request",
                        "fetch: { try await self.\(Emit.name(method.clientMethodName))(\(arguments.joined(separator: ", "))) }",
                        "next: { request, page in \(method.name).nextPageRequest(after: page, for: request) }",
                    ], ")")
            }
        }
    }

    /// The DocC symbol of a method, `name(_:session:)`, from its parameter declarations.
    private static func selector(_ name: String, parameters: [String]) -> String {
        let labels: [String] = parameters.map { (parameter: String) -> String in
            let label: Substring = parameter.prefix { $0 != ":" && $0 != " " }
            return label + ":"
        }
        return name + "(" + labels.joined() + ")"
    }

    /// `Request(parameters: .init(personIDCursor: cursor, numResults: request.parameters.numResults))`
    private func rebuild(_ type: IRType, steps: [IRPathStep], from base: String) -> String {
        guard case .property(let target)? = steps.first else { return base }
        let arguments = type.storedProperties.map { property -> String in
            let label = Emit.name(property.swiftName)
            guard property.swiftName == target.swiftName else { return "\(label): \(base).\(label)" }
            if steps.count == 1 { return "\(label): cursor" }
            guard let nested = family.typeTable.namedType(property.type) else { return "\(label): \(base).\(label)" }
            return "\(label): " + rebuild(nested, steps: Array(steps.dropFirst()), from: "\(base).\(label)")
        }
        return "\(type.qualifiedName)(\(arguments.joined(separator: ", ")))"
    }
}
