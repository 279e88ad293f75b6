/// The `healthvault` binding: every method is a signed XML envelope posted to the platform URL, its parameters in
/// `<info>`, its result read from the response's `<info>`, and a non-zero status read as the family's status error.
struct HealthVaultBindingEmitter: BindingEmitter {
    let family: IRFamily
    let settings: IRHealthVaultSettings

    var xmlPrimitives: XMLPrimitiveStyle { .text }

    var configurationMembers: [ConfigurationMember] {
        let language = settings.language.map(SwiftLiteral.string) ?? "nil"
        let country = settings.country.map(SwiftLiteral.string) ?? "nil"
        let envelope =
            ".init(clientVersion: \(SwiftLiteral.string(settings.clientVersion)), language: \(language), "
            + "country: \(country), messageTTL: \(settings.messageTTL))"
        return [
            .init(
                doc: "The clock for `msg-time` and signing times.", name: "clock",
                type: "any HealthSignInCore.TimeSource",
                value: "HealthSignInCore.SystemClock()"),
            .init(
                doc: "What every request header carries.", name: "envelope",
                type: "HealthSignInCore.HealthVaultEnvelopeSettings",
                value: envelope),
            .init(
                doc: "Which reads are sent again after a temporary failure; none by default.", name: "retry",
                type: "HealthSignInCore.RequestRetryPolicy", value: ".none"),
        ]
    }

    /// `core`, whose status error reads the `<status>` element as the family's status error body.
    func clientSupport(into p: inout SwiftPrinter) {
        let statusBody = family.errors.first { $0.name == settings.statusError }?.body.swiftType ?? "Status"
        let server = family.servers.first.map { "configuration.servers." + Emit.name($0.name) } ?? "nil"
        p.doc("Signs and sends requests with the configuration.")
        p.block("var core: HealthSignInCore.HealthVaultClientCore") { p in
            p.call(
                "HealthSignInCore.HealthVaultClientCore(",
                [
                    "family: \(SwiftLiteral.string(family.name))", "server: \(server)",
                    "options: configuration.options",
                    "clock: configuration.clock", "envelope: configuration.envelope", "retry: configuration.retry",
                    "statusError: { try \(settings.statusError)(body: \(statusBody)(xml: $0), httpStatus: $1, operation: $2) }",
                ], ")")
        }
    }

    func summary(of method: IRMethod) -> String {
        guard case .healthvault(let binding) = method.binding else { return "" }
        let auth: String
        switch binding.auth {
        case .appId: auth = "anonymous, identified by an application id"
        case .castSignature: auth = "anonymous, signed with the application shared secret"
        case .session: auth = "signed with a session"
        }
        return
            "HealthVault method `\(binding.method)` version \(binding.version), \(auth)\(binding.recordScoped ? ", for one record" : "")."
    }

    func credentialParameters(of method: IRMethod) -> [MethodParameter] {
        guard case .healthvault(let binding) = method.binding else { return [] }
        var parameters: [MethodParameter] = []
        if binding.recordScoped {
            parameters.append(.init(label: "recordID", type: "Foundation.UUID", doc: "The record the method acts on."))
        }
        switch binding.auth {
        case .appId:
            parameters.append(
                .init(
                    label: "applicationID", type: "Foundation.UUID",
                    doc: "The application id for the header (the master application for provisioning calls)."
                ))
        case .castSignature:
            parameters.append(
                .init(
                    label: "application", type: "HealthSignInCore.HealthVaultApplicationCredential",
                    doc: "The application instance's id and shared secret, which sign the request."
                ))
        case .session:
            parameters.append(
                .init(
                    label: "session", type: "HealthSignInCore.HealthVaultSessionCredential",
                    doc: "The session that signs the request."))
        }
        return parameters
    }

    func errorSummary(of method: IRMethod) -> String {
        "``\(settings.statusError)`` for a non-zero status; otherwise `UnexpectedResponseError`, `ResponseDecodingError` or `TransportError`."
    }

    func body(of method: IRMethod, into p: inout SwiftPrinter) {
        guard case .healthvault(let binding) = method.binding else { return }
        var context = ".empty"
        var time: [String] = []
        let auth: String
        switch binding.auth {
        case .appId:
            auth = ".applicationID(applicationID)"
        case .castSignature:
            // The signature covers a signing time, which the envelope's `msg-time` repeats.
            p.line("let now = configuration.clock.now()")
            p.line("let context = try application.castSignatureContext(signingTime: now)")
            context = "context"
            time = ["messageTime: now"]
            auth = ".applicationID(application.applicationID)"
        case .session:
            auth = ".session(session)"
        }
        let requestType = family.requestType(of: method)
        let info =
            requestType.map { ".info(\($0.isFixed ? "\(method.name).Request()" : "request"), context: \(context))" }
            ?? ".emptyInfo"
        var arguments = ["method: \(SwiftLiteral.string(binding.method))", "version: \(binding.version)"]
        if binding.recordScoped { arguments.append("recordID: recordID") }
        arguments += ["auth: \(auth)"] + time + ["info: \(info)"]
        if binding.idempotent { arguments.append("idempotent: true") }
        guard method.response != nil else {
            p.call("_ = try await core.send(", arguments, ")")
            return
        }
        let response = ["\(method.name).Response.self", "namespace: \(SwiftLiteral.string(binding.responseNamespace))"]
        p.call("return try await core.send(", response + arguments, ")")
    }

    func methodSupport(of method: IRMethod, into p: inout SwiftPrinter) {}
}
