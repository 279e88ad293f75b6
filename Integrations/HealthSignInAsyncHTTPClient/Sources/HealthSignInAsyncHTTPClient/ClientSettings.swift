import AsyncHTTPClient
import Foundation
import HealthSignInHTTP

/// The settings of an `HTTPClient` the transport depends on: whether it follows redirects and whether it decompresses
/// bodies. AsyncHTTPClient keeps a client's configuration to itself, so they are read by reflection; when they cannot
/// be found (a later version laid them out differently), the client is refused rather than trusted.
struct ClientSettings {
    let followsRedirects: Bool?
    let decompresses: Bool?

    init(of client: HTTPClient) {
        let configuration = Mirror(reflecting: client).descendant("configuration")
        if let redirects = configuration.flatMap({ Mirror(reflecting: $0).descendant("redirectConfiguration", "mode") })
        {
            followsRedirects = !String(describing: redirects).hasPrefix("disallow")
        } else {
            followsRedirects = nil
        }
        if let decompression = configuration.flatMap({ Mirror(reflecting: $0).descendant("decompression") })
            as? HTTPClient.Decompression
        {
            if case .disabled = decompression { decompresses = false } else { decompresses = true }
        } else {
            decompresses = nil
        }
    }

    /// - Throws: ``AsyncHTTPClientTransportError`` for the first setting that breaks the transport's contract.
    func check() throws {
        switch (followsRedirects, decompresses) {
        case (true, _): throw AsyncHTTPClientTransportError.clientFollowsRedirects
        case (_, true): throw AsyncHTTPClientTransportError.clientDecompresses
        case (false, false): return
        default: throw AsyncHTTPClientTransportError.clientSettingsUnreadable
        }
    }
}

/// The `HTTPClient` given to ``AsyncHTTPClientTransport`` cannot carry the SDK's requests safely; make it with
/// ``AsyncHTTPClientTransport/clientConfiguration(_:)``.
public enum AsyncHTTPClientTransportError: Error, Hashable, SDKError {
    /// The client follows redirects, which could carry credentials to a host the SDK did not choose.
    case clientFollowsRedirects
    /// The client decompresses bodies, so a small compressed body could grow past the response size limit.
    case clientDecompresses
    /// The client's settings could not be read, so neither could be ruled out.
    case clientSettingsUnreadable

    /// A one-line explanation with the fix.
    public var description: String {
        let fix =
            "make the client with configuration: AsyncHTTPClientTransport.clientConfiguration(), "
            + "which sets redirectConfiguration .disallow and decompression .disabled"
        switch self {
        case .clientFollowsRedirects:
            return "The HTTPClient follows redirects, which could carry credentials to another host; \(fix)"
        case .clientDecompresses:
            return "The HTTPClient decompresses bodies, past the response size limit; \(fix)"
        case .clientSettingsUnreadable:
            return "The HTTPClient's redirect and decompression settings could not be read; \(fix)"
        }
    }

    /// `ErrorRecovery.reconfigure`: a client made differently works.
    public var recovery: ErrorRecovery { .reconfigure }
}
