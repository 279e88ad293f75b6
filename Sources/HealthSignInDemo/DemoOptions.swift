import Foundation
import HealthSignInCore
import HealthSignInVital

/// Where the demo's servers are and which credentials it uses; every value is a flag.
struct DemoOptions {
    static let allJourneys: Set<String> = ["healthvault", "koppeltaal", "vital", "smart", "koppeltaal2"]

    var journeys = allJourneys
    var allowsInsecureLoopback = false
    var shell = ShellMode.prompt

    var healthVaultPlatform = URL(string: "https://platform.healthvault-ppe.com/platform/wildcat.ashx")!
    var healthVaultShell = URL(string: "https://account.healthvault-ppe.com")!
    var masterApplicationID: UUID?

    var koppeltaalFHIR: URL?
    var koppeltaalLaunch: URL?
    var koppeltaalRevoke: URL?
    var koppeltaalPortal: (user: String, password: String)?
    var koppeltaalClientID = ""
    var koppeltaalClientSecret: String?
    var koppeltaalRedirect = ""
    var koppeltaalPatient = "https://demo.example/Patient/1"
    var koppeltaalUser = "https://demo.example/RelatedPerson/1"

    var vitalAPI: URL?
    var vitalAuth: URL?
    var vitalTeamKey: String?
    var vitalEnvironment = VitalEnvironment(.sandbox, .us)

    var smartFHIR: URL?
    var smartClientID = ""
    var smartRedirect = ""
    var smartScope = "launch/patient openid fhirUser offline_access patient/*.rs"
    var smartPrompt: String?
    var smartIDTokenAlgorithms: Set<JWSAlgorithm> = [.rs256]
    var smartBackendClientID: String?
    var smartBackendKey: String?
    var smartBackendScope = "system/*.rs"

    var koppeltaal2FHIR: URL?
    var koppeltaal2Module: (clientID: String, key: String)?
    var koppeltaal2Portal: (clientID: String, key: String)?
    var koppeltaal2Redirect = ""
    var koppeltaal2Patient = "Patient/demo-patient"
    /// The emulator, when it is the server: its control endpoints set up what a real server's users and
    /// administrators would have (Koppeltaal 2.0's applications, the instance a HealthVault user's account is in).
    var emulator: URL?

    /// How the HealthVault Shell page, which a person completes in a browser, is answered.
    enum ShellMode: String {
        /// Print the page and read the URL the browser ended on from standard input.
        case prompt
        /// Load the page and take its redirect, as the emulator grants at once (`RedirectFollowingBrowser`).
        case auto
    }

    static let usage = """
        usage: HealthSignInDemo [--emulator URL | server and credential flags]
                                [--only healthvault,koppeltaal,vital,smart,koppeltaal2]

        Walks the HealthVault, Koppeltaal, Vital, SMART and Koppeltaal 2.0 journeys against real or emulated servers,
        printing each step; exits 1 when a step fails, 2 for bad flags or when no journey has what it needs to run.

          --emulator URL                  the protocol emulator's base URL: sets every flag below for it
          --allow-insecure-loopback       allow plain http to this machine
          --shell prompt|auto             how the HealthVault Shell and SMART authorization pages are completed
                                          (default: prompt)
          --healthvault-platform URL      --healthvault-shell URL      --healthvault-master-app UUID
          --koppeltaal-fhir URL           --koppeltaal-launch URL      --koppeltaal-portal USER:PASSWORD
          --koppeltaal-client ID          --koppeltaal-secret SECRET   --koppeltaal-redirect URI
          --koppeltaal-patient URL        --koppeltaal-user URL        --koppeltaal-revoke URL (when not discovered)
          --vital-api URL                 --vital-auth URL             --vital-team-key KEY
          --vital-environment TIER/REGION (default: sandbox/us)
          --smart-fhir URL                --smart-client ID            --smart-redirect URI
          --smart-scope SCOPES            (default: launch/patient openid fhirUser offline_access patient/*.rs)
          --smart-prompt PROMPT           OpenID Connect's prompt, e.g. login (default: consent with offline
                                          access and openid; an empty value sends none)
          --smart-id-token-algorithms LIST  the accepted id token algorithms, e.g. RS256,ES256 (default: RS256)
          --smart-backend-client ID       --smart-backend-key JWK (a private ES384 or RS384 JSON Web Key)
          --smart-backend-scope SCOPES    (default: system/*.rs)
          --koppeltaal2-fhir URL          --koppeltaal2-redirect URI   --koppeltaal2-patient REFERENCE
          --koppeltaal2-module ID         --koppeltaal2-module-key JWK (a private ES384, RS384 or RS512 key)
          --koppeltaal2-portal ID         --koppeltaal2-portal-key JWK (a private key the domain knows the portal by)
        """

    struct Invalid: Error, CustomStringConvertible {
        let message: String
        var description: String { message + "\n\n" + DemoOptions.usage }
    }

    init(_ arguments: ArraySlice<String>) throws {
        var rest = arguments
        while let flag = rest.popFirst() {
            if flag == "--help" || flag == "-h" { throw Invalid(message: "") }
            if flag == "--allow-insecure-loopback" {
                allowsInsecureLoopback = true
                continue
            }
            guard let value = rest.popFirst() else { throw Invalid(message: "\(flag) needs a value") }
            try apply(flag, value)
        }
        if (vitalAPI == nil) != (vitalAuth == nil) {
            throw Invalid(message: "--vital-api and --vital-auth go together")
        }
    }

    private mutating func apply(_ flag: String, _ value: String) throws {
        if flag.hasPrefix("--healthvault-") { return try applyHealthVault(flag, value) }
        if flag.hasPrefix("--koppeltaal-") { return try applyKoppeltaal(flag, value) }
        if flag.hasPrefix("--vital-") { return try applyVital(flag, value) }
        if flag.hasPrefix("--smart-") { return try applySMART(flag, value) }
        if flag.hasPrefix("--koppeltaal2-") { return try applyKoppeltaal2(flag, value) }
        switch flag {
        case "--emulator": try useEmulator(try Self.url(flag, value))
        case "--only":
            journeys = Set(value.split(separator: ",").map(String.init))
            let unknown = journeys.subtracting(Self.allJourneys)
            guard unknown.isEmpty else {
                throw Invalid(message: "--only: no journey named \(unknown.sorted().joined(separator: ", "))")
            }
        case "--shell":
            guard let mode = ShellMode(rawValue: value) else { throw Invalid(message: "--shell is prompt or auto") }
            shell = mode
        default: throw Invalid(message: "unknown option \(flag)")
        }
    }

    private mutating func applyHealthVault(_ flag: String, _ value: String) throws {
        switch flag {
        case "--healthvault-platform": healthVaultPlatform = try Self.url(flag, value)
        case "--healthvault-shell": healthVaultShell = try Self.url(flag, value)
        case "--healthvault-master-app":
            guard let id = UUID(uuidString: value) else { throw Invalid(message: "--healthvault-master-app is a UUID") }
            masterApplicationID = id
        default: throw Invalid(message: "unknown option \(flag)")
        }
    }

    private mutating func applyKoppeltaal(_ flag: String, _ value: String) throws {
        switch flag {
        case "--koppeltaal-fhir": koppeltaalFHIR = try Self.url(flag, value)
        case "--koppeltaal-launch": koppeltaalLaunch = try Self.url(flag, value)
        case "--koppeltaal-revoke": koppeltaalRevoke = try Self.url(flag, value)
        case "--koppeltaal-portal":
            let parts = value.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { throw Invalid(message: "--koppeltaal-portal is USER:PASSWORD") }
            koppeltaalPortal = (parts[0], parts[1])
        case "--koppeltaal-client": koppeltaalClientID = value
        case "--koppeltaal-secret": koppeltaalClientSecret = value
        case "--koppeltaal-redirect": koppeltaalRedirect = value
        case "--koppeltaal-patient": koppeltaalPatient = value
        case "--koppeltaal-user": koppeltaalUser = value
        default: throw Invalid(message: "unknown option \(flag)")
        }
    }

    private mutating func applyVital(_ flag: String, _ value: String) throws {
        switch flag {
        case "--vital-api": vitalAPI = try Self.url(flag, value)
        case "--vital-auth": vitalAuth = try Self.url(flag, value)
        case "--vital-team-key": vitalTeamKey = value
        case "--vital-environment":
            let parts = value.split(separator: "/").map(String.init)
            guard parts.count == 2, let tier = VitalEnvironment.Tier(rawValue: parts[0]),
                let region = VitalEnvironment.Region(rawValue: parts[1])
            else {
                throw Invalid(message: "--vital-environment is TIER/REGION, e.g. sandbox/us")
            }
            vitalEnvironment = VitalEnvironment(tier, region)
        default: throw Invalid(message: "unknown option \(flag)")
        }
    }

    private mutating func applySMART(_ flag: String, _ value: String) throws {
        switch flag {
        case "--smart-fhir": smartFHIR = try Self.url(flag, value)
        case "--smart-client": smartClientID = value
        case "--smart-redirect": smartRedirect = value
        case "--smart-scope": smartScope = value
        case "--smart-prompt": smartPrompt = value
        case "--smart-id-token-algorithms":
            let names = value.split(separator: ",").map { String($0) }
            let algorithms = names.compactMap(JWSAlgorithm.init(rawValue:))
            guard !algorithms.isEmpty, algorithms.count == names.count else {
                let known = JWSAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
                throw Invalid(message: "--smart-id-token-algorithms is a comma-separated list of \(known)")
            }
            smartIDTokenAlgorithms = Set(algorithms)
        case "--smart-backend-client": smartBackendClientID = value
        case "--smart-backend-key": smartBackendKey = value
        case "--smart-backend-scope": smartBackendScope = value
        default: throw Invalid(message: "unknown option \(flag)")
        }
    }

    private static func url(_ flag: String, _ value: String) throws -> URL {
        guard let url = URL(string: value), url.scheme != nil else {
            throw Invalid(message: "\(flag): \(value) is not a URL")
        }
        return url
    }

    private mutating func applyKoppeltaal2(_ flag: String, _ value: String) throws {
        switch flag {
        case "--koppeltaal2-fhir": koppeltaal2FHIR = try Self.url(flag, value)
        case "--koppeltaal2-redirect": koppeltaal2Redirect = value
        case "--koppeltaal2-patient": koppeltaal2Patient = value
        case "--koppeltaal2-module": koppeltaal2Module = (value, koppeltaal2Module?.key ?? "")
        case "--koppeltaal2-module-key": koppeltaal2Module = (koppeltaal2Module?.clientID ?? "", value)
        case "--koppeltaal2-portal": koppeltaal2Portal = (value, koppeltaal2Portal?.key ?? "")
        case "--koppeltaal2-portal-key": koppeltaal2Portal = (koppeltaal2Portal?.clientID ?? "", value)
        default: throw Invalid(message: "unknown option \(flag)")
        }
    }

    /// The emulator's layout and test credentials (Tests/Emulator).
    private mutating func useEmulator(_ base: URL) throws {
        let root = base.absoluteString.hasSuffix("/") ? String(base.absoluteString.dropLast()) : base.absoluteString
        func at(_ path: String) -> URL? { URL(string: root + path) }
        allowsInsecureLoopback = true
        shell = .auto
        healthVaultPlatform = at("/hv/1/platform/wildcat.ashx") ?? healthVaultPlatform
        healthVaultShell = at("/hv/shell/1") ?? healthVaultShell
        masterApplicationID = UUID(uuidString: "6556d00c-cb8d-4004-90d6-8be528420ff7")
        koppeltaalFHIR = at("/kt/FHIR/Koppeltaal")
        koppeltaalLaunch = at("/kt/OAuth2/Koppeltaal")
        koppeltaalRevoke = at("/kt/OAuth2/Koppeltaal/Revoke")
        koppeltaalPortal = ("portal", "portal-secret")
        koppeltaalClientID = "KTSTESTGAME"
        koppeltaalClientSecret = "kt-secret"
        koppeltaalRedirect = "http://127.0.0.1/after-auth"
        vitalAPI = at("/vital/api")
        vitalAuth = at("/vital/auth")
        vitalTeamKey = "sk_us_emulator"
        smartFHIR = at("/smart/fhir")
        smartClientID = "smart-public"
        smartRedirect = "http://127.0.0.1/smart/callback"
        smartBackendClientID = "smart-backend"
        // The SMART IG's example key, whose private part the IG publishes; the emulator registers its public part.
        smartBackendKey = """
            {"kty": "EC", "crv": "P-384", "kid": "afb27c284f2d93959c18fa0320e32060", "alg": "ES384",
             "x": "wcE8O55ro6aOuTf5Ty1k_IG4mTcuLiVercHouge1G5Ri-leevhev4uJzlHpi3U8r",
             "y": "mLRgz8Giu6XA_AqG8bywqbygShmd8jowflrdx0KQtM5X4s4aqDeCRfcpexykp3aI",
             "d": "WcrTiYk8jbI-Sd1sKNpqGmELWGG08bf_y9SSlnC4cpAl5GRdHHN9gKYlPvMFqiJ5"}
            """
        koppeltaal2FHIR = at("/koppeltaal2/fhir")
        koppeltaal2Redirect = "http://127.0.0.1/koppeltaal2/callback"
        emulator = base
        // The module signs with the SMART IG's published key; the portal with a key made for this demo alone.
        koppeltaal2Module = ("demo-module", smartBackendKey ?? "")
        koppeltaal2Portal = (
            "demo-portal",
            """
            {"kty": "EC", "crv": "P-384", "kid": "demo-portal-1", "alg": "ES384",
             "x": "bOF8uBtJ8_SN3SnfAYyg5kE4nbX1N7IROlRGx0AfZOZNPollucYrBVD2EpE22pOd",
             "y": "edZnhS1VRGfvF0RKP84AP084YSdZyVvIIOjMpFsBCSI9gjQQi_AFtpZLOKTGwwWF",
             "d": "rqx3YWcOHME_FLy8yLzMYRS60Wrw8Wm0VAIj2g_PPYJAxo48iXId1esU69WayGnY"}
            """
        )
    }
}
