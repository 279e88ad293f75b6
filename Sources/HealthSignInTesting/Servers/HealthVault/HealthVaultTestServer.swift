import Foundation
import HealthSignInCore

/// A HealthVault platform and Shell in the test process, speaking the emulator's wire (`Tests/Emulator/healthvault.py`):
/// NewApplicationCreationInfo, GetServiceDefinition, CreateAuthenticatedSessionToken (whose HMAC it checks over the
/// exact bytes received), and the signed methods GetAuthorizedPeople (paged), GetPersonInfo, GetThings, PutThings and
/// RemoveApplicationRecordAuthorization, each checked for header order, message time, info hash and HMAC; and the
/// Shell's sign-in page, which a ``TestUserBrowser`` answers.
///
/// ```swift
/// let server = HealthVaultTestServer()
/// let page = try await connection.provision(masterAppID: HealthVaultTestServer.masterApplicationID)
/// try await connection.authorize(page, with: server.browser(.approve))
/// server.expireSessions()          // status 65: the connection renews its session
/// server.revokeAuthorization()     // status 11: the user must authorize again
/// ```
///
/// Instance `1` (US) and instance `2` (EU) live under ``baseURL``: the platform at `<baseURL>/<instance>/platform/
/// wildcat.ashx`, the Shell at `<baseURL>/shell/<instance>`. The user's account is in ``Settings/shellInstance``; a
/// page opened on another instance's Shell bounces there (when it carries `aib=true`) and completes on that Shell.
public final class HealthVaultTestServer: TestServer {
    /// The master application apps provision child instances under.
    public static let masterApplicationID = UUID(uuidString: "6556d00c-cb8d-4004-90d6-8be528420ff7")!
    static let instances = ["1": "US", "2": "EU"]

    /// How the server behaves.
    public struct Settings: Sendable, Hashable {
        /// How many people (each with one record) authorized every application.
        public var people = 3
        /// The page size of GetAuthorizedPeople when the request names none.
        public var pageSize = 2
        /// The clock skew allowed either side of a message time and a signing time, in seconds.
        public var skew: TimeInterval = 300
        /// How far the server's clock runs ahead of the one it was given (negative: behind), in seconds.
        public var clockOffset: TimeInterval = 0
        /// The largest `msg-ttl` accepted, in seconds.
        public var maximumTimeToLive: TimeInterval = 3600
        /// How long a session lasts before status 65, in seconds.
        public var sessionLifetime: TimeInterval = 4 * 3600
        /// The instance that holds the user's account, where a new application is created. A Shell of another
        /// instance bounces the user to this one's (a redirect to its `redirect.aspx`, when the page carries
        /// `aib=true`), and the page completes on this instance's Shell.
        public var shellInstance = "1"
        /// The name of the instance parameter in the Shell's return (`instanceid`, or a variant).
        public var instanceIDKey = "instanceid"
        /// Whether an APPAUTH return names only the target.
        public var appAuthReturnsOnlyTheTarget = false
        /// Where the Shell returns instead of its completion page (the app's action URL).
        public var actionURL: String?
        /// The most things GetThings returns in full; the rest come back as keys.
        public var maximumFullThings = 240
        /// Whether GetThings adds a thing nobody asked for to every group that selects by key.
        public var addsUnrequestedThing = false
        /// Whether GetThings puts a group of its own before the groups asked for.
        public var addsExtraGroup = false

        /// The defaults, which the emulator has too.
        public init() {}
    }

    /// One authorization an application released (RemoveApplicationRecordAuthorization).
    public struct ReleasedAuthorization: Sendable, Hashable {
        /// The application that released it.
        public let applicationID: String
        /// The record.
        public let recordID: String
    }

    /// The origin and root the server answers under, such as `https://healthvault.test`.
    public let baseURL: URL
    let core: TestServerCore<Operation>
    let state = LockedValue(HealthVaultServerState())

    /// Creates a server under `baseURL`.
    ///
    /// - Parameters:
    ///   - baseURL: where the server answers; the platform of instance `1` is `<baseURL>/1/platform/wildcat.ashx`.
    ///   - clock: the time message times and sessions are checked against; a ``ManualClock`` lets a test move it.
    ///   - random: where ids, secrets and tokens come from; a ``SeededRandomSource`` makes them the same on every run.
    public init(
        baseURL: URL = URL(string: "https://healthvault.test")!, clock: any TimeSource = SystemClock(),
        random: any RandomSource = SystemRandomSource()
    ) {
        self.baseURL = baseURL
        core = TestServerCore(origins: [baseURL], clock: clock, random: random)
    }

    /// The platform of `instance`: `<baseURL>/<instance>/platform/wildcat.ashx`.
    public func platformURL(instance: String = "1") -> URL {
        baseURL.appendingPathComponent(instance).appendingPathComponent("platform/wildcat.ashx")
    }

    /// The Shell of `instance`: `<baseURL>/shell/<instance>`.
    public func shellURL(instance: String = "1") -> URL {
        baseURL.appendingPathComponent("shell").appendingPathComponent(instance)
    }

    /// A browser whose user answers the Shell's page with `decision`.
    public func browser(_ decision: TestUserDecision = .approve) -> TestUserBrowser {
        TestUserBrowser(transport: transport, decision: decision)
    }

    /// How the server behaves; change it at any time.
    public var settings: Settings {
        get { state.current.settings }
        set { state.withValue { $0.settings = newValue } }
    }

    /// The time on the server's clock, with the settings' offset.
    var now: Date { core.now.addingTimeInterval(settings.clockOffset) }

    /// Expires every session: the next signed call gets status 65 and the connection creates a new session.
    public func expireSessions() {
        state.withValue { state in
            for token in state.sessions.keys { state.sessions[token]?.expired = true }
        }
    }

    /// Revokes every application's access, as the user does in HealthVault's account settings: signed calls get
    /// status 11 (ACCESS_DENIED) until the user authorizes again at APPAUTH.
    public func revokeAuthorization() {
        state.withValue { state in
            for id in state.applications.keys { state.applications[id]?.revoked = true }
        }
    }

    /// Deletes every application instance: the next session gets status 6 (INVALID_APP) and the app must provision
    /// again.
    public func deleteApplications() { state.withValue { $0.applications.removeAll() } }

    /// Registers an application instance that already exists (its id, its shared secret as Base64, the instance it
    /// was authorized in), for a test that starts from stored credentials or replays recorded requests.
    public func registerApplication(id: UUID, sharedSecret: String, instance: String = "1") {
        let secret = Data(base64Encoded: sharedSecret).map(Array.init) ?? []
        let child = id.uuidString.lowercased()
        state.withValue { state in
            state.applications[child] = .init(
                master: Self.masterApplicationID.uuidString.lowercased(), secret: secret, creationToken: "",
                instance: instance)
        }
    }

    /// Opens a session of an application that already exists (its token, its shared secret as Base64), for a test
    /// that replays recorded requests.
    public func openSession(token: String, sharedSecret: String, applicationID: UUID, instance: String = "1") {
        let secret = Data(base64Encoded: sharedSecret).map(Array.init) ?? []
        let created = now
        state.withValue { state in
            state.sessions[token] = .init(
                application: applicationID.uuidString.lowercased(), secret: secret, instance: instance,
                created: created)
        }
    }

    /// The ids of the people authorized for the application (lowercased UUIDs), in paging order.
    public func authorizedPeople(of applicationID: UUID) -> [String] {
        state.current.people(of: applicationID.uuidString.lowercased()).map(\.id)
    }

    /// The records each application the user authorized may still read, by application id (lowercased UUIDs).
    public var authorizedRecords: [String: [String]] {
        let snapshot = state.current
        var records: [String: [String]] = [:]
        for (id, application) in snapshot.applications where application.instance != nil {
            records[id] = snapshot.people(of: id).map(\.record)
        }
        return records
    }

    /// Every authorization released, in order.
    public var releasedAuthorizations: [ReleasedAuthorization] {
        state.current.released.map { ReleasedAuthorization(applicationID: $0.application, recordID: $0.record) }
    }

    /// How many things the server stores, over every record.
    public var storedThings: Int { state.current.things.values.reduce(0) { $0 + $1.count } }

    /// How many application instances exist.
    public var applicationCount: Int { state.current.applications.count }

    /// How many sessions were created.
    public var sessionCount: Int { state.current.sessions.count }
}

extension HealthVaultTestServer: InProcessServer {
    func operation(of request: ReceivedRequest) -> Operation? {
        let segments = segments(of: request)
        switch (request.method, segments.count) {
        case (.post, 3) where segments[1] == "platform" && segments[2] == "wildcat.ashx":
            return .platform(request.body)
        case (.get, 3) where segments[0] == "shell" && segments[2] == "redirect.aspx": return .shell
        case (.post, 4) where segments[0] == "shell" && segments[2] == "redirect.aspx" && segments[3] == "decision":
            return .shellDecision
        case (.get, 4) where segments[0] == "shell" && segments[2] == "application" && segments[3] == "complete":
            return .shellComplete
        default:
            return nil
        }
    }

    func handle(_ request: ReceivedRequest, as operation: Operation) -> Handled {
        let segments = segments(of: request)
        switch operation {
        case .shell: return Handled(shell(request, instance: segments[1]))
        case .shellDecision: return Handled(decide(request))
        case .shellComplete: return Handled(.text(200, "<html>You can close this window.</html>", type: "text/html"))
        default: return platform(request, instance: segments[0])
        }
    }

    /// The segments of the request's path below the base URL's (none when it is not under it).
    private func segments(of request: ReceivedRequest) -> [String] {
        let base = baseURL.path == "/" ? "" : baseURL.path
        guard request.path.hasPrefix(base + "/") else { return [] }
        return request.path.dropFirst(base.count + 1).split(separator: "/", omittingEmptySubsequences: false)
            .map(String.init)
    }

    /// The server's root as the request reached it.
    func root(of request: ReceivedRequest) -> String {
        (TestServerNames.origin(request.message.url) ?? "") + (baseURL.path == "/" ? "" : baseURL.path)
    }
}
