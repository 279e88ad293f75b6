import Foundation
import HealthSignInCore

/// How a session checks OpenID Connect id tokens: the layer validates the id token of a sign-in (OpenID Connect
/// Core §3.1.3.7) and of every refresh (§12.2) the same way for every family; this is what an app may tune.
public struct OpenIDPolicy: Sendable, Hashable {
    /// The algorithms accepted for id tokens; RS256 is OpenID Connect's baseline. Never taken from the token.
    public var algorithms: Set<JWSAlgorithm>
    /// How long after it was issued an id token is still accepted at sign-in, in seconds (plus ``clockLeeway``); nil
    /// for no limit. A bound limits how long a leaked token can be replayed.
    public var maximumAge: TimeInterval?
    /// How far the server's clock may differ from this device's, in seconds.
    public var clockLeeway: TimeInterval

    /// Creates a policy.
    public init(
        algorithms: Set<JWSAlgorithm> = [.rs256], maximumAge: TimeInterval? = 600, clockLeeway: TimeInterval = 120
    ) {
        self.algorithms = algorithms
        self.maximumAge = maximumAge
        self.clockLeeway = clockLeeway
    }

    /// What an id token of `issuer` for `clientID` must carry.
    func expectations(issuer: String, clientID: String, nonce: String?, accessToken: String) -> IDToken.Expectations {
        IDToken.Expectations(
            issuer: issuer, clientID: clientID, nonce: nonce, accessToken: accessToken, algorithms: algorithms,
            leeway: clockLeeway, maximumAge: maximumAge)
    }
}
