import Foundation
@_spi(Generated) import HealthSignInCore

/// How a client proves who it is at an OAuth endpoint (RFC 6749 §2.3, RFC 7523), by the names servers register.
enum ClientAuthenticationMethod: String, Sendable, Hashable {
    case secretBasic = "client_secret_basic"
    case secretPost = "client_secret_post"
    case none
    case privateKeyJWT = "private_key_jwt"
}

/// A registered client as client authentication sees it.
struct AuthenticatableClient {
    let secret: String?
    let methods: Set<ClientAuthenticationMethod>

    func checks(_ secret: String) -> Bool {
        guard let own = self.secret else { return false }
        return CryptoPrimitives.constantTimeEqual(Array(own.utf8), Array(secret.utf8))
    }
}

/// Client authentication as the emulator's Authlib servers do it: each method an endpoint accepts is tried in
/// order, and the first that identifies a client registered for that method wins; a client that names itself but is
/// unknown is refused at once; when none succeeds, `invalid_client` (401 with a Basic challenge when the endpoint
/// accepts Basic, else 400).
struct OAuthClientAuthentication {
    /// The methods the endpoint accepts, in the order tried.
    let methods: [ClientAuthenticationMethod]
    /// The id and secret of a Basic header, decoded as the server decodes them.
    let basic: (ReceivedRequest) -> (id: String, secret: String)?
    /// Whether a Basic header naming an unknown client is refused at once (Authlib's default) rather than skipped.
    let unknownBasicClientIsRefused: Bool
    /// The registered client with an id.
    let client: (String) -> AuthenticatableClient?
    /// The client id a `private_key_jwt` assertion proves, nil without an assertion; throws for a bad one.
    var assertion: ((ReceivedRequest) throws(OAuthFailure) -> String?)?

    /// The authenticated client's id and method.
    func authenticate(_ request: ReceivedRequest) throws(OAuthFailure) -> (
        id: String, method: ClientAuthenticationMethod
    ) {
        for method in methods {
            guard let id = try identify(request, by: method), let client = client(id), client.methods.contains(method)
            else { continue }
            return (id, method)
        }
        let names = methods.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        throw OAuthFailure(
            "invalid_client", "The client cannot authenticate with methods: [\(names)]",
            status: methods.contains(.secretBasic) ? 401 : 400)
    }

    private func identify(_ request: ReceivedRequest, by method: ClientAuthenticationMethod) throws(OAuthFailure)
        -> String?
    {
        switch method {
        case .secretBasic:
            guard let (id, secret) = basic(request), !id.isEmpty, !secret.isEmpty else { return nil }
            guard let client = client(id) else {
                if unknownBasicClientIsRefused { throw Self.unknownClient(status: 401) }
                return nil
            }
            return client.checks(secret) ? id : nil
        case .secretPost:
            guard let id = request.form["client_id"], let secret = request.form["client_secret"], !id.isEmpty,
                !secret.isEmpty
            else { return nil }
            guard let client = client(id) else { throw Self.unknownClient(status: 400) }
            return client.checks(secret) ? id : nil
        case .none:
            guard let id = request.form["client_id"], !id.isEmpty, request.form["client_secret"] == nil else {
                return nil
            }
            guard client(id) != nil else { throw Self.unknownClient(status: 400) }
            return id
        case .privateKeyJWT:
            return try assertion?(request)
        }
    }

    static func unknownClient(status: Int) -> OAuthFailure {
        OAuthFailure("invalid_client", "The client does not exist on this server.", status: status)
    }

    /// Basic credentials as Authlib reads them: each part percent-decoded (RFC 6749 §2.3.1).
    static func percentDecodedBasic(_ request: ReceivedRequest) -> (id: String, secret: String)? {
        request.basicCredentials.map { (Self.percentDecoded($0.user), Self.percentDecoded($0.password)) }
    }

    /// Basic credentials as sent (RFC 7617), as the Koppeltaal server reads them.
    static func rawBasic(_ request: ReceivedRequest) -> (id: String, secret: String)? {
        request.basicCredentials.map { ($0.user, $0.password) }
    }

    /// Basic credentials form-decoded (`+` as space too), as a server that follows RFC 6749 §2.3.1 to the letter.
    static func formDecodedBasic(_ request: ReceivedRequest) -> (id: String, secret: String)? {
        request.basicCredentials.map { (PercentEncoding.decode($0.user), PercentEncoding.decode($0.password)) }
    }

    /// `%XX` decoded; `+` kept (Python's `unquote`).
    static func percentDecoded(_ text: String) -> String {
        PercentEncoding.decode(text.replacingOccurrences(of: "+", with: "%2B"))
    }
}

/// PKCE (RFC 7636) as the servers check it.
enum PKCE {
    /// What a challenge and a verifier may be made of: 43 to 128 unreserved characters.
    static func isWellFormed(_ value: String) -> Bool {
        (43...128).contains(value.utf8.count)
            && value.utf8.allSatisfy { byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || "-._~".utf8.contains(byte)
            }
    }

    /// The token endpoint's check of a code's `code_verifier` (RFC 7636 §4.6), with Authlib's errors: a verifier
    /// without a challenge, or a challenge without a well-formed verifier that answers it, is refused.
    static func checkCodeVerifier(_ verifier: String?, challenge: String?, method: String?) throws(OAuthFailure) {
        guard let challenge else {
            if verifier != nil {
                throw OAuthFailure(
                    "invalid_request",
                    "The authorization request had no 'code_challenge', but a 'code_verifier' was provided.")
            }
            return
        }
        guard let verifier else { throw OAuthFailure("invalid_request", "Missing 'code_verifier'") }
        guard isWellFormed(verifier) else { throw OAuthFailure("invalid_request", "Invalid 'code_verifier'") }
        guard verifies(verifier, challenge: challenge, method: method) else {
            throw OAuthFailure("invalid_grant", "Code challenge failed.")
        }
    }

    /// Whether `verifier` answers `challenge` under `method` (`plain` when nil).
    static func verifies(_ verifier: String, challenge: String, method: String?) -> Bool {
        switch method ?? "plain" {
        case "S256": return Base64URL.encode(CryptoPrimitives.sha256(Array(verifier.utf8))) == challenge
        case "plain": return verifier == challenge
        default: return false
        }
    }
}
