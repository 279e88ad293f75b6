import Foundation
import HealthSignInCredentials
import HealthSignInOAuth
import HealthSignInPostgres
import HealthSignInSMART
import HealthSignInTesting
import PostgresNIO

/// One instance of a backend in the fleet proofs: it keeps a SMART confidential client's grant in the PostgreSQL store
/// the others share, waits for a common start time, reads a patient through the grant with many concurrent calls,
/// and prints one line of JSON: how many calls succeeded, the type and recovery of each failure, a digest of the
/// access token it ends with (never the token) and its status.
///
///     HealthSignInFleetWorker --emulator URL --table NAME --calls N --start UNIX-TIME [--warm yes]
///     HealthSignInFleetWorker --emulator URL --table NAME --sign-in yes
///     HealthSignInFleetWorker --emulator URL --table NAME --hold-lock yes
///
/// With `--hold-lock yes` the worker takes the store's lock on the grant, as a refresh does, prints `holding` and
/// waits to be killed: a holder that dies mid-refresh. `--lease SECONDS` sets the store's lock lease.
///
/// With `--warm yes` the worker makes one call before it waits for the start, so that it holds the credential (and
/// listens for changes) when the calls begin. The report also gives the slowest call's duration in seconds.
///
/// The server is read from HEALTHSIGNIN_POSTGRES_HOST, _PORT, _USER and _DATABASE.
@main
struct FleetWorker {
    static func main() async {
        do {
            let arguments = try Arguments(CommandLine.arguments.dropFirst())
            print(try await run(arguments))
            exit(0)
        } catch {
            FileHandle.standardError.write(Data("HealthSignInFleetWorker: \(error)\n".utf8))
            exit(2)
        }
    }

    struct Arguments {
        var values: [String: String] = [:]

        init(_ arguments: ArraySlice<String>) throws {
            var arguments = arguments
            while let flag = arguments.popFirst() {
                guard flag.hasPrefix("--"), let value = arguments.popFirst() else { throw UsageError(flag) }
                values[String(flag.dropFirst(2))] = value
            }
        }

        func value(_ name: String) throws -> String {
            guard let value = values[name] else { throw UsageError("--\(name) is missing") }
            return value
        }
    }

    struct UsageError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    static func run(_ arguments: Arguments) async throws -> String {
        guard let emulator = URL(string: try arguments.value("emulator")) else {
            throw UsageError("--emulator takes a URL")
        }
        let environment = ProcessInfo.processInfo.environment
        let store = try PostgresCredentialStore(
            configuration: .init(
                connection: .init(
                    host: environment["HEALTHSIGNIN_POSTGRES_HOST"] ?? "127.0.0.1",
                    port: Int(environment["HEALTHSIGNIN_POSTGRES_PORT"] ?? "") ?? 5432,
                    username: environment["HEALTHSIGNIN_POSTGRES_USER"] ?? "healthsignin", password: nil,
                    database: environment["HEALTHSIGNIN_POSTGRES_DATABASE"], tls: .disable),
                table: try arguments.value("table"), timeout: 2, outageTolerance: 20,
                lockLease: Double(arguments.values["lease"] ?? "") ?? 60))
        let session = fleetSession(emulator: emulator, store: store)
        if arguments.values["hold-lock"] != nil {
            let lock = try await store.lock(session.storeKey)
            FileHandle.standardOutput.write(Data("holding\n".utf8))
            try await Task.sleep(for: .seconds(3_600))
            lock?.release()
            return "released"
        }
        if arguments.values["sign-in"] != nil {
            _ = try await session.authorize(with: RedirectFollowingBrowser(transport: DefaultHTTPTransport(timeout: 5)))
            return try await report(calls: 0, failures: [], slowest: 0, session: session)
        }
        guard let calls = Int(try arguments.value("calls")), let start = Double(try arguments.value("start")) else {
            throw UsageError("--calls takes a number and --start a UNIX time")
        }
        if arguments.values["warm"] != nil {
            _ = try await session.fhir(ResourcePath("Patient", "smart-patient-1"))
        }
        let wait = start - Date().timeIntervalSince1970
        if wait > 0 { try await Task.sleep(for: .milliseconds(Int(wait * 1_000))) }
        let outcomes = await withTaskGroup(of: (failure: [String: String]?, seconds: Double).self) { group in
            for _ in 0..<calls {
                group.addTask {
                    let began = ContinuousClock.now
                    let seconds = {
                        let elapsed = began.duration(to: .now).components
                        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
                    }
                    do {
                        _ = try await session.fhir(ResourcePath("Patient", "smart-patient-1"))
                        return (nil, seconds())
                    } catch {
                        let failure = [
                            "type": String(describing: type(of: error)),
                            "recovery": (error as? any SDKError).map { "\($0.recovery)" } ?? "none",
                            "error": String(describing: error),
                        ]
                        return (failure, seconds())
                    }
                }
            }
            return await group.reduce(into: [(failure: [String: String]?, seconds: Double)]()) { $0.append($1) }
        }
        return try await report(
            calls: calls, failures: outcomes.compactMap(\.failure), slowest: outcomes.map(\.seconds).max() ?? 0,
            session: session)
    }

    /// The line the worker prints.
    static func report(calls: Int, failures: [[String: String]], slowest: Double, session: SMARTSession) async throws
        -> String
    {
        let token: String
        do {
            token = CryptoPrimitives.sha256(Data(try await session.accessToken().value.utf8))
                .map { String(format: "%02x", $0) }.joined()
        } catch {
            token = "none: \(error)"
        }
        let status = (try? await session.status()).map { "\($0)" } ?? "unreadable"
        let report: [String: Any] = [
            "successes": calls - failures.count, "failures": failures, "token": token, "status": status,
            "slowest": slowest,
        ]
        return String(
            decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self)
    }
}

/// The session every instance of the fleet makes: the emulator's confidential client, its grant kept under the
/// session's usual key in `store`.
func fleetSession(emulator: URL, store: any CredentialStore) -> SMARTSession {
    let fhir = URL(string: emulator.absoluteString + "/smart/fhir") ?? emulator
    return SMARTSession(
        configuration: .init(
            registration: OAuthRegistration(
                baseURL: fhir,
                client: OAuthClientCredentials(clientID: "smart-confidential", secret: "smart-secret 1+x"),
                redirectURI: "http://127.0.0.1/smart/callback"),
            session: OAuthSessionSettings(
                store: store,
                options: ClientOptions(
                    transport: DefaultHTTPTransport(timeout: 10), urlPolicy: URLPolicy(allowsInsecureLoopback: true)))))
}
