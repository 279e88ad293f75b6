import Foundation
@_spi(Generated) import HealthSignInCore

extension OAuthError {
    /// The error of an endpoint's refusal of the client (token, introspection): the OAuth error the server wrote, or,
    /// for a 401 in any other format, `invalid_client` with the server's words, so one refusal is one error type
    /// whatever the body (RFC 6749 section 5.2: a 401 from these endpoints is a failed client authentication).
    /// Nil for other answers.
    package static func clientRefusal(_ response: HTTPResponseMessage, operation: String) -> OAuthError? {
        guard (400...499).contains(response.status) else { return nil }
        if let body = try? JSONCoding.decode(OAuthErrorBody.self, from: response.body) {
            return OAuthError(body: body, httpStatus: response.status, operation: operation)
        }
        guard response.status == 401 else { return nil }
        return OAuthError(
            body: OAuthErrorBody(
                error: OAuthErrorCode.invalidClient.rawValue, errorDescription: response.serverMessage),
            httpStatus: 401, operation: operation)
    }
}
