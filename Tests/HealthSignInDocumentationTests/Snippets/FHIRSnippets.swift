// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
import HealthSignInCore
import HealthSignInFHIR
import HealthSignInSMART

// The code of the README's typed FHIR after a SMART launch, and of a backend's search.

func smartTypedFHIR(session: SMARTSession, browser: some AuthorizationBrowser) async throws {
    // snippet smart-typed-fhir
    let context = try await session.authorize(with: browser)
    guard let patientID = context.patient else { return }
    let fhir = FHIRClient(session)   // the grant's FHIR server and token, refreshed and replayed as needed
    let patient = try await fhir.read("Patient", id: patientID).model(as: Patient.self)
    let page = try await fhir.search("Observation", ["patient": patientID])   // an unreadable entry costs only itself
    let values = page.matches(of: FHIRObservation.self).compactMap { $0.valueQuantity?.value }
    print(patient?.name.first?.family ?? "?", values, page.unreadableEntries)
    // end snippet
}

func backendTypedSearch(backend: SMARTBackendClient) async throws {
    // snippet backend-typed-search
    let fhir = FHIRClient(backend)   // the configured FHIR base URL and the backend's token
    // Each next link is followed only on the grant's server and under its base path: the token goes with it.
    for try await page in fhir.pages("Observation", ["patient": "123", "_count": "50"]) {
        for observation in page.matches(of: FHIRObservation.self) { print(observation.id ?? "?") }
    }
    // end snippet
}
