import Foundation
import HealthSignInSMART
import Hummingbird

/// The SMART Backend Services job: reads a patient and their observations as the backend service, with the service's
/// token from the shared store (requested when there is none or it is about to expire, once for every instance).
public struct ObservationSyncJob: Sendable {
    /// The client the job calls through.
    public let smart: SMARTBackendClient
    /// The patient.
    public let patientID: String

    /// Creates the job.
    public init(smart: SMARTBackendClient, patientID: String) {
        self.smart = smart
        self.patientID = patientID
    }

    /// What one run found.
    public struct Result: ResponseCodable, Equatable {
        /// The patient's id as the server has it.
        public let patient: String
        /// How many observations the search returned.
        public let observations: Int
    }

    /// Runs the job once.
    ///
    /// - Throws: the SDK's errors, which the router's `HealthSignInMiddleware` answers (503 for transient ones, 502
    ///   for the rest).
    public func run() async throws -> Result {
        let patient = try await smart.fhir(.fhir("Patient", id: patientID))
        var query = FormFields()
        query.append("patient", patientID)
        let search = try await smart.fhir(ResourcePath("Observation"), query: query)
        guard patient.isSuccess, search.isSuccess else {
            throw UnexpectedResponseError(operation: "observation sync", response: patient.isSuccess ? search : patient)
        }
        let read = try JSONDecoder().decode(Resource.self, from: patient.body)
        let bundle = try JSONDecoder().decode(Bundle.self, from: search.body)
        return Result(patient: read.id, observations: bundle.entry?.count ?? 0)
    }

    private struct Resource: Decodable { let id: String }
    private struct Bundle: Decodable {
        /// An entry holds its resource beside its `fullUrl` and `search`.
        struct Entry: Decodable { let resource: Resource }
        let entry: [Entry]?
    }
}
