import Foundation
import HealthSignInCore
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInVital

/// One of the processes of the shared-store tests and benchmark: it opens a Koppeltaal session or a Vital core on a
/// file store that another process also uses, waits for a common start time, makes concurrent calls against the
/// emulator, and prints one line of JSON: how many calls succeeded, what the others threw, and a digest of the access
/// token it ends with (never the token).
///
///     HealthSignInLifecycleWorker koppeltaal|vital --emulator URL --store DIRECTORY --calls N --start UNIX-TIME
@main
struct LifecycleWorker {
    static func main() async {
        do {
            let options = try Options(Array(CommandLine.arguments.dropFirst()))
            let report = try await run(options)
            print(report)
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("HealthSignInLifecycleWorker: \(error)\n".utf8))
            exit(2)
        }
    }

    struct Options {
        var family = ""
        var emulator = URL(fileURLWithPath: "/")
        var store = URL(fileURLWithPath: "/")
        var calls = 50
        var start = Date()

        init(_ arguments: [String]) throws {
            var arguments = arguments[...]
            family = arguments.popFirst() ?? ""
            while let flag = arguments.popFirst() {
                guard let value = arguments.popFirst() else { throw UsageError("\(flag) needs a value") }
                switch flag {
                case "--emulator": emulator = try Self.url(value)
                case "--store": store = URL(fileURLWithPath: value)
                case "--calls": calls = try Int(value).orThrow(UsageError("--calls takes a number"))
                case "--start":
                    start = Date(
                        timeIntervalSince1970: try Double(value).orThrow(UsageError("--start takes a UNIX time")))
                default: throw UsageError("unknown flag \(flag)")
                }
            }
            guard ["koppeltaal", "vital"].contains(family) else {
                throw UsageError("the first argument is koppeltaal or vital")
            }
        }

        private static func url(_ text: String) throws -> URL {
            try URL(string: text).orThrow(UsageError("\(text) is not a URL"))
        }
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The calls, run all at once from the start time; then the token the process ends with.
    static func run(_ options: Options) async throws -> String {
        let store = try FileCredentialStore(directory: options.store)
        let transport = DefaultHTTPTransport(timeout: 10)
        let policy = URLPolicy(allowsInsecureLoopback: true)
        let call: @Sendable () async throws -> Void
        let token: @Sendable () async throws -> BearerToken
        if options.family == "koppeltaal" {
            let session = KoppeltaalSession(
                configuration: .init(
                    registration: OAuthRegistration(
                        baseURL: url(options.emulator, "/kt/FHIR/Koppeltaal"),
                        client: OAuthClientCredentials(
                            clientID: "KTSTESTGAME", secret: "kt-secret", method: .unencodedBasic),
                        redirectURI: "http://127.0.0.1/after-auth"),
                    session: OAuthSessionSettings(
                        store: store, options: ClientOptions(transport: transport, urlPolicy: policy))))
            call = { _ = try await session.fhir(ResourcePath("MessageHeader", "_search")) }
            token = { try await session.accessToken() }
        } else {
            let core = VitalSession(
                configuration: .init(
                    store: store,
                    hosts: .all(
                        VitalHosts(api: url(options.emulator, "/vital/api"), auth: url(options.emulator, "/vital/auth"))
                    ),
                    urlPolicy: policy, transport: transport
                ))
            call = { _ = try await core.connectedProviders() }
            token = { try await core.accessToken() }
        }
        let wait = options.start.timeIntervalSinceNow
        if wait > 0 { try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000)) }
        let outcomes = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<options.calls {
                group.addTask {
                    do {
                        try await call()
                        return nil
                    } catch {
                        return String(describing: error)
                    }
                }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        let failures = outcomes.compactMap { $0 }
        let digest = CryptoPrimitives.sha256(Data(try await token().value.utf8)).map { String(format: "%02x", $0) }
            .joined()
        let report: [String: Any] = [
            "successes": outcomes.count - failures.count, "failures": failures, "token": digest,
        ]
        return String(
            decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self)
    }

    private static func url(_ base: URL, _ path: String) -> URL {
        URL(string: base.absoluteString + path) ?? base
    }
}

extension Optional {
    fileprivate func orThrow(_ error: any Error) throws -> Wrapped {
        guard let self else { throw error }
        return self
    }
}
