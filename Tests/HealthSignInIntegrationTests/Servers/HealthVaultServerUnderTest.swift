import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

/// The HealthVault server a journey runs against, the emulator or the in-process one, behind the controls the
/// journeys use: the emulator's settings by name, its statistics, its faults, and the user at the Shell.
final class HealthVaultServerUnderTest: Sendable {
    let kind: ServerKind
    private let emulator: Emulator?
    private let box: LockedValue<HealthVaultTestServer?>
    private var kit: HealthVaultTestServer? { box.current }
    /// What the in-process Shell's user decides (the emulator's `shell_decision`).
    private let decision = LockedValue(TestUserDecision.approve)

    /// The shared emulator, reset, or a new in-process server.
    init(_ kind: ServerKind) async throws {
        self.kind = kind
        switch kind {
        case .emulator:
            let emulator = try Emulator.shared.get()
            try await emulator.control("reset")
            self.emulator = emulator
            box = LockedValue(nil)
        case .inProcess:
            emulator = nil
            box = LockedValue(HealthVaultTestServer())
        }
    }

    static let master = HealthVaultTestServer.masterApplicationID

    func platformURL(instance: String = "1") -> URL {
        kit?.platformURL(instance: instance) ?? url("/hv/\(instance)/platform/wildcat.ashx")
    }

    func shellURL(instance: String = "1") -> URL { kit?.shellURL(instance: instance) ?? url("/hv/shell/\(instance)") }

    private func url(_ path: String) -> URL { emulator?.url(path) ?? URL(string: "https://unused.test")! }

    var urlPolicy: URLPolicy { URLPolicy(allowsInsecureLoopback: kind == .emulator) }

    func transport(timeout: TimeInterval = 5) -> any HTTPTransport {
        kit.map { $0.transport(timeout: timeout) } ?? DefaultHTTPTransport(timeout: timeout)
    }

    /// A browser whose user answers the Shell as the server's settings say.
    var browser: any AuthorizationBrowser {
        kit.map { $0.browser(decision.current) }
            ?? RedirectFollowingBrowser(transport: DefaultHTTPTransport(timeout: 5))
    }

    /// Opens a Shell page as a browser would and returns where it redirects (the user deciding on the way).
    func visit(_ page: URL) async throws -> URL? {
        if let kit { return try await TestUserBrowser.visit(page, through: kit.transport, decision: decision.current) }
        return try await emulator?.visit(page)
    }

    /// Changes settings by the emulator's names.
    func configure(_ settings: [String: any Sendable]) async throws {
        if let emulator { return try await emulator.control("healthvault", settings).void }
        guard let kit else { return }
        var changed = kit.settings
        for (name, value) in settings {
            switch (name, value) {
            case ("people", let value as Int): changed.people = value
            case ("page_size", let value as Int): changed.pageSize = value
            case ("shell_instance", let value as String): changed.shellInstance = value
            case ("clock_offset_seconds", let value as Int): changed.clockOffset = TimeInterval(value)
            case ("appauth_minimal_return", let value as Bool): changed.appAuthReturnsOnlyTheTarget = value
            case ("action_url", let value as String): changed.actionURL = value
            case ("max_full_things", let value as Int): changed.maximumFullThings = value
            case ("unrequested_thing", let value as Bool): changed.addsUnrequestedThing = value
            case ("extra_group", let value as Bool): changed.addsExtraGroup = value
            case ("shell_decision", let value as String):
                decision.withValue { $0 = value == "grant" ? .approve : .deny }
            default: throw EmulatorError.control("healthvault", "the in-process server has no setting \(name)")
            }
        }
        kit.settings = changed
    }

    func expireSessions() async throws {
        if let emulator { return try await emulator.control("healthvault/expire-sessions").void }
        kit?.expireSessions()
    }

    func revoke() async throws {
        if let emulator { return try await emulator.control("healthvault/revoke").void }
        kit?.revokeAuthorization()
    }

    func deleteApplications() async throws {
        if let emulator { return try await emulator.control("healthvault/delete-apps").void }
        kit?.deleteApplications()
    }

    /// Calls per method.
    func calls(_ operation: HealthVaultTestServer.Operation) async throws -> Int {
        if let emulator {
            return ((try await emulator.read("healthvault/stats"))["calls"] as? [String: Int])?[operation.name] ?? 0
        }
        return kit?.ledger.count(operation) ?? 0
    }

    /// The records every released authorization named.
    func releasedRecords() async throws -> [String] {
        if let emulator {
            return ((try await emulator.read("healthvault/stats"))["removed"] as? [[String]])?.map { $0[1] } ?? []
        }
        return kit?.releasedAuthorizations.map(\.recordID) ?? []
    }

    /// The records applications are still authorized for, over every authorized application.
    func remainingAuthorizations() async throws -> [String] {
        if let emulator {
            let stats = try await emulator.read("healthvault/stats")
            return (stats["authorizations"] as? [String: [String]])?.values.flatMap { $0 } ?? []
        }
        return kit?.authorizedRecords.values.flatMap { $0 } ?? []
    }

    /// How many things the server stores.
    func storedThings() async throws -> Int {
        if let emulator {
            return ((try await emulator.read("healthvault/stats"))["things"] as? [String: Int])?.values.reduce(0, +)
                ?? 0
        }
        return kit?.storedThings ?? 0
    }
}

extension HealthVaultServerUnderTest: FaultServer {
    /// The emulator's reset, or a new in-process server.
    func reset() async throws {
        if let emulator { return try await emulator.control("reset").void }
        box.withValue { $0 = HealthVaultTestServer() }
        decision.withValue { $0 = .approve }
    }

    func inject(_ fault: TestServerFault, at endpoint: URL, count: Int = 1) async throws {
        if let emulator { return try await emulator.inject(fault, at: endpoint, count: count) }
        kit?.faults.inject(fault, at: endpoint, count: count)
    }
}
