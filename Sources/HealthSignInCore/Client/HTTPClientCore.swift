import Foundation

/// What every generated HTTP client does the same way: starting a request under a server with the family's default
/// headers, checking the URL policy, logging, calling the transport, and turning an error response into the typed
/// error of the first format it matches. A generated method adds only its path, fields, credentials and response type.
@_spi(Generated) public struct HTTPClientCore: Sendable {
    /// The family's name, as log records show it.
    public let family: String
    /// The transport, URL policy, timeout and logger.
    public let options: ClientOptions
    /// Header fields every request sends, before the method's own.
    public let headers: HTTPHeaderFields

    /// Creates the core of a client of `family`.
    public init(family: String, options: ClientOptions, headers: HTTPHeaderFields) {
        self.family = family
        self.options = options
        self.headers = headers
    }

    /// Starts a request to `path` under `server`, with the default headers and then `headers`.
    ///
    /// - Throws: `ConfigurationError.missingServer(_:)` naming `serverName` when `server` is nil.
    public func request(
        _ method: HTTPRequestMethod, server: URL?, serverName: String, path: String, headers: HTTPHeaderFields = [:]
    ) throws -> HTTPRequestBuilder {
        var builder = try HTTPRequestBuilder(method: method, server: server, serverName: serverName, path: path)
        for field in self.headers { builder.headers[field.name] = field.value }
        for field in headers { builder.headers[field.name] = field.value }
        return builder
    }

    /// The URL of `builder`'s GET request, query included, for the user's browser to open: the client never sends
    /// it, and the server answers by redirecting the browser (an OAuth authorization request).
    ///
    /// - Throws: `URLPolicy` refusals and request building errors.
    public func browserURL(_ builder: HTTPRequestBuilder) throws -> URL {
        let request = try builder.build()
        try options.urlPolicy.check(request.url)
        return request.url
    }

    /// Sends `builder`'s request and returns a 2xx response.
    ///
    /// - Throws: the error of the first of `errors` whose body a non-2xx response has, else
    ///   ``UnexpectedResponseError``; `URLPolicy` refusals, request building errors and the transport's errors.
    public func send(_ builder: HTTPRequestBuilder, operation: String, errors: [HTTPErrorFormat]) async throws
        -> HTTPResponseMessage
    {
        let request = try builder.build(timeout: options.timeout)
        try options.urlPolicy.check(request.url)
        let requestID = options.logger == nil ? nil : LogEntry.makeRequestID()
        options.logger.log(
            .debug, family, "\(public: operation) → \(public: request.method) \(url: request.url)",
            operation: operation, requestID: requestID)
        let response = try await options.send(request, operation: OperationID(family: family, method: operation))
        options.logger.log(
            .debug, family, "\(public: operation) ← HTTP \(public: response.status)", operation: operation,
            requestID: requestID
        )
        guard response.isSuccess else {
            let error = Self.error(for: response, operation: operation, formats: errors)
            guard let unexpected = error as? UnexpectedResponseError else { throw error }
            throw unexpected.refusing(builder.credential, secrets: request.headers.filter(\.isSensitive).map(\.value))
        }
        return response
    }

    /// Sends `builder`'s request as ``send(_:operation:errors:)`` does and decodes its JSON body as `T`.
    public func json<T: Decodable>(
        _ type: T.Type = T.self, sending builder: HTTPRequestBuilder, operation: String, errors: [HTTPErrorFormat]
    ) async throws -> T {
        try HTTPResponseBody.json(
            T.self, from: try await send(builder, operation: operation, errors: errors), operation: operation)
    }

    /// Sends `builder`'s request and reads its XML body, whose document element is one of `rootElements`, as `T`.
    public func xml<T: XMLDecodable>(
        _ type: T.Type = T.self, rootElements: [String], sending builder: HTTPRequestBuilder, operation: String,
        errors: [HTTPErrorFormat]
    ) async throws -> T {
        let response = try await send(builder, operation: operation, errors: errors)
        return try HTTPResponseBody.xml(T.self, from: response, rootElements: rootElements)
    }

    /// Sends `builder`'s request and reads its body as `T` in the format the response has, XML or JSON.
    public func jsonOrXML<T: Decodable & XMLDecodable>(
        _ type: T.Type = T.self, rootElements: [String], sending builder: HTTPRequestBuilder, operation: String,
        errors: [HTTPErrorFormat]
    ) async throws -> T {
        let response = try await send(builder, operation: operation, errors: errors)
        return try HTTPResponseBody.jsonOrXML(T.self, from: response, rootElements: rootElements, operation: operation)
    }

    /// The typed error for a non-2xx response: that of the first of `formats` whose body the response has, else
    /// ``UnexpectedResponseError``.
    public static func error(for response: HTTPResponseMessage, operation: String, formats: [HTTPErrorFormat])
        -> any Error
    {
        for format in formats {
            if let error = format.error(response, operation) { return error }
        }
        return UnexpectedResponseError(operation: operation, response: response)
    }
}

/// An error format a method may answer with: how its body is recognised and read, and the typed error it becomes.
@_spi(Generated) public struct HTTPErrorFormat: Sendable {
    /// The typed error for `response`, or nil when its body is not in this format.
    let error: @Sendable (_ response: HTTPResponseMessage, _ operation: String) -> (any Error)?

    /// A format read from the body by `read`, which returns nil when the body is not in the format.
    public init(read: @escaping @Sendable (_ response: HTTPResponseMessage, _ operation: String) -> (any Error)?) {
        self.error = read
    }

    /// A body that is JSON and decodes as `Body`, becoming `makeError(body, status, operation)`.
    public static func json<Body: Decodable & Sendable>(
        _ body: Body.Type, _ makeError: @escaping @Sendable (Body, Int, String) -> any Error
    ) -> HTTPErrorFormat {
        HTTPErrorFormat { response, operation in
            guard HTTPResponseBody.looksLikeJSON(response.body),
                let value = try? JSONCoding.decode(Body.self, from: response.body)
            else { return nil }
            return makeError(value, response.status, operation)
        }
    }

    /// A body that is XML with one of `rootElements` as its document element and reads as `Body`.
    public static func xml<Body: XMLDecodable & Sendable>(
        _ body: Body.Type, rootElements: [String], _ makeError: @escaping @Sendable (Body, Int, String) -> any Error
    ) -> HTTPErrorFormat {
        HTTPErrorFormat { response, operation in
            guard HTTPResponseBody.isXML(response),
                let value = try? HTTPResponseBody.xml(Body.self, from: response, rootElements: rootElements)
            else { return nil }
            return makeError(value, response.status, operation)
        }
    }

    /// A body in either format: XML when the response is XML, JSON otherwise.
    public static func jsonOrXML<Body: Decodable & XMLDecodable & Sendable>(
        _ body: Body.Type, rootElements: [String], _ makeError: @escaping @Sendable (Body, Int, String) -> any Error
    ) -> HTTPErrorFormat {
        let json = HTTPErrorFormat.json(body, makeError)
        let xml = HTTPErrorFormat.xml(body, rootElements: rootElements, makeError)
        return HTTPErrorFormat { response, operation in
            xml.error(response, operation) ?? json.error(response, operation)
        }
    }
}
