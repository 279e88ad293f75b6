import Foundation
import HealthSignInCore

/// Renders requests as text for comparison with `request.http` fixtures. Tests only: it shows secrets.
public enum HTTPText {
    /// `METHOD URL`, then each header as `Name: value`, then a blank line and the body when there is one.
    public static func render(_ request: HTTPRequestMessage) -> String {
        var lines = ["\(request.method.rawValue) \(request.url.absoluteString)"]
        lines += request.headers.fields.map { "\($0.name): \($0.value)" }
        if let body = request.body, !body.isEmpty {
            lines += ["", String(decoding: body, as: UTF8.self)]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
