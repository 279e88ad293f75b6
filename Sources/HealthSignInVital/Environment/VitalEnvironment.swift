import Foundation

/// A Junction deployment: the tier (sandbox or production) in a data region.
///
/// The app never chooses this in sign-in-token mode: the sign-in token's issuer names it.
public struct VitalEnvironment: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The deployment tier.
    public enum Tier: String, Sendable, Hashable, Codable, CaseIterable {
        /// Junction's internal development deployment.
        case dev
        /// The sandbox, for evaluation with `sk_` team keys.
        case sandbox
        /// Production, with `pk_` team keys.
        case production

        /// The tier an issuer names: the shorthands `dev`, `stg` and `prd`, or the full `sandbox` and `production`.
        public init?(issuerName: String) {
            switch issuerName {
            case "dev": self = .dev
            case "stg", "sandbox": self = .sandbox
            case "prd", "production": self = .production
            default: return nil
            }
        }
    }

    /// Where the data lives.
    public enum Region: String, Sendable, Hashable, Codable, CaseIterable {
        /// The United States.
        case us
        /// The European Union.
        case eu
    }

    /// The tier.
    public var tier: Tier
    /// The region.
    public var region: Region

    /// Creates an environment.
    public init(_ tier: Tier, _ region: Region) {
        self.tier = tier
        self.region = region
    }

    /// The sandbox in the United States.
    public static let sandboxUS = VitalEnvironment(.sandbox, .us)
    /// The sandbox in the European Union.
    public static let sandboxEU = VitalEnvironment(.sandbox, .eu)
    /// Production in the United States.
    public static let productionUS = VitalEnvironment(.production, .us)
    /// Production in the European Union.
    public static let productionEU = VitalEnvironment(.production, .eu)

    /// Junction's documented hosts for this environment, e.g. `api.sandbox.us.junction.com` and
    /// `auth.sandbox.us.junction.com`.
    public var hosts: VitalHosts {
        let infix = tier == .production ? "" : tier.rawValue + "."
        // Both strings are built from fixed enum cases, so they always parse.
        return VitalHosts(
            api: URL(string: "https://api.\(infix)\(region.rawValue).junction.com")!,
            auth: URL(string: "https://auth.\(infix)\(region.rawValue).junction.com")!
        )
    }

    /// `sandbox/us`
    public var description: String { tier.rawValue + "/" + region.rawValue }

    /// The environment a name gives: a tier and a region, in either order, joined by `-`, `_`, `/`, `.` or a space,
    /// in any case, as Junction's SDKs and dashboards write them: `sandbox-us`, `production_eu`, `US.Sandbox`,
    /// `sandbox/eu` (the ``description``). A tier is `sandbox`, `production` or `dev`, or the issuers' `stg` and
    /// `prd`; nil for anything else.
    public init?(name: String) {
        let parts = name.lowercased().split(omittingEmptySubsequences: false, whereSeparator: { "-_/. ".contains($0) })
            .map(String.init)
        guard parts.count == 2 else { return nil }
        if let tier = Tier(issuerName: parts[0]), let region = Region(rawValue: parts[1]) {
            self.init(tier, region)
        } else if let region = Region(rawValue: parts[0]), let tier = Tier(issuerName: parts[1]) {
            self.init(tier, region)
        } else {
            return nil
        }
    }
}

/// The two hosts of a Junction environment: the API (user data, backend calls) and the auth host (`/v1/token`).
public struct VitalHosts: Sendable, Hashable, Codable {
    /// The API base URL.
    public var api: URL
    /// The auth base URL.
    public var auth: URL

    /// Creates a pair of hosts.
    public init(api: URL, auth: URL) {
        self.api = api
        self.auth = auth
    }
}

/// Which hosts each environment uses: Junction's own unless overridden (for a proxy, or a local test server).
public struct VitalHostMap: Sendable, Hashable {
    /// Hosts that replace the documented ones, by environment.
    public var overrides: [VitalEnvironment: VitalHosts]

    /// Creates a map; environments without an override use their documented hosts.
    public init(overrides: [VitalEnvironment: VitalHosts] = [:]) { self.overrides = overrides }

    /// One pair of hosts for every environment, e.g. a test server.
    public static func all(_ hosts: VitalHosts) -> VitalHostMap {
        var overrides: [VitalEnvironment: VitalHosts] = [:]
        for tier in VitalEnvironment.Tier.allCases {
            for region in VitalEnvironment.Region.allCases { overrides[VitalEnvironment(tier, region)] = hosts }
        }
        return VitalHostMap(overrides: overrides)
    }

    /// The hosts for `environment`.
    public func hosts(for environment: VitalEnvironment) -> VitalHosts {
        overrides[environment] ?? environment.hosts
    }
}
