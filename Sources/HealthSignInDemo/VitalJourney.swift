import Foundation
import HealthSignInCore
import HealthSignInVital

/// Vital sign-in token: the backend mints a token, the app signs in, reads the user's data, and signs out.
struct VitalJourney {
    let options: DemoOptions

    func run(_ steps: StepPrinter) async {
        steps.journey("Vital sign-in token")
        guard let teamKey = options.vitalTeamKey else {
            return say("  – skipped: set --vital-team-key (or --emulator)")
        }
        var hosts = VitalHostMap()
        if let api = options.vitalAPI, let auth = options.vitalAuth { hosts = .all(VitalHosts(api: api, auth: auth)) }
        let policy = URLPolicy(allowsInsecureLoopback: options.allowsInsecureLoopback)
        let backend = VitalBackend(
            configuration: .init(
                apiKey: APIKey(teamKey), environment: options.vitalEnvironment, hosts: hosts, urlPolicy: policy))
        let vital = VitalSession(
            configuration: .init(store: InMemoryCredentialStore(), hosts: hosts, urlPolicy: policy))

        guard
            let grant = await steps.step(
                "backend token",
                {
                    let grant = try await backend.signInToken(forClientUserID: "HealthSignInDemo-user")
                    return (
                        grant,
                        "\(grant.createdUser ? "created" : "found") Vital user \(grant.userID.uuidString.lowercased()); sign-in token \(Redaction.placeholder)"
                    )
                })
        else { return }
        guard
            await steps.step(
                "sign in",
                {
                    try await vital.signIn(token: grant.signInToken)
                    return
                        "status \(try await vital.status), user \(try await vital.currentUserID?.uuidString.lowercased() ?? "none")"
                })
        else { return }
        await steps.step("data call") {
            let providers = try await vital.connectedProviders()
            return
                "\(providers.count) connected \(providers.count == 1 ? "provider" : "providers"): \(providers.map(\.name).joined(separator: ", "))"
        }
        await steps.step("sign out") {
            try await vital.signOut()
            return "session and configuration erased: status \(try await vital.status)"
        }
    }
}
