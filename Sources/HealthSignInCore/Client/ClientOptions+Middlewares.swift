import Foundation

extension ClientOptions {
    /// Sends `request` for `operation` through ``middlewares``, in order, and then `transport` (the options' own
    /// ``transport`` when nil). Just before the transport the ``urlPolicy`` is checked, every header field must be
    /// one HTTP can carry (`HTTPHeaderFields.checkSyntax()`), and the request gets the ``maximumResponseSize``
    /// unless it has a limit of its own; a response over the limit is refused whatever transport delivered it.
    public func send(
        _ request: HTTPRequestMessage, operation: OperationID, transport: (any HTTPTransport)? = nil
    ) async throws -> HTTPResponseMessage {
        try await send(request, operation: operation, through: middlewares[...], to: transport ?? self.transport)
    }

    private func send(
        _ request: HTTPRequestMessage, operation: OperationID,
        through middlewares: ArraySlice<any HTTPClientMiddleware>,
        to transport: any HTTPTransport
    ) async throws -> HTTPResponseMessage {
        guard let first = middlewares.first else {
            try urlPolicy.check(request.url)
            try request.headers.checkSyntax()
            var request = request
            let limit = request.maximumResponseSize ?? maximumResponseSize
            request.maximumResponseSize = limit
            let response = try await transport.send(request)
            guard response.body.count <= limit else {
                throw TransportError(
                    .responseTooLarge, url: request.url,
                    detail: "the response has \(response.body.count) bytes, over the limit of \(limit)")
            }
            return response
        }
        let rest = middlewares.dropFirst()
        return try await first.intercept(request, operation: operation) { next in
            try await send(next, operation: operation, through: rest, to: transport)
        }
    }
}
