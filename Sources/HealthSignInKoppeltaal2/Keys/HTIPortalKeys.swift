import Foundation
@_spi(Generated) import HealthSignInCore

/// The public keys of the portals that launch a module, fetched from each portal's JWKS URL, cached as the answer's
/// `Cache-Control` allows, and fetched again when a launch names a `kid` the cached set lacks (a rotation), at most
/// once per ``minimumRefetchInterval`` per portal, so launches naming a `kid` that never appears cannot make the
/// module hammer the portal.
///
/// ```swift
/// let portals = HTIPortalKeys(jwksURLs: ["portal-1": URL(string: "https://portal.example/.well-known/jwks.json")!])
/// let receiver = HTILaunchReceiver(configuration: .init(
///     deviceReference: "Device/module-1", trustedFHIRBaseURL: fhirBase, verification: .portalKeys(portals)))
/// ```
///
/// A set is fresh for `max-age` seconds (``defaultLifetime`` without one, none with `no-store` or `no-cache`, at most
/// ``maximumLifetime``). A stale set is fetched again before use; when that fetch fails, the stale set is used, so a
/// portal's short outage does not stop its launches.
public actor HTIPortalKeys {
    /// Each portal's JWKS URL, by its client id (a launch token's `iss`).
    public let jwksURLs: [String: URL]
    /// How the sets are fetched: transport, URL policy, timeout, logger.
    public nonisolated let options: ClientOptions
    /// The shortest time between two fetches of one portal's set for a `kid` it lacked, in seconds.
    public let minimumRefetchInterval: TimeInterval
    /// How long a set without `max-age` is used, in seconds.
    public let defaultLifetime: TimeInterval
    /// The longest a set is used without fetching it again, in seconds, whatever `max-age` says.
    public let maximumLifetime: TimeInterval
    private let clock: any TimeSource
    private var cached: [String: CachedSet] = [:]
    private var fetches: [String: Task<JSONWebKeySet, any Error>] = [:]

    private struct CachedSet {
        let keys: JSONWebKeySet
        let freshUntil: Date
        let fetchedAt: Date
    }

    /// A key source for the portals `jwksURLs` names.
    public init(
        jwksURLs: [String: URL], options: ClientOptions = ClientOptions(), minimumRefetchInterval: TimeInterval = 60,
        defaultLifetime: TimeInterval = 300, maximumLifetime: TimeInterval = 86_400,
        clock: any TimeSource = SystemClock()
    ) {
        self.jwksURLs = jwksURLs
        self.options = options
        self.minimumRefetchInterval = minimumRefetchInterval
        self.defaultLifetime = defaultLifetime
        self.maximumLifetime = maximumLifetime
        self.clock = clock
    }

    /// The one key of `issuer` that verifies `algorithm` signatures with `keyID`, or nil when the portal's set has
    /// none, even after the one fetch the rate limit allows.
    ///
    /// - Throws: ``HTILaunchError`` (``HTILaunchError/Code/invalidSignature``) for a portal without a JWKS URL;
    ///   `ConfigurationError.invalidSetting` for an interval or lifetime that is NaN, negative or past a day (a
    ///   week for ``maximumLifetime``); what the fetch throws when no set was ever fetched.
    public func key(issuer: String, keyID: String?, algorithm: JWSAlgorithm) async throws -> JSONWebKey? {
        _ = try ConfigurationError.checked(minimumRefetchInterval, named: "minimumRefetchInterval", in: 0...86_400)
        _ = try ConfigurationError.checked(defaultLifetime, named: "defaultLifetime", in: 0...86_400)
        _ = try ConfigurationError.checked(maximumLifetime, named: "maximumLifetime", in: 0...604_800)
        guard let url = jwksURLs[issuer] else {
            throw HTILaunchError(.invalidSignature, "the launch token's issuer is not a known portal")
        }
        let now = clock.now()
        if let set = cached[issuer], now < set.freshUntil {
            if let key = set.keys.key(for: algorithm, keyID: keyID) { return key }
            // A kid the fresh set lacks: the portal may have rotated, once per interval.
            guard now >= set.fetchedAt.addingTimeInterval(minimumRefetchInterval) else { return nil }
        }
        let keys: JSONWebKeySet
        do {
            keys = try await fetch(issuer, from: url)
        } catch {
            guard let stale = cached[issuer] else { throw error }
            options.logger.log(.info, "Koppeltaal2", "portal keys of \(issuer) not fetched; using the kept set")
            keys = stale.keys
        }
        return keys.key(for: algorithm, keyID: keyID)
    }

    /// The portal's set, fetched once for every caller waiting at the same time, and kept.
    private func fetch(_ issuer: String, from url: URL) async throws -> JSONWebKeySet {
        if let running = fetches[issuer] { return try await running.value }
        let startedAt = clock.now()
        let task = Task { [options, clock, defaultLifetime, maximumLifetime] in
            let response = try await Self.download(url, options: options)
            let lifetime = Self.lifetime(
                response.headers["Cache-Control"], default: defaultLifetime, maximum: maximumLifetime)
            return (try Self.keySet(in: response), clock.now().addingTimeInterval(lifetime))
        }
        fetches[issuer] = Task { try await task.value.0 }
        defer { fetches[issuer] = nil }
        let (keys, freshUntil) = try await task.value
        // One fetch of an issuer runs at a time, so what it read is the newest set: keep it.
        cached[issuer] = CachedSet(keys: keys, freshUntil: freshUntil, fetchedAt: startedAt)
        return keys
    }

    private static func download(_ url: URL, options: ClientOptions) async throws -> HTTPResponseMessage {
        var builder = try HTTPRequestBuilder(method: .get, server: url, serverName: "portal JWKS", path: "")
        builder.headers["Accept"] = "application/json"
        let response = try await options.send(
            try builder.build(timeout: options.timeout),
            operation: OperationID(family: "Koppeltaal2", method: "PortalKeys"))
        guard response.isSuccess else {
            throw UnexpectedResponseError(operation: "Koppeltaal2.PortalKeys", response: response)
        }
        return response
    }

    private static func keySet(in response: HTTPResponseMessage) throws -> JSONWebKeySet {
        do { return try JSONWebKeySet(json: response.body) } catch {
            throw UnexpectedResponseError(
                operation: "Koppeltaal2.PortalKeys", response: response, reason: "the body is not a JWKS: \(error)")
        }
    }

    /// Seconds a response with `cacheControl` may be used.
    static func lifetime(_ cacheControl: String?, default fallback: TimeInterval, maximum: TimeInterval)
        -> TimeInterval
    {
        let directives = (cacheControl ?? "").lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if directives.contains(where: { $0 == "no-store" || $0 == "no-cache" }) { return 0 }
        guard let maxAge = directives.first(where: { $0.hasPrefix("max-age=") }) else { return min(fallback, maximum) }
        guard let seconds = Int(maxAge.dropFirst("max-age=".count)), seconds >= 0 else { return 0 }
        return min(TimeInterval(seconds), maximum)
    }
}
