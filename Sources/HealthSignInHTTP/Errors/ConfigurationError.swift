import Foundation

/// The client was asked to do something its configuration does not allow.
public enum ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The method needs a base URL that was not configured (for example a token endpoint not yet discovered).
    case missingServer(String)
    /// A URL was refused because it is not `https` (plain `http` is allowed only for loopback when enabled).
    case insecureURL(host: String?)
    /// A `URLSession` given to ``URLSessionHTTPTransport`` would follow redirects: its delegate is not a
    /// ``URLSessionHTTPTransportDelegate``.
    case redirectsFollowed
    /// A timeout that is NaN, zero or negative (`.infinity` means none).
    case invalidTimeout(TimeInterval)
    /// A number in a configuration that is outside what it may be: NaN, negative, infinite where no infinity means
    /// anything, or too large to mean anything. `name` is the setting, `value` what was given, `allowed` the range.
    case invalidSetting(name: String, value: String, allowed: String)

    /// A one-line explanation with the fix.
    public var description: String {
        switch self {
        case .missingServer(let name):
            return
                "No URL is configured for the server '\(name)'; set it in the client's configuration (servers.\(name))"
        case .insecureURL(let host) where URLPolicy.isLoopback(host):
            return
                "Refusing plain http to '\(host ?? "?")': to allow http on this machine (an emulator, a test server), "
                + "pass urlPolicy: URLPolicy(allowsInsecureLoopback: true) in the configuration's client options"
        case .insecureURL(let host):
            return "Refusing a non-https URL for host '\(host ?? "?")': use https; plain http is allowed only to this "
                + "machine (127.0.0.1, ::1, localhost), with urlPolicy: URLPolicy(allowsInsecureLoopback: true)"
        case .redirectsFollowed:
            return
                "The URLSession's delegate is not a URLSessionHTTPTransportDelegate, so it would follow redirects with credentials; create the session with one (or a subclass)"
        case .invalidTimeout(let timeout):
            return "The timeout \(timeout) is not a positive number of seconds; use .infinity for none"
        case .invalidSetting(let name, let value, let allowed):
            return "The setting \(name) is \(value), which it may not be: use \(allowed)"
        }
    }

    /// `seconds` when `range` holds it (NaN never is), for a setting checked where it is given or first used.
    ///
    /// - Throws: ``invalidSetting(name:value:allowed:)`` naming `name` and the range.
    public static func checked(
        _ seconds: TimeInterval, named name: String, in range: ClosedRange<TimeInterval>
    ) throws(ConfigurationError) -> TimeInterval {
        guard range.contains(seconds) else {
            throw .invalidSetting(
                name: name, value: "\(seconds)", allowed: "\(range.lowerBound) to \(range.upperBound) seconds")
        }
        return seconds
    }

    /// `count` when `range` holds it, for a size or count checked where it is given or first used.
    ///
    /// - Throws: ``invalidSetting(name:value:allowed:)`` naming `name` and the range.
    public static func checked(_ count: Int, named name: String, in range: ClosedRange<Int>) throws(ConfigurationError)
        -> Int
    {
        guard range.contains(count) else {
            throw .invalidSetting(name: name, value: "\(count)", allowed: "\(range.lowerBound) to \(range.upperBound)")
        }
        return count
    }
}

extension ConfigurationError: SDKError {
    /// ``ErrorRecovery/reconfigure``.
    public var recovery: ErrorRecovery { .reconfigure }
}
