import Foundation
import HealthSignInKoppeltaal2
import Hummingbird

/// A Koppeltaal 2.0 module's server: the SDK's parts, made once at start, behind four routes.
///
/// - `GET /.well-known/jwks.json`: the module's public keys, which the auth service checks its assertions with.
/// - `POST /launch`: an HTI launch from a portal; the user is sent to SHOF, the pending request kept in a cookie.
/// - `GET /shof`: the user back from the identity provider; the page shows their task.
/// - `POST /notifications`: the rest-hook of the module's Subscription; completed tasks are looked up after answering.
public struct Module: Sendable {
    /// The settings the module was made with.
    public let settings: ModuleSettings
    /// The backend client: the domain's endpoints and the module's token.
    public let backend: Koppeltaal2BackendClient
    /// FHIR on the module's token.
    public let fhir: Koppeltaal2FHIRClient
    /// The completed tasks the notifications led to, in the order found.
    public let completedTasks = CompletedTasks()
    private let keys: Koppeltaal2KeySet
    private let launches: HTILaunchReceiver
    private let signIn: SHOFSignIn
    private let notifications: KT2NotificationReceiver

    /// The module's parts.
    ///
    /// - Throws: `JOSEError` for a key the module cannot sign or publish with.
    public init(settings: ModuleSettings, transport: any HTTPTransport = DefaultHTTPTransport()) throws {
        self.settings = settings
        let options = ClientOptions(
            transport: transport, urlPolicy: URLPolicy(allowsInsecureLoopback: settings.allowsLoopbackHTTP))
        // RS512 for an RSA key, ES384 for an EC one: the algorithms a Koppeltaal 2.0 auth service takes.
        let algorithm: JWSAlgorithm = settings.key.keyType == .ec ? .es384 : .rs512
        backend = Koppeltaal2BackendClient(
            configuration: .init(
                clientID: settings.clientID,
                signer: try Koppeltaal2BackendClient.signer(key: settings.key, algorithm: algorithm),
                fhirBaseURL: settings.fhirBaseURL, trustedHosts: settings.trustedHosts, options: options))
        fhir = Koppeltaal2FHIRClient(backend: backend)
        keys = try Koppeltaal2KeySet(keys: [settings.key])
        // The user signs in with SHOF next, where the auth service checks the launch token and spends its jti.
        launches = HTILaunchReceiver(
            configuration: .init(
                deviceReference: settings.device, trustedFHIRBaseURL: settings.fhirBaseURL, verification: .signIn))
        signIn = SHOFSignIn(backend: backend, redirectURI: settings.redirectURI, requestSealing: settings.sealing)
        notifications = KT2NotificationReceiver(header: "X-KTSubscription", value: settings.subscriptionSecret)
    }

    /// The line a Subscription of this module carries in `channel.header`.
    public var subscriptionHeader: String { notifications.channelHeader }

    /// The module's routes.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/.well-known/jwks.json") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "public, max-age=60"],
                body: .init(byteBuffer: ByteBuffer(data: keys.document())))
        }
        router.post("/launch") { request, _ in try await launch(request) }
        router.get("/shof") { request, _ in try await signedIn(request) }
        router.post("/notifications") { request, _ in try await notified(request) }
        return router
    }

    private func launch(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 * 1024)
        let launch: HTILaunch
        do {
            launch = try await launches.receive(FormFields(formEncoded: String(buffer: body)))
        } catch let refusal as HTILaunchError {
            throw HTTPError(.badRequest, message: refusal.description)
        }
        let (url, pending) = try await signIn.start(launch)
        var response = Response(status: .seeOther, headers: [.location: url.absoluteString])
        response.setCookie(
            Cookie(
                name: "shof", value: pending.sealed, maxAge: 600, path: "/shof", secure: true, httpOnly: true,
                sameSite: .lax))
        return response
    }

    private func signedIn(_ request: Request) async throws -> Response {
        guard let kept = request.cookies["shof"]?.value,
            let redirect = URL(string: settings.redirectURI + "?" + (request.uri.query ?? ""))
        else { throw HTTPError(.badRequest, message: "no sign-in is under way in this browser") }
        let user: SHOFUser
        do {
            user = try await signIn.finish(redirect, pending: SHOFPendingAuthorization(sealed: kept))
        } catch let refusal as SHOFError {
            throw HTTPError(.forbidden, message: refusal.description)
        }
        let taskID = String(user.resource.dropFirst("Task/".count))
        let task = try await fhir.read(KT2Task.self, id: taskID).resource
        let page = """
            <!doctype html><title>Your task</title>
            <h1>\(Self.escaped(user.resource))</h1>
            <p>Status: \(Self.escaped(task.status.rawValue))</p>
            <p>For \(Self.escaped(task.for.reference ?? "")), signed in as \(Self.escaped(user.subject))</p>
            """
        var response = Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: page)))
        response.setCookie(Cookie(name: "shof", value: "", maxAge: 0, path: "/shof"))
        return response
    }

    private func notified(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 1024)
        let trace: KT2Trace
        do {
            trace = try notifications.accept(body: Data(buffer: body)) { name in
                request.headers.first { $0.name.canonicalName == name.lowercased() }?.value
            }
        } catch KT2NotificationError.unauthenticated {
            return Response(status: .unauthorized)
        } catch {
            return Response(status: .badRequest)
        }
        // The server does not wait for the module's work: answer first, search after.
        Task { [fhir, completedTasks] in
            for try await page in fhir.search(KT2Task.self, ["status": "completed"], trace: trace) {
                await completedTasks.add(page.resources.compactMap(\.resource.id))
            }
        }
        return Response(status: .noContent)
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// The completed tasks a module found after its notifications.
public actor CompletedTasks {
    /// The task ids, each once, in the order found.
    public private(set) var ids: [String] = []

    func add(_ found: [String]) {
        for id in found where !ids.contains(id) { ids.append(id) }
    }
}
