import Foundation
import HealthSignInCore

/// A sign-in token, decoded: what the app learns from it before exchanging it.
///
/// The token the backend hands over is Base64 of `{"public_key": …, "user_token": <JWT>}`. The JWT's claims name the
/// user (`uid`), the team (`claims.vital_team_id`) and, through the issuer
/// `id-signer-<env>-<region>@vital-id-<env>-<region>.iam.gserviceaccount.com`, the environment. The signature is the
/// auth server's to check; the SDK only reads the claims.
public struct VitalSignInToken: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The Vital user the token signs in.
    public let userID: UUID
    /// The team the user belongs to, when the token says.
    public let teamID: String?
    /// The environment (tier and region) that issued the token.
    public let environment: VitalEnvironment
    /// When the token stops being accepted, when it says.
    public let expiresAt: Date?
    /// The JWT exchanged at the auth host (never printed).
    let userToken: String

    /// Decodes `rawToken`.
    ///
    /// - Throws: ``VitalSessionError/invalidSignInToken(_:)`` saying what is wrong, never quoting the token.
    public init(_ rawToken: String) throws {
        do throws(SignInTokenProblem) {
            try self.init(decoding: rawToken.trimmingCharacters(in: .whitespacesAndNewlines))
        } catch {
            throw VitalSessionError.invalidSignInToken(error)
        }
    }

    private init(decoding rawToken: String) throws(SignInTokenProblem) {
        guard let outer = Base64URL.decode(rawToken) else { throw .notBase64 }
        let envelope = try Self.object(outer, else: .notJSONObject)
        guard envelope["public_key"] is String else { throw .missingField("public_key") }
        guard let userToken = envelope["user_token"] as? String else { throw .missingField("user_token") }

        let segments = userToken.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw .notCompactJWT(segmentCount: segments.count) }
        let header = try Self.object(Base64URL.decode(String(segments[0])), else: .undecodableJWTSegment("header"))
        let algorithm = header["alg"] as? String
        let type = header["typ"] as? String
        guard algorithm == "RS256", type == "JWT" else { throw .unsupportedJWTHeader(algorithm: algorithm, type: type) }
        let claims = try Self.object(Base64URL.decode(String(segments[1])), else: .undecodableJWTSegment("payload"))

        guard let issuer = claims["iss"] as? String else { throw .missingClaim("iss") }
        guard let uid = claims["uid"] as? String, let userID = UUID(uuidString: uid) else { throw .missingClaim("uid") }
        self.userID = userID
        self.teamID = (claims["claims"] as? [String: Any])?["vital_team_id"] as? String
        self.environment = try Self.environment(issuer: issuer)
        self.expiresAt = (claims["exp"] as? NSNumber).map { Date(timeIntervalSince1970: $0.doubleValue) }
        self.userToken = userToken
    }

    /// The JSON object in `data`, or `problem`.
    private static func object(_ data: Data?, else problem: SignInTokenProblem) throws(SignInTokenProblem) -> [String:
        Any]
    {
        guard let data, let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw problem
        }
        return object
    }

    /// The environment an issuer of the form `id-signer-<env>-<region>@vital-id-<a>-<b>.iam.gserviceaccount.com` names.
    static func environment(issuer: String) throws(SignInTokenProblem) -> VitalEnvironment {
        let parts = issuer.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].hasPrefix("id-signer-"), parts[1].hasPrefix("vital-id-"),
            parts[1].hasSuffix(".iam.gserviceaccount.com"),
            let signer = lowercasePair(parts[0].dropFirst("id-signer-".count)),
            lowercasePair(parts[1].dropFirst("vital-id-".count).dropLast(".iam.gserviceaccount.com".count)) != nil
        else { throw .unrecognizedIssuer(issuer) }
        guard let tier = VitalEnvironment.Tier(issuerName: signer.0) else { throw .unknownEnvironment(signer.0) }
        guard let region = VitalEnvironment.Region(rawValue: signer.1) else { throw .unknownEnvironment(signer.1) }
        return VitalEnvironment(tier, region)
    }

    /// `("prd", "us")` for `prd-us`: two runs of lowercase ASCII letters joined by one hyphen.
    private static func lowercasePair(_ text: Substring) -> (String, String)? {
        let halves = text.split(separator: "-", omittingEmptySubsequences: false)
        let isWord = { (word: Substring) in !word.isEmpty && word.allSatisfy { ("a"..."z").contains($0) } }
        guard halves.count == 2, isWord(halves[0]), isWord(halves[1]) else { return nil }
        return (String(halves[0]), String(halves[1]))
    }

    /// The user and environment; never the token.
    public var description: String {
        "VitalSignInToken(userID: \(userID.uuidString.lowercased()), environment: \(environment), token: \(Redaction.placeholder))"
    }

    /// A mirror without the token.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "userID": userID, "teamID": teamID as Any, "environment": environment, "expiresAt": expiresAt as Any,
                "userToken": Redaction.placeholder,
            ])
    }
}
