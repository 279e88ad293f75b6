import Foundation
import HealthSignInCore

/// The platform endpoint: the envelope's checks (root, header order, message time), the anonymous methods, and the
/// signature of every signed request.
extension HealthVaultTestServer {
    typealias Failure = HealthVaultWire.Failure

    /// The header's elements in schema order: each element's rank; elements that share a rank are alternatives.
    private static let headerRanks: [String: Int] = [
        "method": 1, "method-version": 2, "target-person-id": 3, "record-id": 4, "app-id": 5, "auth-session": 5,
        "language": 6, "country": 7, "culture-code": 7, "final-xsl": 8, "msg-time": 9, "msg-ttl": 10, "version": 11,
        "info-hash": 12,
    ]
    private static let requiredHeader = ["method", "method-version", "msg-time", "msg-ttl", "version"]

    /// One signed or anonymous request as the methods read it.
    struct PlatformRequest {
        let instance: String
        let body: [UInt8]
        let root: XMLElementView
        let header: XMLElementView
        let info: XMLElementView
        let origin: String
    }

    func platform(_ request: ReceivedRequest, instance: String) -> Handled {
        var method: String?
        do throws(Failure) {
            guard Self.instances[instance] != nil else { throw Failure(.failed, "no instance \(instance)") }
            let tree: XMLTree
            do { tree = try XMLTree.parse(request.body) } catch {
                throw Failure(.invalidXML, "malformed request: \(error)")
            }
            let document = tree.root
            guard document.name == "request", document.namespaceURI == HealthVaultWire.requestNamespace else {
                throw Failure(.invalidXML, "the root element is not wc-request:request")
            }
            // Unqualified, as the schema has them: an element in a namespace is another element.
            let unqualified = document.children.filter { $0.namespaceURI == nil }
            guard let header = unqualified.first(where: { $0.isNamed("header") }),
                let info = unqualified.first(where: { $0.isNamed("info") })
            else {
                throw Failure(.invalidXML, "header and info are required")
            }
            method = HealthVaultWire.text(header, "method")
            try Self.checkHeaderOrder(header)
            let version = try HealthVaultWire.integer(HealthVaultWire.text(header, "method-version"), "method-version")
            try checkMessageTime(header)
            let platformRequest = PlatformRequest(
                instance: instance, body: Array(request.body), root: document, header: header, info: info,
                origin: root(of: request))
            return Handled(try dispatch(method ?? "", version: version, platformRequest))
        } catch {
            return Handled(HealthVaultWire.respond(error.status, message: error.message))
        }
    }

    private func dispatch(_ method: String, version: Int, _ request: PlatformRequest) throws(Failure)
        -> HTTPResponseMessage
    {
        switch (method, version) {
        case ("NewApplicationCreationInfo", 1): return try newApplicationCreationInfo(request)
        case ("GetServiceDefinition", 2): return try serviceDefinition(request)
        case ("CreateAuthenticatedSessionToken", 2): return try createSession(request)
        case ("GetAuthorizedPeople", 1): return try authorizedPeople(request)
        case ("GetPersonInfo", 1): return try personInfo(request)
        case ("GetThings", 3): return try getThings(request)
        case ("PutThings", 2): return try putThings(request)
        case ("RemoveApplicationRecordAuthorization", 1): return try removeAuthorization(request)
        default: throw Failure(.badMethod, "unknown method \(method) version \(version)")
        }
    }

    private static func checkHeaderOrder(_ header: XMLElementView) throws(Failure) {
        var rank = 0
        for child in header.children {
            guard child.namespaceURI == nil, let childRank = headerRanks[child.name] else {
                throw Failure(.invalidXML, "unexpected header element \(child.name)")
            }
            guard childRank > rank else {
                throw Failure(.invalidXML, "header element \(child.name) is out of schema order")
            }
            rank = childRank
        }
        for name in requiredHeader where header.child(name) == nil {
            throw Failure(.invalidXML, "the header needs \(name)")
        }
        if header.child("culture-code") != nil, header.child("language") != nil {
            throw Failure(.invalidXML, "the header carries language or culture-code, not both")
        }
    }

    /// The window is symmetric: a message lives for its time to live, give or take the allowed skew, either side of
    /// the server clock, so a client clock a few minutes off still works and a bounded msg-ttl bounds the window.
    private func checkMessageTime(_ header: XMLElementView) throws(Failure) {
        let moment = try HealthVaultWire.time(HealthVaultWire.text(header, "msg-time"))
        let ttl = TimeInterval(try HealthVaultWire.integer(HealthVaultWire.text(header, "msg-ttl"), "msg-ttl"))
        let settings = settings
        guard ttl >= 0, ttl <= settings.maximumTimeToLive else {
            let limit = String(format: "%g", settings.maximumTimeToLive)
            throw Failure(.invalidXML, "msg-ttl must be between 0 and \(limit) seconds")
        }
        let now = now
        if moment.addingTimeInterval(-(ttl + settings.skew)) > now {
            throw Failure(.requestTimedOut, "the message time is in the future")
        }
        if moment.addingTimeInterval(ttl + settings.skew) < now {
            throw Failure(.requestTimedOut, "the request reached its time to live")
        }
    }

    /// The `app-id` of an anonymous method.
    private static func anonymousApplication(_ header: XMLElementView) throws(Failure) -> String {
        guard let id = HealthVaultWire.text(header, "app-id"), header.child("auth-session") == nil else {
            throw Failure(.invalidXML, "anonymous methods carry app-id")
        }
        return id
    }

    private func newApplicationCreationInfo(_ request: PlatformRequest) throws(Failure) -> HTTPResponseMessage {
        let master = try Self.anonymousApplication(request.header)
        let child = core.uuid()
        let secret = core.random.bytes(count: 32)
        // Creation tokens are Base64 with '/', '+' and '=' so that clients must encode them twice in Shell URLs.
        let token = Data(core.random.bytes(count: 62) + [0xFB, 0xFF]).base64EncodedString()
        guard state.current.masters.contains(master) else {
            throw Failure(.invalidApplication, "unknown master application")
        }
        state.withValue { state in
            state.applications[child] = .init(master: master, secret: secret, creationToken: token)
            state.creationTokens[token] = child
        }
        let info =
            "<app-id>\(child)</app-id><shared-secret>\(Data(secret).base64EncodedString())</shared-secret>"
            + "<app-token>\(XMLText.escaped(token))</app-token>"
        return HealthVaultWire.respond(info: info, method: "NewApplicationCreationInfo")
    }

    private func serviceDefinition(_ request: PlatformRequest) throws(Failure) -> HTTPResponseMessage {
        guard state.current.masters.contains(try Self.anonymousApplication(request.header)) else {
            throw Failure(.invalidApplication, "unknown master application")
        }
        let instances = Self.instances.sorted { $0.key < $1.key }.map { key, name in
            "<instance><id>\(key)</id><name>\(name)</name><description>Test \(name) instance</description>"
                + "<platform-url>\(request.origin)/\(key)/platform/wildcat.ashx</platform-url>"
                + "<shell-url>\(request.origin)/shell/\(key)/</shell-url></instance>"
        }.joined()
        return HealthVaultWire.respond(
            info: "<instances current-instance-id=\"\(request.instance)\">\(instances)</instances>"
                + "<updated-date>2017-08-10T12:34:56Z</updated-date>",
            method: "GetServiceDefinition", version: 2)
    }

    /// CreateAuthenticatedSessionToken v2: the application proves its secret with an HMAC-SHA256 over the exact
    /// `<content>` bytes received, signed within the skew window.
    private func createSession(_ request: PlatformRequest) throws(Failure) -> HTTPResponseMessage {
        let child = try Self.anonymousApplication(request.header)
        guard let application = state.current.applications[child], application.instance == request.instance else {
            throw Failure(.invalidApplication, "the application does not exist in this instance")
        }
        let credential = HealthVaultWire.find(request.info, "auth-info/credential/appserver2")
        guard let content = HealthVaultWire.region(request.body, "content"),
            let signature = credential.flatMap({ HealthVaultWire.text($0, "hmacSig") })
        else { throw Failure(.invalidXML, "auth-info/credential/appserver2 needs hmacSig and content") }
        guard credential?.child("hmacSig")?.attribute("algName") == "HMACSHA256" else {
            throw Failure(.badSignature, "hmacSig must be HMACSHA256")
        }
        let multiRecord = HealthVaultWire.find(request.info, "auth-info/app-id")?.attribute("is-multi-record-app")
        if let multiRecord, !["true", "false"].contains(multiRecord) {
            throw Failure(.invalidXML, "is-multi-record-app is a boolean")
        }
        let expected = Data(CryptoPrimitives.hmacSHA256(key: application.secret, message: content))
            .base64EncodedString()
        guard CryptoPrimitives.constantTimeEqual(Array(expected.utf8), Array(signature.utf8)) else {
            throw Failure(.badSignature, "the hmacSig does not match the content")
        }
        guard let parsed = try? XMLTree.parse(Data(content)) else {
            throw Failure(.badSignature, "the signed content is not XML")
        }
        guard HealthVaultWire.text(parsed.root, "app-id") == child,
            HealthVaultWire.text(parsed.root, "hmac") == "HMACSHA256"
        else { throw Failure(.badSignature, "the signed content names another application or algorithm") }
        let signingTime = try HealthVaultWire.time(HealthVaultWire.text(parsed.root, "signing-time"))
        let now = now
        guard abs(now.timeIntervalSince(signingTime)) <= settings.skew else {
            throw Failure(.badSignature, "the signing time is outside the allowed window")
        }
        let token = Data(core.random.bytes(count: 49)).base64EncodedString()
        let secret = core.random.bytes(count: 32)
        state.withValue { state in
            state.sessions[token] = .init(application: child, secret: secret, instance: request.instance, created: now)
        }
        return HealthVaultWire.respond(
            info: "<token app-id=\"\(child)\" app-record-auth-action=\"NoActionRequired\">\(XMLText.escaped(token))"
                + "</token><shared-secret>\(Data(secret).base64EncodedString())</shared-secret>",
            method: "CreateAuthenticatedSessionToken", version: 2)
    }

    /// Checks a signed request's session, info hash and HMAC; returns the session's application.
    func authenticatedSession(_ request: PlatformRequest) throws(Failure) -> String {
        guard let token = HealthVaultWire.text(request.header, "auth-session/auth-token") else {
            throw Failure(.invalidXML, "authenticated methods carry auth-session")
        }
        let snapshot = state.current
        guard let session = snapshot.sessions[token], session.instance == request.instance else {
            throw Failure(.invalidToken, "unknown session token")
        }
        let mac = HealthVaultWire.find(request.root, "auth/hmac-data")
        let hash = HealthVaultWire.find(request.header, "info-hash/hash-data")
        guard let headerBytes = HealthVaultWire.region(request.body, "header"),
            let infoBytes = HealthVaultWire.region(request.body, "info"), let mac, let hash
        else { throw Failure(.invalidXML, "signed requests need auth/hmac-data and header/info-hash") }
        guard mac.attribute("algName") == "HMACSHA256", hash.attribute("algName") == "SHA256" else {
            throw Failure(.badSignature, "hmac-data must be HMACSHA256 and hash-data SHA256")
        }
        let infoHash = Data(CryptoPrimitives.sha256(infoBytes)).base64EncodedString()
        guard CryptoPrimitives.constantTimeEqual(Array(infoHash.utf8), Array(hash.text.utf8)) else {
            throw Failure(.badSignature, "the info-hash does not match the info")
        }
        let headerMAC = Data(CryptoPrimitives.hmacSHA256(key: session.secret, message: headerBytes))
            .base64EncodedString()
        guard CryptoPrimitives.constantTimeEqual(Array(headerMAC.utf8), Array(mac.text.utf8)) else {
            throw Failure(.badSignature, "the hmac-data does not match the header")
        }
        if session.expired || now >= session.created.addingTimeInterval(snapshot.settings.sessionLifetime) {
            throw Failure(.sessionExpired, "The authenticated session token has expired.")
        }
        guard let application = snapshot.applications[session.application] else {
            throw Failure(.invalidApplication, "the application no longer exists")
        }
        if application.revoked { throw Failure(.accessDenied, "Access is denied.") }
        return session.application
    }
}
