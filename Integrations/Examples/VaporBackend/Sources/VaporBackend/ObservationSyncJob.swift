import Foundation
import HealthSignInCore
import HealthSignInOAuth
import HealthSignInSMART
import Vapor

/// The SMART Backend Services job: reads a patient and searches their observations as the backend service, with the
/// service's token (requested when there is none or it is about to expire).
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
    public struct Summary: Content, Equatable {
        /// The patient's id as the server has it.
        public let patient: String
        /// How many observations the search returned.
        public let observations: Int

        /// Creates a summary.
        public init(patient: String, observations: Int) {
            self.patient = patient
            self.observations = observations
        }
    }

    /// Runs the job once.
    ///
    /// - Throws: the SDK's errors: `UnexpectedResponseError` for an answer that is not the resource asked for, besides
    ///   what `SMARTBackendClient.fhir(_:method:query:)` throws.
    public func run() async throws -> Summary {
        let patient = try Self.decode(
            PatientResource.self, from: try await smart.fhir(.fhir("Patient", id: patientID)), operation: "ReadPatient")
        var query = FormFields()
        query.append("patient", patientID)
        let search = try Self.decode(
            SearchSet.self, from: try await smart.fhir(ResourcePath("Observation"), query: query),
            operation: "SearchObservation")
        return Summary(patient: patient.id, observations: search.entry?.count ?? 0)
    }

    /// The resource in `response`; a body that is not one is the upstream's failure, the SDK's error for it, which the
    /// middleware answers with a 502 (a `DecodingError` would be a 400, as if the caller had sent it).
    private static func decode<Resource: Decodable>(
        _ type: Resource.Type, from response: HTTPResponseMessage, operation: String
    ) throws -> Resource {
        do {
            return try JSONDecoder().decode(type, from: response.body)
        } catch {
            throw UnexpectedResponseError(
                operation: operation, response: response, reason: "the body is not the FHIR resource the job reads")
        }
    }

    private struct PatientResource: Decodable {
        let id: String
    }

    private struct SearchSet: Decodable {
        struct Entry: Decodable {}
        let entry: [Entry]?
    }
}
