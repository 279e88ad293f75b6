import Foundation

/// What every generated HealthVault client does the same way: wrapping a method's `<info>` in a signed request
/// envelope, checking the URL policy, logging, calling the transport (again after a temporary failure when the
/// retry policy allows it), and reading the response envelope, whose non-zero status becomes the family's typed error.
@_spi(Generated) public struct HealthVaultClientCore: Sendable {
    /// The family's name, as log records show it.
    public let family: String
    /// The platform URL, or nil when it is not configured.
    public let server: URL?
    /// The transport, URL policy, timeout and logger.
    public let options: ClientOptions
    /// The clock for `msg-time` and signing times.
    public let clock: any TimeSource
    /// What every request header carries.
    public let envelope: HealthVaultEnvelopeSettings
    /// Which reads are sent again after a temporary failure.
    public let retry: RequestRetryPolicy
    /// The family's error for a non-zero status: from the `<status>` element, the HTTP status and the method name.
    public let statusError:
        @Sendable (_ status: XMLElementView, _ httpStatus: Int, _ method: String) throws -> any Error

    /// Creates the core of a client of `family`.
    public init(
        family: String, server: URL?, options: ClientOptions, clock: any TimeSource,
        envelope: HealthVaultEnvelopeSettings, retry: RequestRetryPolicy,
        statusError:
            @escaping @Sendable (_ status: XMLElementView, _ httpStatus: Int, _ method: String) throws -> any Error
    ) {
        self.family = family
        self.server = server
        self.options = options
        self.clock = clock
        self.envelope = envelope
        self.retry = retry
        self.statusError = statusError
    }

    /// Signs and sends one request as ``send(method:version:recordID:auth:messageTime:info:idempotent:)`` does, and
    /// reads `Response` from the response's `<info>` in `namespace`.
    ///
    /// - Parameters:
    ///   - response: The type to read.
    ///   - namespace: The namespace of the response's `<info>` element.
    ///   - method: The method's name, e.g. `GetAuthorizedPeople`.
    ///   - version: The method's version.
    ///   - recordID: The record a record-scoped method acts on.
    ///   - auth: How the request is authenticated.
    ///   - messageTime: The request's `msg-time`; the clock's time when nil.
    ///   - info: The `<info>` element.
    ///   - idempotent: Whether sending the request again after a temporary failure is safe.
    public func send<Response: XMLDecodable>(
        _ response: Response.Type, namespace: String, method: String, version: Int, recordID: UUID? = nil,
        auth: HealthVaultRequestAuth, messageTime: Date? = nil, info: XMLWriter, idempotent: Bool = false
    ) async throws -> Response {
        let envelope = try await send(
            method: method, version: version, recordID: recordID, auth: auth, messageTime: messageTime, info: info,
            idempotent: idempotent
        )
        return try Response(xml: envelope.info(namespace: namespace))
    }

    /// Signs and sends one request, and returns the parsed response envelope.
    ///
    /// - Parameters:
    ///   - method: The method's name, e.g. `GetAuthorizedPeople`.
    ///   - version: The method's version.
    ///   - recordID: The record a record-scoped method acts on.
    ///   - auth: How the request is authenticated.
    ///   - messageTime: The request's `msg-time`; the clock's time when nil. A method whose `<info>` is signed with
    ///     a time passes that time, so both agree.
    ///   - info: The `<info>` element.
    ///   - idempotent: Whether sending the request again after a temporary failure is safe.
    /// - Throws: ``statusError`` for a non-zero status, ``UnexpectedResponseError`` for an HTTP failure without a
    ///   HealthVault status, ``ResponseDecodingError`` for a malformed response, `ConfigurationError` when the
    ///   platform URL is not set, and the transport's errors.
    public func send(
        method: String, version: Int, recordID: UUID? = nil, auth: HealthVaultRequestAuth, messageTime: Date? = nil,
        info: XMLWriter, idempotent: Bool = false
    ) async throws -> HealthVaultResponseEnvelope {
        guard let url = server else { throw ConfigurationError.missingServer("platform") }
        try options.urlPolicy.check(url)
        let body = try HealthVaultRequestEnvelope.encode(
            method: method, version: version, recordID: recordID, auth: auth, settings: envelope,
            messageTime: messageTime ?? clock.now(), info: info
        )
        let request = HTTPRequestMessage(
            method: .post, url: url, headers: ["Content-Type": "text/xml; charset=utf-8"], body: Data(body.bytes),
            timeout: options.timeout
        )
        return try await retry.run(idempotent: idempotent, now: clock.now) {
            let requestID = options.logger == nil ? nil : LogEntry.makeRequestID()
            options.logger.log(
                .debug, family, "\(public: method) v\(public: version) → \(url: url)", operation: method,
                requestID: requestID)
            let response = try await options.send(request, operation: OperationID(family: family, method: method))
            options.logger.log(
                .debug, family, "\(public: method) ← HTTP \(public: response.status)", operation: method,
                requestID: requestID)
            let parsed: HealthVaultResponseEnvelope
            do {
                parsed = try HealthVaultResponseEnvelope(body: response.body)
            } catch {
                if !response.isSuccess { throw UnexpectedResponseError(operation: method, response: response) }
                throw error
            }
            guard parsed.statusCode == 0 else { throw try statusError(parsed.status, response.status, method) }
            guard response.isSuccess else {
                throw UnexpectedResponseError(
                    operation: method, response: response, reason: "status 0 in an HTTP \(response.status) response"
                )
            }
            return parsed
        }
    }
}

extension XMLWriter {
    /// An `<info>` element holding `request`'s content: what a HealthVault method sends.
    public static func info(_ request: some XMLEncodable, context: EncodingContext) throws -> XMLWriter {
        var writer = XMLWriter()
        try writer.element("info", writing: request, context: context)
        return writer
    }

    /// An empty `<info />` element, for a HealthVault method without parameters.
    public static var emptyInfo: XMLWriter {
        var writer = XMLWriter()
        writer.startElement("info")
        writer.endElement()
        return writer
    }
}
