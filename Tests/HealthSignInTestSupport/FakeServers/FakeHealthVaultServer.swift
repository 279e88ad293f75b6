import Foundation
import HealthSignInCore

/// A HealthVault platform for lifecycle tests, answering on any URL: NewApplicationCreationInfo (a new child
/// application each time), GetServiceDefinition (one instance, `1`), CreateAuthenticatedSessionToken (a new session
/// for the application each time) and GetAuthorizedPeople, which answers status 65 unless the request carries the
/// application's current, unexpired session; its one person has the record ``recordID``. GetThings (record-scoped)
/// answers an empty group for that session and RemoveApplicationRecordAuthorization a bare status 0, both status 10
/// unless the request names the record and the person.
/// Signatures are not checked.
public final class FakeHealthVaultServer: Sendable {
    /// The instance's platform URL.
    public static let platformURL = URL(string: "https://hv.example/platform/wildcat.ashx")!
    /// The instance's Shell URL.
    public static let shellURL = URL(string: "https://shell.hv.example/")!

    private struct State {
        var applications = 0
        /// The current session number of each application, and whether it expired.
        var sessions: [Int: (number: Int, expired: Bool)] = [:]
        var calls: [String] = []
    }

    private let state = LockedValue(State())

    /// Creates a server with no applications.
    public init() {}

    /// The id of the `number`th child application created (from 1).
    public static func applicationID(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!
    }

    /// `session.<application>.<number>`
    public static func sessionToken(application: Int, number: Int) -> String { "session.\(application).\(number)" }

    /// The application and session number a session token names, or nil.
    public static func session(of token: String) -> (application: Int, number: Int)? {
        let parts = token.split(separator: ".")
        guard parts.count == 3, parts[0] == "session", let application = Int(parts[1]), let number = Int(parts[2])
        else { return nil }
        return (application, number)
    }

    /// The one person's id.
    public static let personID = UUID(uuidString: "cc5e5771-4da7-4961-a758-d7714223d9ab")!
    /// The one person's record.
    public static let recordID = UUID(uuidString: "9c863988-e2aa-440e-8c11-7ba4750ba4c8")!

    /// The completion URL Shell would redirect to after the user authorized the `number`th application.
    public static func completion(_ number: Int) -> URL {
        URL(
            string:
                "https://shell.hv.example/application/complete?appid=\(applicationID(number).uuidString.lowercased())&target=AppAuthSuccess&instanceid=1"
        )!
    }

    /// The methods called, in order.
    public var calls: [String] { state.current.calls }

    /// How many times `method` was called.
    public func count(_ method: String) -> Int { calls.filter { $0 == method }.count }

    /// Makes every current session expire.
    public func expireSessions() {
        state.withValue { state in
            for key in state.sessions.keys { state.sessions[key]?.expired = true }
        }
    }

    /// Answers one request.
    public func answer(_ request: HTTPRequestMessage) -> HTTPResponseMessage {
        let body = String(decoding: request.body ?? Data(), as: UTF8.self)
        let method = Self.element("method", in: body) ?? ""
        state.withValue { $0.calls.append(method) }
        let info: String
        switch method {
        case "NewApplicationCreationInfo":
            let number = state.withValue { state -> Int in
                state.applications += 1
                return state.applications
            }
            info = Self.ok(
                method,
                "<app-id>\(Self.applicationID(number).uuidString.lowercased())</app-id>"
                    + "<shared-secret>AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=</shared-secret><app-token>creation-\(number)</app-token>"
            )
        case "GetServiceDefinition":
            info = Self.ok(
                "GetServiceDefinition2",
                "<instances><instance><id>1</id><name>US</name>"
                    + "<platform-url>\(Self.platformURL.absoluteString)</platform-url><shell-url>\(Self.shellURL.absoluteString)</shell-url></instance></instances>"
            )
        case "CreateAuthenticatedSessionToken":
            guard let application = Self.applicationNumber(in: body) else { return Self.status(6) }
            let number = state.withValue { state -> Int in
                let next = (state.sessions[application]?.number ?? 0) + 1
                state.sessions[application] = (next, false)
                return next
            }
            info = Self.ok(
                "CreateAuthenticatedSessionToken2",
                "<token>\(Self.sessionToken(application: application, number: number))</token>"
                    + "<shared-secret>AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=</shared-secret>")
        default:
            guard let token = Self.element("auth-token", in: body), let session = Self.session(of: token),
                state.withValue({ $0.sessions[session.application] }).map({ $0.number == session.number && !$0.expired }
                ) == true
            else {
                return Self.status(65)
            }
            if method == "GetThings" || method == "RemoveApplicationRecordAuthorization" {
                guard Self.element("record-id", in: body) == Self.recordID.uuidString.lowercased(),
                    Self.element("offline-person-id", in: body) == Self.personID.uuidString.lowercased()
                else { return Self.status(10) }
                guard method == "GetThings" else {
                    return HTTPResponseMessage(
                        status: 200, body: Data("<response><status><code>0</code></status></response>".utf8))
                }
                info = Self.ok("GetThings3", #"<group name="q" />"#)
            } else {
                info = Self.ok(
                    "GetAuthorizedPeople",
                    "<response-results><person-info><person-id>cc5e5771-4da7-4961-a758-d7714223d9ab</person-id><name>A</name>"
                        + #"<record id="9c863988-e2aa-440e-8c11-7ba4750ba4c8" rel-type="1" display-name="Jane">Jane Doe</record>"#
                        + "</person-info><more-results>false</more-results></response-results>")
            }
        }
        return HTTPResponseMessage(status: 200, body: Data(info.utf8))
    }

    private static func ok(_ namespace: String, _ info: String) -> String {
        "<response><status><code>0</code></status><wc:info xmlns:wc=\"urn:com.microsoft.wc.methods.response.\(namespace)\">\(info)</wc:info></response>"
    }

    private static func status(_ code: Int) -> HTTPResponseMessage {
        HTTPResponseMessage(
            status: 200,
            body: Data(
                "<response><status><code>\(code)</code><error><message>status \(code)</message></error></status></response>"
                    .utf8))
    }

    private static func element(_ name: String, in body: String) -> String? {
        guard let start = body.range(of: "<\(name)>"),
            let end = body.range(of: "</\(name)>", range: start.upperBound..<body.endIndex)
        else { return nil }
        return String(body[start.upperBound..<end.lowerBound])
    }

    /// The child application a session request is signed for (the `<app-id>` inside `<content>`).
    private static func applicationNumber(in body: String) -> Int? {
        guard let content = body.range(of: "<content>"),
            let id = element("app-id", in: String(body[content.upperBound...]))
        else { return nil }
        return Int(id.suffix(12))
    }
}
