import Foundation
import HealthSignInCore

/// The tokens of an OAuth 2.0 grant, as stored: what a token response gave, with the expiry counted from when it
/// arrived. A refresh response replaces what it carries and keeps the rest.
///
/// Printed, dumped or logged, the tokens and the members the layer does not name are `<redacted>`.
public struct OAuthGrant: Sendable, Equatable, Codable {
    /// The access token.
    public var accessToken: String
    /// The refresh token, when the grant has one.
    public var refreshToken: String?
    /// When the access token expires, counted from receipt; nil when the server did not say.
    public var expiresAt: Date?
    /// The granted scopes, space-separated, when the server said.
    public var scope: String?
    /// The token type the server named (`Bearer`).
    public var tokenType: String?
    /// The OpenID Connect id token of the grant, once it was validated.
    public var idToken: String?
    /// An id token that arrived and is still to be checked (its key set could not be read then); the grant is not
    /// used until the check finishes.
    public var idTokenCheck: IDTokenCheck?
    /// Members of the token responses the layer does not name, such as a protocol's launch context; a later
    /// response's members replace earlier ones of the same name.
    public var members: [String: JSONValue]

    /// Creates a grant.
    public init(
        accessToken: String, refreshToken: String? = nil, expiresAt: Date? = nil, scope: String? = nil,
        tokenType: String? = nil, idToken: String? = nil, members: [String: JSONValue] = [:]
    ) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.expiresAt = expiresAt
        self.scope = scope
        self.tokenType = tokenType
        self.idToken = idToken
        self.members = members
    }

    /// The grant `response` gives when it arrives at `receivedAt`, keeping from `previous` what a refresh response
    /// leaves out: a refresh token that is not rotated, the scope and the members it does not send. The id token is
    /// the previous one: a family sets ``idToken`` once it has validated the response's.
    ///
    /// - Parameters:
    ///   - response: the token response.
    ///   - previous: the grant a refresh response renews, if any.
    ///   - receivedAt: when the response arrived, from which its lifetime counts.
    ///   - requiresTokenType: whether `token_type` must be present (RFC 6749 §5.1 requires it; a protocol whose
    ///     server leaves it out says so). When present it must be `Bearer`, in any case.
    /// - Throws: ``TokenResponseError`` for an empty access token, a token type other than Bearer, or a negative
    ///   lifetime.
    public init(
        _ response: TokenResponse, previous: OAuthGrant? = nil, receivedAt: Date, requiresTokenType: Bool = true
    ) throws {
        guard !response.accessToken.isEmpty else { throw TokenResponseError("access_token is empty") }
        switch response.tokenType {
        case let type? where type.caseInsensitiveCompare("bearer") != .orderedSame:
            throw TokenResponseError("token_type is \"\(type)\", expected Bearer")
        case nil where requiresTokenType: throw TokenResponseError("token_type is missing, expected Bearer")
        default: break
        }
        if let lifetime = response.expiresIn, lifetime < 0 { throw TokenResponseError("expires_in is negative") }
        self.init(
            accessToken: response.accessToken, refreshToken: response.refreshToken ?? previous?.refreshToken,
            expiresAt: response.expiresIn.map { receivedAt.addingTimeInterval(TimeInterval($0)) },
            scope: response.scope ?? previous?.scope, tokenType: response.tokenType ?? previous?.tokenType,
            idToken: previous?.idToken,
            members: (previous?.members ?? [:]).merging(response.additionalProperties) { _, new in new })
    }

    /// The access token, for an `Authorization: Bearer` header.
    public var bearer: BearerToken { BearerToken(accessToken) }

    /// The granted scopes, one by one.
    public var scopes: [String] { scope.map { $0.split(separator: " ").map(String.init) } ?? [] }

    private enum CodingKeys: String, CodingKey {
        case accessToken, refreshToken, expiresAt, scope, tokenType, idToken, idTokenCheck, members
    }

    /// Reads a stored grant; one stored before the scope, token type, id token and members were kept reads
    /// without them.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        accessToken = try container.decode(String.self, forKey: .accessToken)
        refreshToken = try container.decodeIfPresent(String.self, forKey: .refreshToken)
        expiresAt = try container.decodeIfPresent(Date.self, forKey: .expiresAt)
        scope = try container.decodeIfPresent(String.self, forKey: .scope)
        tokenType = try container.decodeIfPresent(String.self, forKey: .tokenType)
        idToken = try container.decodeIfPresent(String.self, forKey: .idToken)
        idTokenCheck = try container.decodeIfPresent(IDTokenCheck.self, forKey: .idTokenCheck)
        members = try container.decodeIfPresent([String: JSONValue].self, forKey: .members) ?? [:]
    }

    /// Writes the grant; members and fields it does not have are left out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(accessToken, forKey: .accessToken)
        try container.encodeIfPresent(refreshToken, forKey: .refreshToken)
        try container.encodeIfPresent(expiresAt, forKey: .expiresAt)
        try container.encodeIfPresent(scope, forKey: .scope)
        try container.encodeIfPresent(tokenType, forKey: .tokenType)
        try container.encodeIfPresent(idToken, forKey: .idToken)
        try container.encodeIfPresent(idTokenCheck, forKey: .idTokenCheck)
        if !members.isEmpty { try container.encode(members, forKey: .members) }
    }
}

extension OAuthGrant: CustomStringConvertible, CustomReflectable {
    /// The expiry, scope and the names of the other members; the tokens and the members' values are redacted.
    public var description: String {
        "OAuthGrant(accessToken: \(Redaction.placeholder), refreshToken: \(Redaction.hide(refreshToken)), "
            + "expiresAt: \(Redaction.show(expiresAt)), scope: \(Redaction.show(scope)), "
            + "idToken: \(Redaction.hide(idToken)), idTokenCheck: \(Redaction.hide(idTokenCheck?.token)), "
            + "members: \(members.keys.sorted()))"
    }

    /// A mirror that shows the same as ``description``.
    public var customMirror: Mirror { Mirror(self, children: ["grant": description]) }
}

/// A token response the layer cannot make a grant of; the reason says why, never with a token.
public struct TokenResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the response.
    public let reason: String

    /// Creates an error.
    public init(_ reason: String) { self.reason = reason }

    /// `The token response cannot be used: <reason>`.
    public var description: String { "The token response cannot be used: \(reason)" }
}

extension TokenResponseError: SDKError {
    /// `ErrorRecovery.none`: the server answered something no retry or sign-in fixes.
    public var recovery: ErrorRecovery { .none }
}
