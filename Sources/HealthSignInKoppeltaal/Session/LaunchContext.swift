import Foundation
import HealthSignInCore
import HealthSignInOAuth

/// What a launch was for: who the patient and the acting user are, and which activity to open.
///
/// The token response carries it; refresh responses often leave it out, so it is kept from the first response and
/// updated only with fields a later response does send.
public struct LaunchContext: Sendable, Hashable, Codable {
    /// The absolute FHIR URL of the patient.
    public var patient: String?
    /// The absolute FHIR URL of the acting user (Patient, Practitioner or RelatedPerson).
    public var user: String?
    /// The launched activity: an id or a URL, treated as opaque.
    public var resource: String?
    /// The Koppeltaal domain.
    public var domain: String?
    /// The launch intent, when the portal gave one.
    public var intent: String?
    /// The granted scope, e.g. `patient/*.read`.
    public var scope: String?

    /// Creates a context.
    public init(
        patient: String? = nil, user: String? = nil, resource: String? = nil, domain: String? = nil,
        intent: String? = nil, scope: String? = nil
    ) {
        self.patient = patient
        self.user = user
        self.resource = resource
        self.domain = domain
        self.intent = intent
        self.scope = scope
    }

    /// This context with every field `response` carries replacing the one here.
    func updated(with response: KoppeltaalTokenResponse) -> LaunchContext {
        LaunchContext(
            patient: response.patient ?? patient, user: response.user ?? user, resource: response.resource ?? resource,
            domain: response.domain ?? domain, intent: response.intent ?? intent, scope: response.scope ?? scope
        )
    }
}

/// Where a session is.
public enum KoppeltaalStatus: Sendable, Hashable {
    /// No usable grant: the user must enter a new activation code.
    case needsActivation
    /// Activated; calls can be made. `accessTokenExpiresAt` is nil when the server gave no lifetime.
    case active(LaunchContext, accessTokenExpiresAt: Date?)
}
