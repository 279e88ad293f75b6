import HealthSignInHTTP

/// A configuration value the SDK could not use: missing, or not what its key holds. ``key`` is the swift-configuration
/// key (`smart.client.id`), which environment variables spell in capitals with underscores (`SMART_CLIENT_ID`).
/// The value itself is never in the message: it may be a key or a secret.
public struct ConfigValueError: Error, Hashable, SDKError {
    /// The key.
    public let key: String
    /// What is wrong, as a phrase: "is missing", "is not an http or https URL".
    public let problem: String

    /// Creates an error.
    public init(key: String, problem: String) {
        self.key = key
        self.problem = problem
    }

    /// The key and the problem.
    public var description: String { "The configuration value \(key) \(problem)" }

    /// `ErrorRecovery.reconfigure`: set the value and start again.
    public var recovery: ErrorRecovery { .reconfigure }
}
