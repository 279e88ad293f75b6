import Foundation
import HealthSignInCore

/// What an HTI 2.0 launch says (Koppeltaal 2.0 topic 7, HTI:core 2.0): who launches which task of which module.
public struct HTILaunchContext: Sendable, Hashable, Codable {
    /// `iss`: the launching portal's client id.
    public var issuer: String
    /// `aud`: the launched module's Device, `Device/<id>` (from the ActivityDefinition's `resource-origin`).
    public var audience: String
    /// `sub`: the launching user, `Patient/…`, `Practitioner/…` or `RelatedPerson/…`.
    public var subject: String
    /// `resource`: the task, `Task/<id>`.
    public var resource: String
    /// `definition`: the task's ActivityDefinition, when given.
    public var definition: String?
    /// `patient`: the patient, when the user is not the patient.
    public var patient: String?
    /// `intent`: a FHIR RequestIntent code such as `plan`, when given.
    public var intent: String?
    /// `idp_hint`: the identity provider the auth server should send the user to, for SHOF.
    public var identityProviderHint: String?

    /// A launch context.
    public init(
        issuer: String, audience: String, subject: String, resource: String, definition: String? = nil,
        patient: String? = nil, intent: String? = nil, identityProviderHint: String? = nil
    ) {
        self.issuer = issuer
        self.audience = audience
        self.subject = subject
        self.resource = resource
        self.definition = definition
        self.patient = patient
        self.intent = intent
        self.identityProviderHint = identityProviderHint
    }

    /// The claims, beside `jti`, `iat` and `exp`.
    var claims: JSONObject {
        var claims: JSONObject = [
            "iss": .string(issuer), "aud": .string(audience), "sub": .string(subject), "resource": .string(resource),
        ]
        let optional: [(String, String?)] = [
            ("definition", definition), ("patient", patient), ("intent", intent), ("idp_hint", identityProviderHint),
        ]
        for (name, value) in optional { if let value { claims[name] = .string(value) } }
        return claims
    }

    /// The context of a token's claims.
    ///
    /// - Throws: ``HTILaunchError`` (``HTILaunchError/Code/malformedToken``) when a required claim is missing.
    init(claims: JSONObject) throws(HTILaunchError) {
        func required(_ name: String) throws(HTILaunchError) -> String {
            guard let value = claims[name]?.stringValue, !value.isEmpty else {
                throw HTILaunchError(.malformedToken, "the launch token has no \"\(name)\"")
            }
            return value
        }
        self.init(
            issuer: try required("iss"), audience: try required("aud"), subject: try required("sub"),
            resource: try required("resource"), definition: claims["definition"]?.stringValue,
            patient: claims["patient"]?.stringValue, intent: claims["intent"]?.stringValue,
            identityProviderHint: claims["idp_hint"]?.stringValue)
    }
}

/// A launch a module received and accepted: its context, the token's id and lifetime, and the token itself, which
/// SHOF passes on as `launch` (it is never printed).
public struct HTILaunch: Sendable, CustomStringConvertible, CustomReflectable {
    /// Who launches which task.
    public let context: HTILaunchContext
    /// `jti`, used once.
    public let id: String
    /// `iat`.
    public let issuedAt: Date
    /// `exp`.
    public let expiresAt: Date
    /// The FHIR base URL the launch came with (`iss` of the form), which the module trusts.
    public let fhirBaseURL: URL
    /// The compact JWS as received.
    public let token: String

    /// The context and times; the token is redacted.
    public var description: String {
        "HTILaunch(\(context.resource) for \(context.subject) from \(context.issuer), jti: \(id), "
            + "exp: \(DateTimeText.format(expiresAt)), token: \(Redaction.placeholder))"
    }

    /// A mirror that shows the same as the description: the token is redacted.
    public var customMirror: Mirror { Mirror(self, children: ["launch": description]) }
}

/// Why a launch was refused.
public struct HTILaunchError: SDKError, Hashable {
    /// What was wrong.
    public enum Code: String, Sendable, Hashable {
        /// The form has no `launch` (nor `token`) field, or no `iss`.
        case missingField
        /// The form's `iss` is not the FHIR base URL the module trusts.
        case untrustedFHIRServer
        /// The token is not a compact JWS with the claims HTI requires.
        case malformedToken
        /// The token is signed with an algorithm HTI does not allow (`none`, HMAC) or this receiver does not take.
        case algorithmNotAccepted
        /// No key of the issuer verifies it: an unknown portal, an unknown `kid`, or a bad signature.
        case invalidSignature
        /// `aud` is not this module's Device.
        case wrongAudience
        /// `exp` has passed.
        case expired
        /// `exp` is further after `iat` than the receiver accepts.
        case lifetimeTooLong
        /// `iat` is in the future.
        case issuedInTheFuture
        /// The `jti` was used before.
        case replayed
        /// The auth server's introspection says the token is not active.
        case inactive
    }

    /// What was wrong.
    public let code: Code
    /// The details.
    public let detail: String

    /// An error of `code` with its details.
    public init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The launch cannot be used; the portal has to launch again.
    public var recovery: ErrorRecovery { .reauthorize }

    /// `HTI launch refused (code): detail`.
    public var description: String { "HTI launch refused (\(code.rawValue)): \(detail)" }
}
