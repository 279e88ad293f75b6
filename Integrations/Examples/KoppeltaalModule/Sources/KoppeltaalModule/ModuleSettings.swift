import Foundation
import HealthSignInKoppeltaal2

/// What one instance of the module needs, read from the environment:
///
/// | Variable | Meaning |
/// |---|---|
/// | `KT2_CLIENT_ID` | the module's client id in the domain |
/// | `KT2_DEVICE` | the module's Device, `Device/<id>`, which launches name as `aud` |
/// | `KT2_FHIR_URL` | the domain's FHIR base URL |
/// | `KT2_TRUSTED_HOSTS` | the auth service's hosts (`host` or `host:port`), comma-separated, when not the FHIR server's |
/// | `KT2_PRIVATE_KEY_PEM` | the module's private key in PEM |
/// | `KT2_KEY_ID` | the key's `kid` in the module's JWKS |
/// | `MODULE_URL` | where the module is reached, e.g. `https://module.example`; `/shof` under it is the redirect URI |
/// | `SHOF_SEALING_KEY` | 32 bytes in base64, the same on every instance: the key SHOF's pending requests are sealed with |
/// | `SUBSCRIPTION_SECRET` | the value of the `X-KTSubscription` header the module's Subscriptions carry |
/// | `ALLOW_LOOPBACK_HTTP` | `1` to reach a domain on plain `http` on this machine (a local emulator) |
public struct ModuleSettings: Sendable {
    /// The module's client id.
    public var clientID: String
    /// The module's Device reference.
    public var device: String
    /// The domain's FHIR base URL.
    public var fhirBaseURL: URL
    /// The auth service's hosts.
    public var trustedHosts: [String]
    /// The module's signing key.
    public var key: JSONWebKey
    /// Where the module is reached.
    public var moduleURL: URL
    /// The sealing of SHOF's pending requests.
    public var sealing: CredentialSealing
    /// The Subscription header's value.
    public var subscriptionSecret: String
    /// Whether plain `http` on this machine is allowed.
    public var allowsLoopbackHTTP: Bool

    /// The redirect URI registered for the module: `/shof` under ``moduleURL``.
    public var redirectURI: String { moduleURL.appendingPathComponent("shof").absoluteString }

    /// Settings given in code.
    public init(
        clientID: String, device: String, fhirBaseURL: URL, trustedHosts: [String], key: JSONWebKey, moduleURL: URL,
        sealing: CredentialSealing, subscriptionSecret: String, allowsLoopbackHTTP: Bool
    ) {
        self.clientID = clientID
        self.device = device
        self.fhirBaseURL = fhirBaseURL
        self.trustedHosts = trustedHosts
        self.key = key
        self.moduleURL = moduleURL
        self.sealing = sealing
        self.subscriptionSecret = subscriptionSecret
        self.allowsLoopbackHTTP = allowsLoopbackHTTP
    }

    /// The settings the environment holds.
    ///
    /// - Throws: ``Problem`` naming the first variable that is missing or unusable.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws
        -> ModuleSettings
    {
        func value(_ name: String) throws -> String {
            guard let value = environment[name], !value.isEmpty else {
                throw Problem(variable: name, problem: "not set")
            }
            return value
        }
        func url(_ name: String) throws -> URL {
            guard let url = URL(string: try value(name)) else { throw Problem(variable: name, problem: "not a URL") }
            return url
        }
        let key: JSONWebKey
        do {
            key = try JSONWebKey(pem: try value("KT2_PRIVATE_KEY_PEM"), keyID: try value("KT2_KEY_ID"))
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(variable: "KT2_PRIVATE_KEY_PEM", problem: "not a private key in PEM: \(error)")
        }
        let sealing: CredentialSealing
        do {
            guard let bytes = Data(base64Encoded: try value("SHOF_SEALING_KEY")) else {
                throw Problem(variable: "SHOF_SEALING_KEY", problem: "not base64")
            }
            sealing = try CredentialSealing(keys: ["current": bytes], current: "current")
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem(variable: "SHOF_SEALING_KEY", problem: "\(error)")
        }
        return ModuleSettings(
            clientID: try value("KT2_CLIENT_ID"), device: try value("KT2_DEVICE"), fhirBaseURL: try url("KT2_FHIR_URL"),
            trustedHosts: (environment["KT2_TRUSTED_HOSTS"] ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty },
            key: key, moduleURL: try url("MODULE_URL"), sealing: sealing,
            subscriptionSecret: try value("SUBSCRIPTION_SECRET"),
            allowsLoopbackHTTP: environment["ALLOW_LOOPBACK_HTTP"] == "1")
    }

    /// A variable that is missing or unusable.
    public struct Problem: Error, CustomStringConvertible {
        /// The variable.
        public let variable: String
        /// What is wrong with it.
        public let problem: String

        /// `VARIABLE: problem`.
        public var description: String { "\(variable): \(problem)" }
    }
}
