import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth

/// Koppeltaal mobile launch: the portal's backend asks for an activation code, the app redeems it, calls FHIR,
/// refreshes its token, and revokes it.
struct KoppeltaalJourney {
    let options: DemoOptions

    func run(_ steps: StepPrinter) async {
        steps.journey("Koppeltaal mobile launch")
        guard let fhir = options.koppeltaalFHIR, let launch = options.koppeltaalLaunch,
            let portal = options.koppeltaalPortal
        else {
            return say(
                "  – skipped: set --koppeltaal-fhir, --koppeltaal-launch and --koppeltaal-portal (or --emulator)")
        }
        let policy = URLPolicy(allowsInsecureLoopback: options.allowsInsecureLoopback)
        let clock = DemoClock()
        let backend = KoppeltaalBackend(
            configuration: .init(
                launchURL: launch, credentials: BasicCredentials(username: portal.user, password: portal.password),
                urlPolicy: policy
            ))
        let session = KoppeltaalSession(
            configuration: .init(
                registration: OAuthRegistration(
                    baseURL: fhir,
                    client: OAuthClientCredentials(
                        clientID: options.koppeltaalClientID, secret: options.koppeltaalClientSecret,
                        method: .unencodedBasic),
                    redirectURI: options.koppeltaalRedirect,
                    endpoints: EndpointOverrides(revocation: options.koppeltaalRevoke)),
                session: OAuthSessionSettings(
                    store: InMemoryCredentialStore(), options: ClientOptions(urlPolicy: policy), clock: clock)))
        guard
            let activation = await steps.step(
                "MobileLaunch",
                {
                    let code = try await backend.mobileLaunch(
                        clientID: options.koppeltaalClientID, patient: options.koppeltaalPatient,
                        user: options.koppeltaalUser, resource: options.koppeltaalClientID
                    )
                    return (code, "activation code \(Redaction.placeholder), valid for \(code.validityInDays) days")
                })
        else { return }
        guard
            await steps.step(
                "activate",
                {
                    let context = try await session.activate(code: activation.code)
                    return "launched for \(context.patient ?? "?") with scope \(context.scope ?? "?")"
                })
        else { return }
        guard await steps.step("FHIR call", { "HTTP \(try await Self.messages(session)) with the access token" }) else {
            return
        }
        await steps.step("refresh") {
            guard case .active(_, let expiresAt?) = try await session.status() else {
                throw DemoError("the server gave no token lifetime")
            }
            clock.jump(to: expiresAt)
            let status = try await Self.messages(session)
            guard case .active(_, let renewed?) = try await session.status(), renewed > expiresAt else {
                throw DemoError("the token was not refreshed")
            }
            return
                "at expiry the token was refreshed (the FHIR call answered HTTP \(status)); the new one lasts until \(DateTimeText.format(renewed))"
        }
        await steps.step("revoke") {
            "\(try await session.revoke()); the grant is forgotten: \(try await session.status())"
        }
    }

    private static func messages(_ session: KoppeltaalSession) async throws -> Int {
        var query = FormFields()
        query.append("_query", "MessageHeader.GetNextNewAndClaim")
        return try await session.fhir(ResourcePath("MessageHeader", "_search"), query: query).status
    }
}

/// The system clock, which the demo can move forward to show a token expiring without waiting for it.
final class DemoClock: TimeSource, @unchecked Sendable {
    // @unchecked: `offset` is only read or written while `lock` is held.
    private let lock = NSLock()
    private var offset: TimeInterval = 0

    func now() -> Date {
        lock.lock()
        defer { lock.unlock() }
        return Date().addingTimeInterval(offset)
    }

    /// Moves the clock to `date` (or keeps it if it is already later).
    func jump(to date: Date) {
        lock.lock()
        defer { lock.unlock() }
        offset = max(offset, date.timeIntervalSinceNow)
    }
}
