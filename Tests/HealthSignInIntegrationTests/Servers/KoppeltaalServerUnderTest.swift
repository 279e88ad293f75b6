import Foundation
import HealthSignInCore
import HealthSignInTestSupport
import XCTest

/// The Koppeltaal server a journey runs against, the emulator or the in-process one, behind the controls the
/// journeys use: the emulator's settings by name, its statistics, its faults.
final class KoppeltaalServerUnderTest: Sendable {
    let kind: ServerKind
    private let emulator: Emulator?
    private let box: LockedValue<KoppeltaalTestServer?>
    private var kit: KoppeltaalTestServer? { box.current }

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
            box = LockedValue(KoppeltaalTestServer())
        }
    }

    /// A URL below the family's root: `/kt` on the emulator, the base URL in process.
    func url(_ path: String) -> URL {
        if let emulator { return emulator.url("/kt" + path) }
        return URL(string: (kit?.baseURL.absoluteString ?? "") + path)!
    }

    var fhirBase: URL { url("/FHIR/Koppeltaal") }
    var launchBase: URL { url("/OAuth2/Koppeltaal") }
    var tokenURL: URL { url("/OAuth2/Koppeltaal/Token") }
    /// The `domain` of the launch context.
    var domain: String { kit?.domain ?? "Emulator" }

    /// Plain http to this machine for the emulator; the in-process server is https.
    var urlPolicy: URLPolicy { URLPolicy(allowsInsecureLoopback: kind == .emulator) }

    func transport(timeout: TimeInterval = 5) -> any HTTPTransport {
        kit.map { $0.transport(timeout: timeout) } ?? DefaultHTTPTransport(timeout: timeout)
    }

    /// Changes settings by the emulator's names.
    func configure(_ settings: [String: any Sendable]) async throws {
        if let emulator { return try await emulator.control("koppeltaal", settings).void }
        guard let kit else { return }
        var changed = kit.settings
        for (name, value) in settings {
            switch (name, value) {
            case ("token_lifetime", let value as Int): changed.tokenLifetime = value
            case ("activation_ttl_seconds", let value as Int): changed.activationLifetime = TimeInterval(value)
            case ("conformance_form", let value as String):
                changed.conformanceForm = try XCTUnwrap(KoppeltaalTestServer.ConformanceForm(rawValue: value))
            case ("conformance_format", let value as String):
                changed.conformanceFormat = try XCTUnwrap(KoppeltaalTestServer.ConformanceFormat(rawValue: value))
            case ("rest_as_object", let value as Bool): changed.restAsObject = value
            case ("relative_uris", let value as Bool): changed.relativeURIs = value
            case ("smart_configuration", let value as Bool): changed.smartConfiguration = value
            case ("basic_decoding", let value as String):
                changed.basicDecoding = try XCTUnwrap(KoppeltaalTestServer.BasicDecoding(rawValue: value))
            case ("outcome_shape", let value as String):
                changed.outcomeShape = try XCTUnwrap(KoppeltaalTestServer.OutcomeShape(rawValue: value))
            case ("www_authenticate", let value as Bool): changed.wwwAuthenticate = value
            case ("empty_401", let value as Bool): changed.emptyUnauthorized = value
            case ("drop_next_refresh_response", true as Bool): kit.loseNextRefreshResponse()
            default: throw EmulatorError.control("koppeltaal", "the in-process server has no setting \(name)")
            }
        }
        kit.settings = changed
    }

    func expireTokens() async throws {
        if let emulator { return try await emulator.control("koppeltaal/expire-tokens").void }
        kit?.expireAccessTokens()
    }

    /// Calls per endpoint and grant type, by the emulator's names (`Token:refresh_token`, `Authorize`).
    func calls(_ operation: KoppeltaalTestServer.Operation) async throws -> Int {
        if let emulator {
            return ((try await emulator.read("koppeltaal/stats"))["calls"] as? [String: Int])?[operation.name] ?? 0
        }
        return kit?.ledger.count(operation) ?? 0
    }

    var liveRefreshTokens: Int {
        get async throws {
            if let emulator { return try await emulator.read("koppeltaal/stats")["live_refresh_tokens"] as? Int ?? -1 }
            return kit?.liveRefreshTokens ?? -1
        }
    }

    func inject(_ fault: TestServerFault, at endpoint: URL, count: Int = 1) async throws {
        if let emulator { return try await emulator.inject(fault, at: endpoint, count: count) }
        kit?.faults.inject(fault, at: endpoint, count: count)
    }
}

extension Dictionary where Key == String {
    /// Discards a control endpoint's answer.
    var void: Void { () }
}

extension KoppeltaalServerUnderTest: FaultServer {
    /// The emulator's reset, or a new in-process server.
    func reset() async throws {
        if let emulator { return try await emulator.control("reset").void }
        box.withValue { $0 = KoppeltaalTestServer() }
    }
}
