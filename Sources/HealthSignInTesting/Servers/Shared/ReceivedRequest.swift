import Foundation
@_spi(Generated) import HealthSignInCore

/// A request as an in-process server's handlers read it: the path, the query and a form body already decoded, as a
/// web framework hands them over (space as `+` or `%20`, repeated names kept).
struct ReceivedRequest {
    /// The request as the client sent it.
    let message: HTTPRequestMessage
    /// The path, percent-decoded.
    let path: String
    /// The query's pairs, in order.
    let query: FormFields
    /// The form body's pairs when the body is `application/x-www-form-urlencoded`, else none.
    let form: FormFields

    init(_ message: HTTPRequestMessage) {
        self.message = message
        let components = URLComponents(url: message.url, resolvingAgainstBaseURL: false)
        path = components?.path ?? message.url.path
        query = FormFields(formEncoded: components?.percentEncodedQuery ?? "")
        let type = message.headers["Content-Type"]?.lowercased() ?? ""
        form =
            type.hasPrefix("application/x-www-form-urlencoded")
            ? FormFields(formEncoded: String(decoding: message.body ?? Data(), as: UTF8.self)) : FormFields()
    }

    /// The request method.
    var method: HTTPRequestMethod { message.method }

    /// The body's bytes (empty when there is none).
    var body: Data { message.body ?? Data() }

    /// A header's value (names compare without regard to case).
    func header(_ name: String) -> String? { message.headers[name] }

    /// Every value of the form field `name`, in order.
    func formValues(_ name: String) -> [String] { form.pairs.filter { $0.name == name }.map(\.value) }

    /// The body read as a JSON object, or nil when it is not one.
    var jsonObject: JSONObject? { (try? JSONValue.parse(body))?.objectValue }

    /// The credential after `Bearer ` in `Authorization` (the scheme compared without regard to case), or nil.
    var bearerToken: String? {
        guard let value = header("Authorization"), value.count > 7, value.prefix(7).lowercased() == "bearer "
        else { return nil }
        return String(value.dropFirst(7))
    }

    /// The user id and password of HTTP Basic authentication as sent (RFC 7617: base64 of `id:password`, not
    /// form-decoded), or nil when the header is not Basic or does not decode.
    var basicCredentials: (user: String, password: String)? {
        guard let value = header("Authorization") else { return nil }
        let parts = value.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic", let data = Data(base64Encoded: String(parts[1])),
            let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
        else { return nil }
        return (String(pair[..<colon]), String(pair[pair.index(after: colon)...]))
    }
}
