import Foundation
import HealthSignInCore
import HealthSignInOAuth

/// What the launch established: the granted scopes, the patient and other resources in context, how to present
/// the app, and who signed in.
public struct SMARTLaunchContext: Sendable, Hashable, Codable {
    /// A resource in context (`fhirContext`: an object since SMART 2.1, a reference string in 2.0).
    public struct Resource: Sendable, Hashable, Codable {
        /// A relative reference such as `Questionnaire/123`.
        public var reference: String?
        /// A canonical URL.
        public var canonical: String?
        /// The identifier's system and value, when the resource is named by identifier.
        public var identifier: Identifier?
        /// The resource type, when there is no reference.
        public var type: String?
        /// The role; nil means `launch`.
        public var role: String?

        /// Creates a resource reference.
        public init(
            reference: String? = nil, canonical: String? = nil, identifier: Identifier? = nil, type: String? = nil,
            role: String? = nil
        ) {
            self.reference = reference
            self.canonical = canonical
            self.identifier = identifier
            self.type = type
            self.role = role
        }
    }

    /// A FHIR Identifier.
    public struct Identifier: Sendable, Hashable, Codable {
        /// The namespace.
        public var system: String?
        /// The value.
        public var value: String?
    }

    /// The FHIR base URL the tokens are for.
    public var fhirBaseURL: URL
    /// The granted scopes, which may differ from the requested ones.
    public var grantedScopes: [String]
    /// The id of the patient in context.
    public var patient: String?
    /// The id of the encounter in context.
    public var encounter: String?
    /// Further resources in context.
    public var resources: [Resource]
    /// Whether the app must show a patient banner.
    public var needPatientBanner: Bool?
    /// The URL of the EHR's style document.
    public var smartStyleURL: String?
    /// What the app was launched to do.
    public var intent: String?
    /// The organisation the launch belongs to.
    public var tenant: String?
    /// The signed-in user's FHIR resource (`fhirUser` of the validated id token), absolute; nil when the id token
    /// names none, or one that is not a resource of the FHIR server (another origin, or outside its base URL).
    public var fhirUser: URL?
    /// The issuer of the validated id token (`iss`, which is the SMART configuration's `issuer`).
    public var issuer: String?
    /// The id token's subject (`sub`). A subject is unique only at its issuer: a user is the pair (``issuer``,
    /// ``subject``), and an app that keeps accounts keys them by both, never by `subject` or ``fhirUser`` alone
    /// (OpenID Connect Core §5.7).
    public var subject: String?
    /// Members of the token response this model does not name (extension context such as `__darkMode`). Printed or
    /// dumped, only their names show.
    public var extensions: [String: JSONValue]

    /// The patient as a URL on the FHIR server, `{base}/Patient/{id}`; nil when the id is not a FHIR id (one such
    /// as `..`, or with a `/`, would name another resource).
    public var patientURL: URL? {
        guard let patient, let path = try? ResourcePath.fhir("Patient", id: patient) else { return nil }
        return Self.url(of: path, on: fhirBaseURL)
    }

    /// `path` under `base`, each segment percent-encoded.
    static func url(of path: ResourcePath, on base: URL) -> URL? {
        let text = base.absoluteString
        return URL(string: (text.hasSuffix("/") ? String(text.dropLast()) : text) + "/" + path.percentEncoded)
    }

    /// The resource `reference` names on the FHIR server at `base`: a relative reference (`Practitioner/1`) under
    /// it, or an absolute URL under it; nil for one on another origin or outside the base URL, which does not name a
    /// resource of this server, and for one that is not a FHIR reference.
    static func resource(_ reference: String, on base: URL) -> URL? {
        let root = base.absoluteString.hasSuffix("/") ? base.absoluteString : base.absoluteString + "/"
        let relative = reference.hasPrefix(root) ? String(reference.dropFirst(root.count)) : reference
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let path = try? ResourcePath.fhir(parts[0], id: parts[1]) else { return nil }
        return url(of: path, on: base)
    }

    /// The context `response` gives, over `previous` (a refresh response may leave the context out).
    init(_ response: SMARTTokenResponse, previous: SMARTLaunchContext?, fhirBaseURL: URL) {
        self.fhirBaseURL = fhirBaseURL
        grantedScopes =
            response.scope.map { $0.split(separator: " ").map(String.init) } ?? previous?.grantedScopes ?? []
        patient = response.patient ?? previous?.patient
        encounter = response.encounter ?? previous?.encounter
        resources =
            response.fhirContext.isEmpty
            ? previous?.resources ?? []
            : response.fhirContext.map(Resource.init)
        needPatientBanner = response.needPatientBanner ?? previous?.needPatientBanner
        smartStyleURL = response.smartStyleURL ?? previous?.smartStyleURL
        intent = response.intent ?? previous?.intent
        tenant = response.tenant ?? previous?.tenant
        fhirUser = previous?.fhirUser
        issuer = previous?.issuer
        subject = previous?.subject
        extensions = (previous?.extensions ?? [:]).merging(response.additionalProperties) { _, new in new }
    }
}

extension SMARTLaunchContext: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The context and who signed in; of the extension members, only the names.
    public var description: String {
        Redaction.describe(
            "SMARTLaunchContext",
            [
                "fhirBaseURL": fhirBaseURL.absoluteString, "grantedScopes": grantedScopes.joined(separator: " "),
                "patient": Redaction.show(patient), "encounter": Redaction.show(encounter),
                "resources": "\(resources.count)", "needPatientBanner": Redaction.show(needPatientBanner),
                "smartStyleURL": Redaction.show(smartStyleURL), "intent": Redaction.show(intent),
                "tenant": Redaction.show(tenant), "fhirUser": Redaction.show(fhirUser?.absoluteString),
                "issuer": Redaction.show(issuer), "subject": Redaction.show(subject),
                "extensions": "\(extensions.keys.sorted())",
            ])
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows the same as ``description``.
    public var customMirror: Mirror { Mirror(self, children: ["context": description]) }
}

/// Where a SMART session stands.
public enum SMARTStatus: Sendable, Hashable {
    /// Not authorized: launch.
    case signedOut
    /// An authorization was started and waits for the browser's redirect.
    case awaitingRedirect
    /// Authorized, with the launch context and when the access token expires.
    case authorized(SMARTLaunchContext, accessTokenExpiresAt: Date?)
}

extension SMARTLaunchContext.Resource {
    /// The resource a `fhirContext` item names; a SMART 2.0 string is a reference.
    init(_ item: SMARTTokenResponse.FHIRContext) {
        switch item {
        case .string(let reference):
            self.init(reference: reference)
        case .fhirContextItem(let item):
            self.init(
                reference: item.reference, canonical: item.canonical,
                identifier: item.identifier.map { SMARTLaunchContext.Identifier(system: $0.system, value: $0.value) },
                type: item.type, role: item.role)
        }
    }
}
