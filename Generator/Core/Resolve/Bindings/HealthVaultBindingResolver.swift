/// The `healthvault` binding: HealthVault's XML envelope, its auth policies, and the values a signed request binds.
struct HealthVaultBindingResolver: BindingResolver {
    let family: IRFamilyBinding
    let statusError: String?
    private let settings: HealthVaultFamilySettings

    init(document: ProtocolDocument, settings: HealthVaultFamilySettings, diagnostics: inout Diagnostics) {
        self.settings = settings
        statusError = settings.statusError.value
        if !document.errors.contains(where: { $0.name == settings.statusError.value }) {
            diagnostics.error(
                "\"statusError\": \"\(settings.statusError.value)\" names no error format, expected one of \(document.errors.map { "\"\($0.name)\"" }.joined(separator: ", "))",
                at: settings.statusError.location, pointer: settings.statusError.pointer)
        }
        family = .healthvault(
            IRHealthVaultSettings(
                language: settings.language, country: settings.country, messageTTL: settings.messageTTL ?? 1800,
                clientVersion: settings.clientVersion ?? "HV-Swift/1.0", statusError: settings.statusError.value
            ))
    }

    var anyValueIsXML: Bool { true }

    func methodBinding(of document: MethodDocument, diagnostics: inout Diagnostics) -> IRMethodBinding? {
        switch document.binding {
        case .healthvault(let binding):
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
        case .http(let binding):
            diagnostics.error(
                "the method uses the http binding, expected healthvault like the rest of the family (protocol.json)",
                at: binding.location, pointer: binding.pointer)
            return nil
        }
    }

    func requestRules(for binding: IRMethodBinding) -> RequestRules {
        guard case .healthvault(let method) = binding else { return RequestRules(bindRestriction: "no bound values") }
        guard method.auth == .castSignature else {
            return RequestRules(
                bindRestriction:
                    "no bound values: auth \(method.auth.rawValue) provides none (castSignature provides applicationID and signingTime)"
            )
        }
        return RequestRules(
            allowedBinds: [.applicationID, .signingTime], canSign: true,
            bindRestriction:
                "applicationID or signingTime (castSignature provides those; signature only inside an element that \"signs\")"
        )
    }

    func codecUsage(of binding: IRMethodBinding) -> IRCodecUsage {
        IRCodecUsage(request: .xml, response: [.xml], requestHasFields: false)
    }

    /// The request and response describe the content of `<info>`, so each is an object.
    func check(_ method: IRMethod, document: MethodDocument, types: IRTypeTable, diagnostics: inout Diagnostics) {
        let messages: [(type: IRTypeName?, schema: SchemaNode?, word: String)] = [
            (method.request, document.request, "request"), (method.response, document.response, "response"),
        ]
        for (type, schema, word) in messages {
            guard let type, let schema, types.namedType(.named(type))?.isObject != true else { continue }
            diagnostics.error(
                "the \(word) of a healthvault method is not an object, expected an object describing the content of <info>",
                at: schema.location, pointer: schema.pointer)
        }
    }
}
