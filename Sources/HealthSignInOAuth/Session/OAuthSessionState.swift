import Foundation
import HealthSignInCore

/// What an OAuth session keeps under its store key: the grant, and an authorization waiting for its redirect.
public struct OAuthSessionState<Context: Codable & Sendable & Equatable>: Sendable, Equatable, Codable {
    /// The grant, once authorized.
    public var grant: OAuthSessionGrant<Context>?
    /// An authorization request waiting for its redirect.
    public var pending: PendingAuthorization?

    /// Creates a state.
    public init(grant: OAuthSessionGrant<Context>? = nil, pending: PendingAuthorization? = nil) {
        self.grant = grant
        self.pending = pending
    }
}

/// A grant's tokens with what the family keeps beside them.
///
/// Stored as one object: the tokens' members, and `context`.
public struct OAuthSessionGrant<Context: Codable & Sendable & Equatable>: Sendable, Equatable, Codable {
    /// The tokens.
    public var tokens: OAuthGrant
    /// What the family keeps beside them, such as its launch context.
    public var context: Context

    /// Creates a grant.
    public init(tokens: OAuthGrant, context: Context) {
        self.tokens = tokens
        self.context = context
    }

    private enum CodingKeys: String, CodingKey { case context }

    /// Reads the tokens' members and `context` from one object.
    public init(from decoder: any Decoder) throws {
        tokens = try OAuthGrant(from: decoder)
        context = try decoder.container(keyedBy: CodingKeys.self).decode(Context.self, forKey: .context)
    }

    /// Writes the tokens' members and `context` into one object.
    public func encode(to encoder: any Encoder) throws {
        try tokens.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(context, forKey: .context)
    }
}

extension OAuthSessionGrant: CustomStringConvertible, CustomReflectable {
    /// The tokens (redacted) and the context.
    public var description: String { "OAuthSessionGrant(\(tokens), context: \(context))" }

    /// A mirror with the tokens redacted.
    public var customMirror: Mirror { Mirror(self, children: ["tokens": tokens, "context": context]) }
}
