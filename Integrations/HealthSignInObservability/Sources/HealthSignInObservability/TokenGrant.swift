import Foundation
import HealthSignInHTTP

/// The OAuth `grant_type` of a token request (RFC 6749 §4): a form `POST` that names one. Every family's token
/// requests are such requests, so one reading finds them all, and a renewal is the `refresh_token` grant.
enum TokenGrant {
    /// The grant type `request` asks for, or nil when it is not a token request.
    static func type(of request: HTTPRequestMessage) -> String? {
        guard request.method == .post, let body = request.body,
            request.headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
        else { return nil }
        for field in String(decoding: body, as: UTF8.self).split(separator: "&") {
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == "grant_type" else { continue }
            return String(parts[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }

    /// The grant that renews an access token.
    static let renewal = "refresh_token"
}
