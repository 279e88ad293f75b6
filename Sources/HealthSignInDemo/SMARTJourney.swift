import Foundation
import HealthSignInCore
import HealthSignInFHIR
import HealthSignInOAuth
import HealthSignInSMART

/// SMART App Launch: a standalone launch with PKCE and OpenID Connect, a FHIR read and search read into the typed
/// models, revocation; then a backend service's client_credentials token and call.
struct SMARTJourney {
    let options: DemoOptions

    func run(_ steps: StepPrinter) async {
        steps.journey("SMART App Launch")
        guard let fhir = options.smartFHIR, !options.smartClientID.isEmpty, !options.smartRedirect.isEmpty else {
            return say("  – skipped: set --smart-fhir, --smart-client and --smart-redirect (or --emulator)")
        }
        let policy = URLPolicy(allowsInsecureLoopback: options.allowsInsecureLoopback)
        let transport = DefaultHTTPTransport()
        let session = SMARTSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: fhir, client: OAuthClientCredentials(clientID: options.smartClientID),
                    redirectURI: options.smartRedirect),
                scope: options.smartScope, authorization: AuthorizationParameters(prompt: options.smartPrompt),
                openID: OpenIDPolicy(algorithms: options.smartIDTokenAlgorithms),
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(transport: transport, urlPolicy: policy))))

        await steps.step("discover") {
            let endpoints = try await session.discover()
            return "token endpoint \(Redaction.url(endpoints.token)); \(endpoints.capabilities.count) capabilities"
        }
        guard
            let context = await steps.step(
                "authorize",
                {
                    let context: SMARTLaunchContext
                    do {
                        context = try await session.authorize(with: options.shell.browser(transport: transport))
                    } catch let error as AuthorizationBrowserError {
                        // The page refused the registration itself: say which one the demo used.
                        throw DemoError(
                            "\(error) (client id \(options.smartClientID), redirect URI \(options.smartRedirect))")
                    }
                    return (
                        context,
                        "patient \(context.patient ?? "none"), user \(context.fhirUser?.absoluteString ?? "none"); "
                            + "id token verified"
                    )
                })
        else { return }
        if let patient = context.patient {
            await steps.step("FHIR read") {
                let read = try await FHIRClient(session).read("Patient", id: patient).model(as: Patient.self)
                let names = read?.name.compactMap { $0.family }.joined(separator: ", ") ?? ""
                return "Patient/\(patient) with FHIRClient: a Patient named \(names.isEmpty ? "nothing" : names)"
            }
            if Self.readsObservations(options.smartScope, as: "patient") {
                await searchObservations(of: patient, session: session, steps)
            } else {
                say("  – FHIR search skipped: the scope \(options.smartScope) reads no Observations")
            }
        }
        await steps.step("revoke") {
            let outcome = try await session.revoke()
            return "\(outcome); status \(try await session.status())"
        }
        await backend(fhir: fhir, policy: policy, patient: context.patient, steps)
    }

    /// Whether `scope` lets a client in `context` (`patient`, `system`) read Observations (`patient/*.rs`,
    /// `system/Observation.read`, …).
    private static func readsObservations(_ scope: String, as context: String) -> Bool {
        scope.split(separator: " ").contains { item in
            item.hasPrefix("\(context)/*.") || item.hasPrefix("\(context)/Observation.")
        }
    }

    /// The first page of the patient's Observations, two to a page, read into typed models.
    private func searchObservations(of patient: String, session: SMARTSession, _ steps: StepPrinter) async {
        await steps.step("FHIR search") {
            let page = try await FHIRClient(session).search("Observation", ["patient": patient, "_count": "2"])
            let values = page.matches(of: FHIRObservation.self).map { observation in
                let value = observation.valueQuantity.map { "\($0.value?.text ?? "?") \($0.unit ?? "")" } ?? "no value"
                return "\(observation.code.coding.first?.display ?? "?") \(value)"
            }
            return "Observation?patient=\(patient)&_count=2: a page of \(values.count) of "
                + "\(page.total.map(String.init) ?? "?") Observations (\(values.joined(separator: ", ")))"
                + (page.next == nil ? "" : ", and a next page")
        }
    }

    private func backend(fhir: URL, policy: URLPolicy, patient: String?, _ steps: StepPrinter) async {
        guard let clientID = options.smartBackendClientID, let key = options.smartBackendKey else {
            return say("  – backend skipped: set --smart-backend-client and --smart-backend-key")
        }
        guard
            let backend = await steps.step(
                "backend token",
                {
                    let key = try JSONWebKey(json: Data(key.utf8))
                    let algorithm: JWSAlgorithm = key.keyType == .rsa ? .rs384 : .es384
                    let backend = SMARTBackendClient(
                        configuration: .init(
                            clientID: clientID, signer: try ClientAssertionSigner(key: key, algorithm: algorithm),
                            scope: options.smartBackendScope, fhirBaseURL: fhir,
                            options: ClientOptions(urlPolicy: policy)))
                    let token = try await backend.token()
                    return (backend, "\(algorithm.rawValue) assertion accepted; scope \(token.scope)")
                })
        else { return }
        await steps.step("backend call") {
            let response = try await backend.fhir(.fhir("Patient", id: patient))
            return "Patient/\(patient ?? ""): HTTP \(response.status) with the cached token"
        }
        guard let patient else { return }
        guard Self.readsObservations(options.smartBackendScope, as: "system") else {
            return say("  – backend search skipped: the scope \(options.smartBackendScope) reads no Observations")
        }
        await steps.step("backend search") {
            var (pages, observations) = (0, 0)
            for try await page in FHIRClient(backend).pages("Observation", ["patient": patient, "_count": "2"]) {
                (pages, observations) = (pages + 1, observations + page.matches(of: FHIRObservation.self).count)
            }
            return "Observation?patient=\(patient)&_count=2 with FHIRClient: \(observations) typed Observations "
                + "over \(pages) pages"
        }
    }
}
