// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal2

func koppeltaal2BackendExample(privateKey: JSONWebKey) throws {
    // snippet doc-koppeltaal2-backend-client
    let backend = Koppeltaal2BackendClient(configuration: .init(
        clientID: "7f1d0d3e-module", signer: try Koppeltaal2BackendClient.signer(key: privateKey),
        fhirBaseURL: URL(string: "https://fhir.koppeltaal.example/fhir/DEFAULT")!))
    let fhir = Koppeltaal2FHIRClient(backend: backend)
    // end snippet
    _ = fhir
}

func koppeltaal2FHIRExample(backend: Koppeltaal2BackendClient) async throws {
    // snippet doc-koppeltaal2-fhir-client
    let fhir = Koppeltaal2FHIRClient(backend: backend)
    for try await page in fhir.search(KT2Task.self, ["status": "ready"]) {
        for task in page.resources where task.resource.owner.reference == "Patient/123" {
            _ = try await fhir.update(task.resource.with(status: .inProgress), replacing: task)
        }
        for failure in page.failures { print("not read: \(failure)") }
    }
    // end snippet
}

func koppeltaal2PageExample(fhir: Koppeltaal2FHIRClient, show: (KT2Task) -> Void) async throws {
    // snippet doc-koppeltaal2-search-page
    for try await page in fhir.search(KT2Task.self, ["status": "ready"]) {
        for task in page.resources { show(task.resource) }
        for failure in page.failures { print("not read: \(failure)") }  // Task/t7: owner: …
    }
    // end snippet
}

func koppeltaal2ChangeExample(fhir: Koppeltaal2FHIRClient) async throws {
    // snippet doc-koppeltaal2-change
    let started = try await fhir.update(KT2Task.self, id: "t1") { $0.with(status: .inProgress) }
    // end snippet
    _ = started
}

func koppeltaal2SHOFExample(
    keyBytes: Data, backend: Koppeltaal2BackendClient, launch: HTILaunch, redirect: URL, cookie: inout String
) async throws {
    // snippet doc-koppeltaal2-shof-sealed
    let sealing = try CredentialSealing(keys: ["2026-11": keyBytes], current: "2026-11")
    let signIn = SHOFSignIn(backend: backend, redirectURI: "https://module.example/shof", requestSealing: sealing)
    let (url, pending) = try await signIn.start(launch)
    cookie = String(decoding: try JSONEncoder().encode(pending), as: UTF8.self)  // then redirect to `url`
    // ... the browser comes back:
    let kept = try JSONDecoder().decode(SHOFPendingAuthorization.self, from: Data(cookie.utf8))
    let user = try await signIn.finish(redirect, pending: kept)
    // end snippet
    _ = (url, user)
}

func koppeltaal2PortalKeysExample(fhirBase: URL) {
    // snippet doc-koppeltaal2-portal-keys
    let portals = HTIPortalKeys(jwksURLs: ["portal-1": URL(string: "https://portal.example/.well-known/jwks.json")!])
    let receiver = HTILaunchReceiver(configuration: .init(
        deviceReference: "Device/module-1", trustedFHIRBaseURL: fhirBase, verification: .portalKeys(portals)))
    // end snippet
    _ = receiver
}

func koppeltaal2EditExample(fhir: Koppeltaal2FHIRClient, current: KT2Versioned<KT2Task>) async throws {
    // snippet doc-koppeltaal2-edit
    var task = current.resource
    task.status = .inProgress
    task.owner = KT2Reference(reference: "Practitioner/7", type: "Practitioner")
    _ = try await fhir.update(task, replacing: current)
    // end snippet
}

func koppeltaal2KeySetExample(privateJWK: Data, newKey: JSONWebKey) throws {
    // snippet doc-koppeltaal2-key-set
    var keys = try Koppeltaal2KeySet(keys: [JSONWebKey(json: privateJWK)])
    try keys.rotate(to: newKey, overlap: 600)
    let body = keys.document()   // serve as application/json with Cache-Control: public, max-age=60
    // end snippet
    _ = body
}

func koppeltaal2LaunchExample(portalKey: JSONWebKey, endpointAddress: URL, fhirBase: URL) throws {
    // snippet doc-koppeltaal2-launch-composer
    let composer = try HTILaunchComposer(clientID: "portal-1", key: portalKey)
    let form = try composer.launch(
        HTILaunchContext(issuer: "portal-1", audience: "Device/module-1", subject: "Patient/p1", resource: "Task/t1"),
        to: endpointAddress, fhirBaseURL: fhirBase)
    let page = form.html   // serve as text/html: the browser posts launch, token and iss
    // end snippet
    _ = page
}

func koppeltaal2NotificationExample(secret: String, request: HTTPRequestMessage, fhir: Koppeltaal2FHIRClient)
    async throws
{
    // snippet doc-koppeltaal2-notification-receiver
    let receiver = KT2NotificationReceiver(header: "X-KTSubscription", value: secret)
    let trace = try receiver.accept(headers: request.headers, body: request.body ?? Data())
    for try await page in fhir.search(KT2Task.self, ["status": "completed"], trace: trace) { _ = page }
    // end snippet
}
