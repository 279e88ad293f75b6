import AsyncHTTPClient
import Foundation
import HealthSignInHTTP
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// What AsyncHTTPClient and SwiftNIO throw, as the SDK's transport errors: the kind a caller decides by, and a detail
/// that names the failure without anything from the request.
enum TransportErrorMapping {
    static func error(for error: any Error, url: URL, limit: Int) -> any Error {
        if error is TransportError || error is CancellationError { return error }
        if let client = error as? HTTPClientError {
            if client == .cancelled || Task.isCancelled { return CancellationError() }
            return TransportError(kind(of: client), url: url, detail: "AsyncHTTPClient: \(client)")
        }
        if Task.isCancelled { return CancellationError() }
        switch error {
        case is NIOTooManyBytesError:
            return TransportError(.responseTooLarge, url: url, detail: "the body is longer than \(limit) bytes")
        case HTTPParserError.headerOverflow:
            // NIO's parser stops a header section (trailers included) at 80 KiB, the SDK's limit.
            return TransportError(
                .responseTooLarge, url: url,
                detail: "the header section is over \(HTTPResponseMessage.maximumHeaderSectionSize) bytes")
        case is NIOConnectionError, is ChannelError:
            return TransportError(.cannotConnect, url: url, detail: "\(error)")
        case let failure as IOError where connectErrors.contains(failure.errnoCode):
            return TransportError(.cannotConnect, url: url, detail: "\(failure)")
        case is IOError, is HTTPParserError:
            return TransportError(.connectionLost, url: url, detail: "\(error)")
        case NIOSSLError.uncleanShutdown:
            // The connection ended without TLS's close_notify: the response may be cut, as anyone on the path can do.
            return TransportError(.connectionLost, url: url, detail: "the connection ended without TLS's close_notify")
        case is NIOSSLError, is BoringSSLError:
            return TransportError(.insecureConnection, url: url, detail: "\(error)")
        default:
            return TransportError(.other, url: url, detail: String(describing: type(of: error)))
        }
    }

    private static func kind(of error: HTTPClientError) -> TransportError.Kind {
        switch error {
        case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout,
            .getConnectionFromPoolTimeout, .httpProxyHandshakeTimeout, .socksHandshakeTimeout:
            return .timedOut
        case .remoteConnectionClosed, .bodyLengthMismatch, .invalidProxyResponse:
            return .connectionLost
        default:
            return .other
        }
    }

    private static let connectErrors: Set<Int32> = [ECONNREFUSED, ENETUNREACH, EHOSTUNREACH, EADDRNOTAVAIL]
}
