import Foundation
import HealthSignInCore

/// The responses the in-process servers answer with, spelled as the emulator's frameworks spell them.
extension HTTPResponseMessage {
    /// A JSON body (Flask's `jsonify`).
    static func json(_ status: Int = 200, _ value: JSONValue, headers: HTTPHeaderFields = [:]) -> Self {
        var fields = headers
        if fields["Content-Type"] == nil { fields.add("Content-Type", "application/json") }
        return HTTPResponseMessage(status: status, headers: fields, body: value.serialized())
    }

    /// A JSON body of an OAuth endpoint (Authlib): never cached.
    static func oauth(_ status: Int = 200, _ value: JSONValue, headers: HTTPHeaderFields = [:]) -> Self {
        var fields: HTTPHeaderFields = ["Content-Type": "application/json", "Cache-Control": "no-store"]
        fields.add("Pragma", "no-cache")
        for field in headers { fields.add(field.name, field.value) }
        return .json(status, value, headers: fields)
    }

    /// An OAuth error (RFC 6749 §5.2): `error`, and `error_description` when there is one; `invalid_client` with
    /// status 401 carries the challenge of the scheme the client tried.
    static func oauthError(_ failure: OAuthFailure) -> Self {
        var members: [JSONObject.Member] = [("error", .string(failure.error))]
        if let description = failure.description { members.append(("error_description", .string(description))) }
        if let state = failure.state { members.append(("state", .string(state))) }
        var headers: HTTPHeaderFields = [:]
        if failure.status == 401 {
            let description = (failure.description ?? "").replacingOccurrences(of: "\"", with: "|")
            headers.add(
                "WWW-Authenticate", "Basic error=\"\(failure.error)\", error_description=\"\(description)\"")
        }
        return .oauth(failure.status, .object(JSONObject(members)), headers: headers)
    }

    /// A redirect to `location`, as a browser follows it.
    static func redirect(_ location: String) -> Self {
        HTTPResponseMessage(
            status: 302, headers: ["Location": location, "Content-Type": "text/html; charset=utf-8"])
    }

    /// A body of the given media type.
    static func text(_ status: Int, _ text: String, type: String, headers: HTTPHeaderFields = [:]) -> Self {
        var fields = headers
        fields.add("Content-Type", type)
        return HTTPResponseMessage(status: status, headers: fields, body: Data(text.utf8))
    }

    /// An empty body with `status`.
    static func empty(_ status: Int, headers: HTTPHeaderFields = [:]) -> Self {
        var fields = headers
        if fields["Content-Type"] == nil { fields.add("Content-Type", "text/html; charset=utf-8") }
        return HTTPResponseMessage(status: status, headers: fields)
    }

    /// The framework's page for a path nobody serves.
    static var notFound: Self {
        .text(404, "<!doctype html><title>404 Not Found</title><h1>Not Found</h1>", type: "text/html; charset=utf-8")
    }
}

/// An OAuth error a handler ends with: thrown inside the handler, answered by the endpoint.
struct OAuthFailure: Error {
    let error: String
    let description: String?
    var status: Int
    /// The request's `state`, which Authlib echoes in an error it cannot redirect.
    var state: String?

    init(_ error: String, _ description: String? = nil, status: Int = 400, state: String? = nil) {
        self.error = error
        self.description = description
        self.status = status
        self.state = state
    }
}

extension JSONValue {
    /// A JSON string, or null for nil.
    static func text(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    /// A JSON integer.
    static func integer(_ value: Int) -> JSONValue { .number(JSONNumber(value)) }
}
