import Foundation
import HealthSignInCore

/// A portal's side of an HTI 2.0 launch: signs the launch token and builds the form the user's browser posts to the
/// module's Endpoint.
///
/// ```swift
/// let composer = try HTILaunchComposer(clientID: "portal-1", key: portalKey)
/// let form = try composer.launch(
///     HTILaunchContext(issuer: "portal-1", audience: "Device/module-1", subject: "Patient/p1", resource: "Task/t1"),
///     to: endpointAddress, fhirBaseURL: fhirBase)
/// let page = form.html   // serve as text/html: the browser posts launch, token and iss
/// ```
///
/// The token's header has `alg` and the key's `kid`; its claims are the context's and a fresh `jti`, `iat` and `exp`
/// at most five minutes later, as Koppeltaal 2.0 requires.
public struct HTILaunchComposer: Sendable {
    /// The portal's client id, the token's `iss`.
    public let clientID: String
    /// The algorithms HTI allows a launch token to be signed with.
    public static let algorithms: Set<JWSAlgorithm> = [.rs256, .rs384, .rs512, .es256, .es384, .es512]

    private let key: JSONWebKey
    private let algorithm: JWSAlgorithm
    private let lifetime: TimeInterval
    private let clock: any TimeSource
    private let random: any RandomSource

    /// A composer signing with `key`.
    ///
    /// - Parameters:
    ///   - clientID: the portal's client id.
    ///   - key: the portal's private key, with the `kid` its JWKS publishes.
    ///   - algorithm: RS512 by default (what the reference portal signs with); any HTI algorithm the key fits.
    ///   - lifetime: seconds from `iat` to `exp`, at most 300.
    ///   - clock: the time `iat` is.
    ///   - random: where each `jti` comes from.
    /// - Throws: `JOSEError` when the key is public, has no `kid` or does not fit the algorithm, or the lifetime is NaN
    ///   (`invalidTime`).
    public init(
        clientID: String, key: JSONWebKey, algorithm: JWSAlgorithm = .rs512, lifetime: TimeInterval = 300,
        clock: any TimeSource = SystemClock(), random: any RandomSource = SystemRandomSource()
    ) throws(JOSEError) {
        guard Self.algorithms.contains(algorithm) else { throw .algorithmNotAccepted(algorithm.rawValue) }
        guard key.isPrivate, algorithm.fits(key) else { throw .keyDoesNotFitAlgorithm(algorithm) }
        guard key.keyID != nil else { throw .invalidKey("it has no \"kid\", which a launch token's header needs") }
        guard !lifetime.isNaN else { throw .invalidTime("the launch token's lifetime is NaN") }
        self.clientID = clientID
        self.key = key
        self.algorithm = algorithm
        self.lifetime = min(max(lifetime, 1), HTILaunchReceiver.specifiedMaximumLifetime)
        self.clock = clock
        self.random = random
    }

    /// A signed launch token for `context` (whose issuer must be this portal).
    ///
    /// - Throws: ``HTILaunchError`` (``HTILaunchError/Code/malformedToken``) for a context of another issuer;
    ///   `JOSEError` when signing fails.
    public func token(for context: HTILaunchContext) throws -> String {
        guard context.issuer == clientID else {
            throw HTILaunchError(.malformedToken, "the context's issuer is not this portal's client id")
        }
        let now = Int(clock.now().timeIntervalSince1970.rounded(.down))
        var claims = context.claims
        claims["jti"] = .string(Base64URL.encode(random.bytes(count: 32)))
        claims["iat"] = .number(JSONNumber(now))
        claims["exp"] = .number(JSONNumber(now + Int(lifetime)))
        let header: JSONObject = ["alg": .string(algorithm.rawValue), "kid": .string(key.keyID ?? ""), "typ": "JWT"]
        return try JWS.sign(
            header: JSONValue.object(header).serialized(), payload: JSONValue.object(claims).serialized(), key: key,
            algorithm: algorithm)
    }

    /// The form that launches `context` at the module's Endpoint `address`, from the domain at `fhirBaseURL`.
    ///
    /// - Throws: ``HTILaunchError`` for an Endpoint address that is not https (loopback excepted, for tests), and
    ///   what ``token(for:)`` throws.
    public func launch(_ context: HTILaunchContext, to address: URL, fhirBaseURL: URL) throws -> HTILaunchForm {
        let scheme = address.scheme?.lowercased()
        let loopback = ["127.0.0.1", "localhost", "::1"].contains(address.host ?? "")
        guard scheme == "https" || (scheme == "http" && loopback) else {
            throw HTILaunchError(.malformedToken, "the Endpoint address is not https")
        }
        return HTILaunchForm(action: address, token: try token(for: context), fhirBaseURL: fhirBaseURL)
    }
}

/// The form a portal's page posts to the module: `application/x-www-form-urlencoded` with the launch token as
/// `launch` (the specification's name) and `token` (HTI:core's, which the reference portal also sends), and the
/// FHIR base URL as `iss`.
public struct HTILaunchForm: Sendable, CustomStringConvertible {
    /// Where the form goes: the module's Endpoint address.
    public let action: URL
    /// The fields, in the order sent.
    public let fields: FormFields

    init(action: URL, token: String, fhirBaseURL: URL) {
        self.action = action
        var fields = FormFields()
        fields.append("launch", token, sensitive: true)
        fields.append("token", token, sensitive: true)
        fields.append("iss", fhirBaseURL.absoluteString)
        self.fields = fields
    }

    /// The form as the browser posts it.
    public var body: Data { Data(fields.formEncoded.utf8) }

    /// A page that posts the form as soon as it loads (and offers a button where scripts are off).
    public var html: String {
        let inputs = fields.pairs.map { field in
            "<input type=\"hidden\" name=\"\(Self.escape(field.name))\" value=\"\(Self.escape(field.value))\">"
        }
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Launching</title></head>
            <body onload="document.forms[0].submit()">
            <form method="post" action="\(Self.escape(action.absoluteString))">
            \(inputs.joined(separator: "\n"))
            <noscript><button type="submit">Continue</button></noscript>
            </form>
            </body></html>
            """
    }

    /// Escapes text for an HTML attribute value.
    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// The action and field names; the token is redacted.
    public var description: String { "HTILaunchForm(POST \(action.absoluteString), \(fields))" }
}
