/// The library's error type.
public enum OAuth2Error: Error, Equatable {
    case noClientId
    case invalidGrant(String?)
}

/// Its client settings.
public struct OAuth2ClientConfig {
    public var clientId: String?
    public init(clientId: String?) { self.clientId = clientId }
}

/// Its authorization code grant.
open class OAuth2CodeGrant {
    public let clientConfig: OAuth2ClientConfig
    public init(clientConfig: OAuth2ClientConfig) { self.clientConfig = clientConfig }

    /// Fails as the library does without a client id.
    open func validate() throws {
        guard clientConfig.clientId != nil else { throw OAuth2Error.noClientId }
    }
}

/// A JSON dictionary, as the library spells it.
public typealias OAuth2JSON = [String: Any]
