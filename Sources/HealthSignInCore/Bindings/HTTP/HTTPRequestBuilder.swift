import Foundation

/// Assembles an HTTP request for a generated method: server URL plus path, query, form or JSON body, headers and
/// credentials.
///
/// Every credential it sets (a Basic or bearer `Authorization`, an API key in a header of any name, a client secret)
/// is marked sensitive, so the builder, the request it builds and their headers and fields never print it.
@_spi(Generated)
public struct HTTPRequestBuilder: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The request method.
    public var method: HTTPRequestMethod
    /// Query fields, appended after any query the server URL already has.
    public var query = FormFields()
    /// Form fields; when non-nil the body is `application/x-www-form-urlencoded`.
    public var form: FormFields?
    /// Header fields.
    public var headers = HTTPHeaderFields()
    /// A body set by ``setBody(_:contentType:)`` or ``setJSONBody(_:)``, with its media type.
    public private(set) var body: (data: Data, contentType: String)?
    /// The credential the request carries, in words, for the error of a response that refuses it.
    public private(set) var credential: String?
    private let base: String

    /// Starts a request to `path` under `server`.
    ///
    /// - Parameters:
    ///   - method: the HTTP method.
    ///   - server: the configured base URL, or nil when it is not configured.
    ///   - serverName: the server's name in the schema, used in the error when `server` is nil.
    ///   - path: the path after the server URL, already percent-encoded (empty for endpoint URLs used as is).
    /// - Throws: `ConfigurationError.missingServer(_:)` when `server` is nil.
    public init(method: HTTPRequestMethod, server: URL?, serverName: String, path: String) throws {
        guard let server else { throw ConfigurationError.missingServer(serverName) }
        self.method = method
        var base = server.absoluteString
        if !path.isEmpty {
            if let queryStart = base.firstIndex(of: "?") { base = String(base[..<queryStart]) }
            while base.hasSuffix("/") { base.removeLast() }
            base += path.hasPrefix("/") ? path : "/" + path
            if let serverQuery = server.query, !serverQuery.isEmpty { base += "?" + serverQuery }
        }
        self.base = base
    }

    /// Sends HTTP Basic credentials (RFC 7617).
    public mutating func authorize(basic credentials: BasicCredentials) {
        headers.setSensitive("Authorization", credentials.authorizationValue)
        credential = "the Basic credentials (user name and password)"
    }

    /// Sends a bearer token (RFC 6750).
    public mutating func authorize(bearer token: BearerToken) {
        headers.setSensitive("Authorization", token.authorizationValue)
        credential = "the access token"
    }

    /// Sends an API key in the header `name`.
    public mutating func authorize(apiKey: APIKey, header name: String) {
        headers.setSensitive(name, apiKey.value)
        credential = "the API key sent in \(name)"
    }

    /// Sends an access token as a bearer token, or an API key in the header `apiKeyHeader`.
    public mutating func authorize(_ credential: AccessCredential, apiKeyHeader: String) {
        switch credential {
        case .bearer(let token): authorize(bearer: token)
        case .apiKey(let key): authorize(apiKey: key, header: apiKeyHeader)
        }
    }

    /// Authenticates an OAuth client as its ``OAuthClientCredentials/method`` says: a Basic header, `client_id`
    /// (and `client_secret`) as form fields, or a client assertion signed now whose audience is this request's URL.
    ///
    /// Form fields go in the form body, which is started when the request has none yet: a client secret never travels
    /// in the query, where servers, proxies and browsers log it. (The generator accepts OAuth client authentication
    /// only on methods with a form body.)
    ///
    /// - Throws: ``JOSEError`` when the client assertion cannot be signed.
    public mutating func authenticate(client: OAuthClientCredentials) throws {
        var fields = form ?? FormFields()
        switch client.method {
        case .basic, .unencodedBasic:
            headers.setSensitive("Authorization", client.basicAuthorizationValue)
            return
        case .post, .none:
            fields.append("client_id", client.clientID)
            if client.method == .post, let secret = client.secret {
                fields.append("client_secret", secret, sensitive: true)
            }
        case .privateKeyJWT:
            guard let signer = client.assertionSigner, let endpoint = URL(string: base) else {
                throw JOSEError.invalidKey("a private_key_jwt client needs a signer and a token endpoint URL")
            }
            let assertion = try signer.assertion(clientID: client.clientID, tokenEndpoint: endpoint)
            fields.append("client_assertion_type", ClientAssertion.type)
            fields.append("client_assertion", assertion.token, sensitive: true)
        }
        form = fields
    }

    /// Sets a JSON body, sent with `Content-Type: application/json`.
    public mutating func setJSONBody(_ value: some Encodable) throws {
        setBody(try JSONCoding.encode(value), contentType: "application/json")
    }

    /// Sets a body of any media type.
    public mutating func setBody(_ data: Data, contentType: String) {
        body = (data, contentType)
    }

    /// The method, the URL without its query, and the headers, query and form with sensitive values redacted.
    public var description: String {
        var parts = ["\(method) \(URL(string: base).map(Redaction.url) ?? Redaction.placeholder)", headers.description]
        if !query.isEmpty { parts.append("query: \(query)") }
        if let form { parts.append("form: \(form)") }
        if let body { parts.append("<\(body.data.count) bytes of \(body.contentType)>") }
        return "HTTPRequestBuilder(" + parts.joined(separator: ", ") + ")"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror that shows only the redacted description.
    public var customMirror: Mirror { Mirror(self, children: ["builder": description], displayStyle: .struct) }

    /// The finished request.
    ///
    /// - Throws: `RequestEncodingError.invalidURL(_:)` when the pieces do not form a URL.
    public func build(timeout: TimeInterval? = nil) throws -> HTTPRequestMessage {
        var text = base
        if !query.isEmpty { text += (text.contains("?") ? "&" : "?") + query.queryEncoded }
        guard let url = URL(string: text) else {
            throw RequestEncodingError.invalidURL("the server URL and path do not form a URL")
        }
        var headers = headers
        var body: Data?
        if let given = self.body {
            body = given.data
            headers["Content-Type"] = given.contentType
        } else if let form {
            body = Data(form.formEncoded.utf8)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        }
        return HTTPRequestMessage(method: method, url: url, headers: headers, body: body, timeout: timeout)
    }
}
