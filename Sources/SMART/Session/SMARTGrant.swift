import Foundation
import SDKRuntime

/// The tokens of an authorized launch and where to refresh and revoke them.
struct SMARTGrant: Sendable, Equatable, Codable {
    var accessToken: String
    var refreshToken: String?
    var expiresAt: Date?
    var tokenEndpoint: URL
    var revocationEndpoint: URL?
    var context: SMARTLaunchContext

    /// The grant `response` gives, keeping what a refresh response leaves out from `previous`: a refresh token that
    /// is not rotated stays, and context fields merge over the old ones.
    ///
    /// - Throws: ``SMARTError/malformedTokenResponse(_:)`` for an empty access token, a token type other than
    ///   Bearer, or a negative lifetime.
    init(
        _ response: TokenResponse, previous: SMARTGrant?, endpoints: SMARTEndpoints, receivedAt: Date
    ) throws {
        guard !response.accessToken.isEmpty else { throw SMARTError.malformedTokenResponse("access_token is empty") }
        guard response.tokenType.caseInsensitiveCompare("bearer") == .orderedSame else {
            throw SMARTError.malformedTokenResponse("token_type is \"\(response.tokenType)\", expected Bearer")
        }
        if let lifetime = response.expiresIn, lifetime < 0 {
            throw SMARTError.malformedTokenResponse("expires_in is negative")
        }
        accessToken = response.accessToken
        refreshToken = response.refreshToken ?? previous?.refreshToken
        expiresAt = response.expiresIn.map { receivedAt.addingTimeInterval(TimeInterval($0)) }
        tokenEndpoint = endpoints.token
        revocationEndpoint = endpoints.revocation
        context = SMARTLaunchContext(response, previous: previous?.context, fhirBaseURL: endpoints.fhirBaseURL)
    }
}

/// An authorization request waiting for its redirect, kept in the store so that it survives the app being ended
/// while the user is in the browser.
struct PendingAuthorization: Sendable, Equatable, Codable {
    var state: String
    var codeVerifier: String
    var nonce: String?
    var redirectURI: String
    var endpoints: SMARTEndpoints
    var startedAt: Date
}

/// Everything a ``SMARTSession`` keeps under its store key.
struct SMARTState: Sendable, Equatable, Codable {
    var grant: SMARTGrant?
    var pending: PendingAuthorization?
}

extension SMARTGrant: CustomStringConvertible, CustomReflectable {
    /// The expiry and context; the tokens are redacted.
    var description: String {
        "SMARTGrant(accessToken: \(Redaction.placeholder), refreshToken: \(Redaction.hide(refreshToken)), "
            + "expiresAt: \(Redaction.show(expiresAt)), patient: \(Redaction.show(context.patient)))"
    }

    var customMirror: Mirror { Mirror(self, children: ["grant": description]) }
}

extension PendingAuthorization: CustomStringConvertible, CustomReflectable {
    /// When it started; the state, verifier and nonce are redacted.
    var description: String {
        "PendingAuthorization(startedAt: \(DateTimeText.format(startedAt)), secrets: \(Redaction.placeholder))"
    }

    var customMirror: Mirror { Mirror(self, children: ["pending": description]) }
}
