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
    let read = try await session.fhir(.fhir("Patient", id: patientID))   // refreshed and replayed as needed
    let patient = try FHIRJSON.decode(Patient.self, from: read.body)
    var query = FormFields()
    query.append("patient", patientID)
    let search = try await session.fhir(.fhir("Observation"), query: query)
    let page = try FHIRJSON.decode(FHIRSearchPage.self, from: search.body)   // an unreadable entry costs only itself
    let values = page.matches(of: FHIRObservation.self).compactMap { $0.valueQuantity?.value }
    print(patient.name.first?.family ?? "?", values, page.unreadableEntries)
    // end snippet
}

func backendTypedSearch(backend: SMARTBackendClient) async throws {
    // snippet backend-typed-search
    let fhir = FHIRAPIClient(configuration: .init(servers: .init(base: URL(string: "https://ehr.example.com/fhir")!)))
    var page: FHIRSearchPage? = try await backend.withAccessToken { token in
        try await fhir.search("Observation", ["patient": "123", "_count": "50"], token: token)
    }
    while let current = page {
        for observation in current.matches(of: FHIRObservation.self) { print(observation.id ?? "?") }
        // The next link is followed only on the base URL's origin and under its path: the token goes with it.
        page = try await backend.withAccessToken { try await fhir.page(after: current, token: $0) }
    }
    // end snippet
}
