import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal2
import HealthSignInOAuth

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Koppeltaal 2.0, server to server: the module's backend token, a task found by search, the portal's HTI launch,
/// the module's SHOF sign-in of the launched user, the task's update with `If-Match`, and the conflict a stale copy
/// meets.
struct Koppeltaal2Journey {
    let options: DemoOptions

    func run(_ steps: StepPrinter) async {
        steps.journey("Koppeltaal 2.0")
        guard let fhirBase = options.koppeltaal2FHIR, let module = options.koppeltaal2Module,
            let portal = options.koppeltaal2Portal, !options.koppeltaal2Redirect.isEmpty
        else {
            return say(
                "  – skipped: set --koppeltaal2-fhir, --koppeltaal2-module(-key), --koppeltaal2-portal(-key) and "
                    + "--koppeltaal2-redirect (or --emulator)")
        }
        let clientOptions = ClientOptions(
            transport: DefaultHTTPTransport(),
            urlPolicy: URLPolicy(allowsInsecureLoopback: options.allowsInsecureLoopback))
        guard
            let (backend, portalBackend, portalKey) = await steps.step(
                "applications",
                {
                    let moduleKey = try JSONWebKey(json: Data(module.key.utf8))
                    let portalKey = try JSONWebKey(json: Data(portal.key.utf8))
                    if let emulator = options.emulator {
                        try await Self.register(
                            module.clientID, key: moduleKey, at: emulator, redirect: options.koppeltaal2Redirect)
                        try await Self.register(portal.clientID, key: portalKey, at: emulator, redirect: nil)
                        try await Self.putPatient(options.koppeltaal2Patient, at: emulator)
                    }
                    func backend(_ clientID: String, _ key: JSONWebKey) throws -> Koppeltaal2BackendClient {
                        let algorithm: JWSAlgorithm = key.keyType == .rsa ? .rs512 : .es384  // the domain's set
                        return Koppeltaal2BackendClient(
                            configuration: .init(
                                clientID: clientID,
                                signer: try Koppeltaal2BackendClient.signer(key: key, algorithm: algorithm),
                                fhirBaseURL: fhirBase, options: clientOptions))
                    }
                    return (
                        (try backend(module.clientID, moduleKey), try backend(portal.clientID, portalKey), portalKey),
                        "module \(module.clientID), portal \(portal.clientID)"
                            + (options.emulator == nil ? "" : " (registered with the emulator)")
                    )
                })
        else { return }
        await steps.step("backend token") {
            let token = try await backend.token()
            return "private_key_jwt accepted; expires \(DateTimeText.format(token.expiresAt))"
        }
        let fhir = Koppeltaal2FHIRClient(backend: backend)
        guard
            let task = await steps.step(
                "task search",
                {
                    let portalFHIR = Koppeltaal2FHIRClient(backend: portalBackend)
                    _ = try await portalFHIR.create(Self.demoTask(for: options.koppeltaal2Patient))
                    var found: [KT2Versioned<KT2Task>] = []
                    for try await page in fhir.search(KT2Task.self, ["status": "ready"]) { found += page.resources }
                    let task = try found.last.orThrow("no ready task was found")
                    return (task, "\(found.count) ready; Task/\(task.resource.id ?? "") version \(task.versionID)")
                })
        else { return }
        guard
            let launch = await steps.step(
                "HTI launch",
                {
                    let context = HTILaunchContext(
                        issuer: portal.clientID, audience: "Device/\(module.clientID)",
                        subject: options.koppeltaal2Patient, resource: "Task/\(task.resource.id ?? "")")
                    let form = try HTILaunchComposer(
                        clientID: portal.clientID, key: portalKey,
                        algorithm: portalKey.keyType == .rsa ? .rs512 : .es384
                    ).launch(
                        context, to: try URL(string: "https://module.example/launch").orThrow("URL"),
                        fhirBaseURL: fhirBase)
                    let receiver = HTILaunchReceiver(
                        configuration: .init(
                            deviceReference: "Device/\(module.clientID)", trustedFHIRBaseURL: fhirBase,
                            verification: .signIn))
                    let launch = try await receiver.receive(form.fields)
                    return (launch, "posted launch, token and iss; accepted, jti \(launch.id)")
                })
        else { return }
        await steps.step("SHOF sign-in") {
            let signIn = SHOFSignIn(
                backend: backend, redirectURI: options.koppeltaal2Redirect,
                requestSealing: try CredentialSealing(
                    keys: ["demo": Data(SystemRandomSource().bytes(count: 32))], current: "demo"))
            let (url, pending) = try await signIn.start(launch)
            let callback = try AuthorizationCallback(redirectURI: options.koppeltaal2Redirect).orThrow("redirect URI")
            let redirect = try await options.shell.browser(transport: clientOptions.transport).authorize(
                url, callback: callback)
            let user = try await signIn.finish(redirect, pending: pending)
            return "\(user.subject) for \(user.resource); id token verified, NOOP dropped"
        }
        guard
            let started = await steps.step(
                "FHIR update",
                {
                    let started = try await fhir.update(task.resource.with(status: .inProgress), replacing: task)
                    return (started, "in-progress with If-Match \(task.eTag); now version \(started.versionID)")
                })
        else { return }
        await steps.step("conflict") {
            do {
                _ = try await fhir.update(task.resource.with(status: .completed), replacing: task)
                throw DemoError("a stale If-Match was accepted")
            } catch let conflict as KT2UpdateConflict {
                let current = conflict.current(as: KT2Task.self)
                guard current == started else { throw DemoError("the conflict did not carry the current version") }
                return "HTTP \(conflict.httpStatus) for \(conflict.sentETag); current version \(started.versionID)"
            }
        }
    }

    private static func demoTask(for patient: String) -> KT2Task {
        KT2Task(
            meta: KT2Meta(profile: ["http://koppeltaal.nl/fhir/StructureDefinition/KT2Task"]),
            identifier: [KT2Identifier(system: "urn:demo:task", value: UUID().uuidString.lowercased())],
            status: .ready, intent: "order", for: KT2Reference(reference: patient, type: "Patient"),
            owner: KT2Reference(reference: patient, type: "Patient"))
    }

    /// Registers an application with the emulator as a domain admin would, its JWKS hosted by the emulator.
    private static func register(_ clientID: String, key: JSONWebKey, at emulator: URL, redirect: String?) async throws
    {
        let jwks = try JSONSerialization.jsonObject(with: try Koppeltaal2KeySet(keys: [key]).document())
        let hosted = try await EmulatorControl.post(emulator, "koppeltaal2/jwks", ["name": clientID, "jwks": jwks])
        var app: [String: Any] = ["client_id": clientID, "jwks_url": hosted["jwks_url"] ?? "", "role": "admin"]
        if let redirect { app["redirect_uris"] = [redirect] }
        try await EmulatorControl.post(emulator, "koppeltaal2/apps", app)
    }

    /// The launched patient, with the identifier the emulator's identity provider signs them in by.
    private static func putPatient(_ reference: String, at emulator: URL) async throws {
        let id = String(reference.split(separator: "/").last ?? "")
        let patient: [String: Any] = [
            "resourceType": "Patient", "id": id,
            "identifier": [["system": "urn:demo:email", "value": "\(id)@example.org"]],
        ]
        try await EmulatorControl.post(emulator, "koppeltaal2/resources", ["resource": patient])
    }

}

extension Optional {
    /// The value, or a ``DemoError`` saying what was missing.
    fileprivate func orThrow(_ missing: String) throws -> Wrapped {
        guard let self else { throw DemoError(missing) }
        return self
    }
}
