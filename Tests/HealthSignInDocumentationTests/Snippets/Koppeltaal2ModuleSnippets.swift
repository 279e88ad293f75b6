// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInKoppeltaal2

// The code of the Koppeltaal 2.0 catalog's article on serving a module.

func koppeltaal2ModuleKey() throws {
    // snippet koppeltaal2-module-key
    // The private key whose public half the module's JWKS serves; keep the PEM out of the source tree.
    let pem = try String(contentsOfFile: "/etc/module/signing-key.pem", encoding: .utf8)
    let key = try JSONWebKey(pem: pem, keyID: "module-key-2026-11", algorithm: "RS512")
    let backend = Koppeltaal2BackendClient(configuration: .init(
        clientID: "7f1d0d3e-module", signer: try Koppeltaal2BackendClient.signer(key: key),
        fhirBaseURL: URL(string: "https://fhir.koppeltaal.example/fhir/DEFAULT")!,
        trustedHosts: ["auth-service.koppeltaal.example", "auth.koppeltaal.example:8443"]))
    // GET /.well-known/jwks.json: serve this with Content-Type application/json and Cache-Control max-age=60.
    let jwks = try Koppeltaal2KeySet(keys: [key]).document()
    // end snippet
    _ = (backend, jwks)
}

func koppeltaal2ModuleLaunch(backend: Koppeltaal2BackendClient) {
    // snippet koppeltaal2-module-launch
    // POST /launch: the form the portal's page posted; the sealing keys and the store are the same on every instance.
    func launched(_ form: FormFields, sealing: CredentialSealing, store: any CredentialStore) async throws
        -> (redirectTo: URL, cookie: String)
    {
        let receiver = HTILaunchReceiver(configuration: .init(
            deviceReference: "Device/7f1d0d3e", trustedFHIRBaseURL: backend.configuration.registration.baseURL,
            verification: .signIn, replayStore: CredentialStoreHTIReplayStore(store: store)))
        let launch = try await receiver.receive(form)
        let signIn = SHOFSignIn(backend: backend, redirectURI: "https://module.example/shof", requestSealing: sealing)
        let (url, pending) = try await signIn.start(launch)
        // Answer 303 to `url` with `Set-Cookie: shof=<cookie>; Secure; HttpOnly; SameSite=Lax`.
        return (url, String(decoding: try JSONEncoder().encode(pending), as: UTF8.self))
    }
    // end snippet
    _ = launched
}

func koppeltaal2ModuleCallback(signIn: SHOFSignIn) {
    // snippet koppeltaal2-module-callback
    // GET /shof?code=…&state=…: the URL the browser came back to, and the cookie set at the launch.
    func shofCallback(_ redirect: URL, cookie: String) async throws -> SHOFUser {
        let pending = try JSONDecoder().decode(SHOFPendingAuthorization.self, from: Data(cookie.utf8))
        // The page shows the user's task (`resource`) to `subject`, about `patient` when the user is not the patient.
        return try await signIn.finish(redirect, pending: pending)
    }
    // end snippet
    _ = shofCallback
}

func koppeltaal2ModuleNotification(backend: Koppeltaal2BackendClient) {
    // snippet koppeltaal2-module-notification
    let fhir = Koppeltaal2FHIRClient(backend: backend)
    // POST /notifications: `header` looks a field up by name in the framework's own type, e.g. Hummingbird's
    // `request.headers[HTTPField.Name($0)!]` or Vapor's `request.headers.first(name: $0)`.
    func notified(_ notifications: KT2NotificationReceiver, body: Data, header: (String) -> String?) async throws {
        let trace = try notifications.accept(body: body, header: header)
        for try await page in fhir.search(KT2Task.self, ["status": "completed"], trace: trace) { _ = page }
    }
    // end snippet
    _ = notified
}
