import HealthSignInHTTP

/// How one request of the SDK ended, as spans and metrics name it.
public enum RequestOutcome: String, Sendable, Hashable, CaseIterable {
    /// A response with a status below 400.
    case success
    /// A 4xx response.
    case clientError = "client_error"
    /// A 5xx response.
    case serverError = "server_error"
    /// A `TransportError`: no response (a timeout, a refused connection, a body too large).
    case transportError = "transport_error"
    /// The calling task was cancelled.
    case cancelled
    /// Any other error.
    case error

    /// The outcome of a response with `status`.
    init(status: Int) {
        switch status {
        case ..<400: self = .success
        case 400..<500: self = .clientError
        default: self = .serverError
        }
    }

    /// The outcome of a request that threw `error`.
    init(error: any Error) {
        switch error {
        case is TransportError: self = .transportError
        case is CancellationError: self = .cancelled
        default: self = .error
        }
    }
}
