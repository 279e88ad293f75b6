// The snippets are the documentation's code as it reads there, so formatting leaves them alone.
// swift-format-ignore-file
import Foundation
@_spi(Generated) import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInSMART
import HealthSignInVital

// The examples in the doc comments of the runtime (HealthSignInCore) and its HTTP layer (HealthSignInHTTP).

func terminalBrowserExample(session: SMARTSession) async throws -> SMARTLaunchContext {
    // snippet doc-terminal-browser
    let context = try await session.authorize(with: TerminalAuthorizationBrowser())
    // end snippet
    return context
}

// snippet doc-http-api-client
func withTimeout<Client: HTTPAPIClient>(_ client: Client, _ seconds: TimeInterval) -> Client {
    var client = client
    client.configuration.options.timeout = seconds
    return client
}
// end snippet

func httpClientConfigurationExample(url: URL, transport: any HTTPTransport) -> VitalAPIClient {
    // snippet doc-http-client-configuration
    let client = VitalAPIClient(configuration: .init(servers: .init(api: url), transport: transport))
    // end snippet
    return client
}

func logMessageExample(operation: String, status: Int) -> Bool {
    // snippet doc-log-message
    let message: LogMessage = "\(public: operation) ← HTTP \(status)"
    let isPublic = message.isPublic  // false: the status came from the server
    // end snippet
    return isPublic
}

func logSinkExample() -> ClosureLogSink {
    // snippet doc-closure-log-sink
    let sink = ClosureLogSink { record in print("[\(record.category)] \(record.message)") }
    // end snippet
    return sink
}

func pageSequenceExample(client: HealthVaultAPIClient, session: HealthVaultSessionCredential) async throws
    -> [PersonInfo]
{
    var people: [PersonInfo] = []
    // snippet doc-page-sequence
    for try await page in client.getAuthorizedPeoplePages(session: session) {
        people += page.responseResults.personInfo
    }
    // end snippet
    return people
}

// snippet doc-redacted-description
struct Invitation: RedactedDescription {
    let email: String
    let code: String
    var redactedFields: KeyValuePairs<String, Any> { ["email": email, "code": Redaction.placeholder] }
}
// "Invitation(email: a@example.com, code: <redacted>)"
// end snippet

func credentialStoresExample() throws -> any CredentialStore {
    // snippet doc-credential-stores
    let store = try CredentialStores.secure(service: "com.example.vital")
    // end snippet
    return store
}

func jsonValueExample() throws -> Bool {
    // snippet doc-json-value
    let value = try JSONValue.parse(Data(#"{"b":1.0,"a":[true,null,"x"]}"#.utf8))
    let text = value["b"]?.numberValue?.text                 // "1.0"
    let first = value["a"]?[0]?.boolValue                     // true
    let bytes = String(decoding: value.serialized(), as: UTF8.self)  // #"{"b":1.0,"a":[true,null,"x"]}"#
    // end snippet
    return text == "1.0" && first == true && bytes == #"{"b":1.0,"a":[true,null,"x"]}"#
}

func xmlFragmentExample() throws -> [UInt8] {
    // snippet doc-xml-fragment
    let document = try XMLTree.parse(Data("<r><info> <a x='1'>t&amp;u</a><!-- c --> </info></r>".utf8))
    let info = document.root.child("info")?.innerXML
    let text = info?.text                        // " <a x='1'>t&amp;u</a><!-- c --> "
    let decoded = try info?.tree().first?.text    // "t&u"

    var writer = XMLWriter()
    writer.startElement("info")
    if let info { writer.innerXML(info) }
    writer.endElement()                // writer.bytes: "<info> <a x='1'>t&amp;u</a><!-- c --> </info>"
    // end snippet
    _ = (text, decoded)
    return writer.bytes
}

func xmlWriterExample() -> [UInt8] {
    // snippet doc-xml-writer
    var writer = XMLWriter()
    writer.startElement("info")
    writer.startElement("parameters")
    writer.endElement()
    writer.endElement()
    // writer.bytes == Array("<info><parameters /></info>".utf8)
    // end snippet
    return writer.bytes
}

// snippet doc-http-client-middleware
struct Tagging: HTTPClientMiddleware {
    func intercept(
        _ request: HTTPRequestMessage, operation: OperationID,
        next: @Sendable (HTTPRequestMessage) async throws -> HTTPResponseMessage
    ) async throws -> HTTPResponseMessage {
        var request = request
        request.headers["X-Request-Source"] = "MyApp"
        return try await next(request)
    }
}
// end snippet

// snippet doc-http-transport
struct LoggingTransport: HTTPTransport {
    let base: any HTTPTransport
    func send(_ request: HTTPRequestMessage) async throws -> HTTPResponseMessage {
        print(request)                       // credentials are redacted by HTTPRequestMessage.description
        return try await base.send(request)
    }
}
// end snippet

// snippet doc-credential-policy
struct StoredTokens: Codable, Sendable, Equatable {
    var accessToken: String
    var refreshToken: String
    var expiresAt: Date
}
struct NotSignedIn: Error {}

struct TokenPolicy: CredentialPolicy {
    /// The flow's token request: the refresh token in, new tokens out, sent through the lease's transport.
    let requestTokens: @Sendable (_ refreshToken: String, _ lease: CredentialLease) async throws -> StoredTokens

    func credential(in state: StoredTokens) -> StoredTokens? { state }
    func state(_ state: StoredTokens, replacing credential: StoredTokens) -> StoredTokens { credential }
    func missingCredentialError(in state: StoredTokens?) -> any Error { NotSignedIn() }
    func needsRefresh(_ tokens: StoredTokens, at now: Date) -> Bool { tokens.expiresAt - 60 <= now }
    func refresh(_ tokens: StoredTokens, lease: CredentialLease) async throws -> StoredTokens {
        try await requestTokens(tokens.refreshToken, lease)
    }
}
// end snippet

func credentialSealingExample(keyBytes: Data, directory: URL) throws {
    // snippet doc-credential-sealing
    let sealing = try CredentialSealing(keys: ["2026-11": keyBytes], current: "2026-11")
    let store = SealedCredentialStore(try FileCredentialStore(directory: directory), sealing: sealing)
    // end snippet
    _ = store
}
