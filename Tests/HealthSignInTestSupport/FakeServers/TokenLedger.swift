import Foundation
import HealthSignInCore

/// The token bookkeeping of an OAuth-style server for lifecycle tests: grants with rotating refresh tokens whose
/// values say which grant and which rotation they belong to (`at.3.1` is the access token of grant 3 after one
/// refresh), so a test can tell from any request which credential it carries.
public final class TokenLedger: Sendable {
    /// A grant's identity and rotation.
    public struct Version: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// The grant, numbered from 1 in the order issued.
        public let grant: Int
        /// How many times its refresh token was rotated.
        public let rotation: Int

        /// Names a version.
        public init(grant: Int, rotation: Int) {
            self.grant = grant
            self.rotation = rotation
        }

        /// Orders by grant, then rotation.
        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.grant, lhs.rotation) < (rhs.grant, rhs.rotation)
        }

        /// `3.1`
        public var description: String { "\(grant).\(rotation)" }
    }

    /// Why a refresh token was refused.
    public enum Refusal: Error, Sendable, Hashable {
        /// The value is not a token this server issued.
        case unknown
        /// A newer refresh token of the grant was issued.
        case rotatedOut
        /// The grant was revoked.
        case revoked
        /// The grant's subject (user) no longer exists.
        case subjectDeleted
    }

    private struct Grant {
        var subject: String
        var rotation = 0
        var revoked = false
        var accessExpired = false
    }

    private struct State {
        var grants: [Int: Grant] = [:]
        var deletedSubjects: Set<String> = []
        var spentCodes: Set<String> = []
        var refreshes = 0
        var refusals: [Refusal] = []
    }

    private let state = LockedValue(State())

    /// Creates an empty ledger.
    public init() {}

    /// `at.<grant>.<rotation>`
    public static func accessToken(_ version: Version) -> String { "at.\(version)" }

    /// `rt.<grant>.<rotation>`
    public static func refreshToken(_ version: Version) -> String { "rt.\(version)" }

    /// The version of the first access token (`at.…`) anywhere in a JSON document, such as a stored session.
    public static func accessVersion(inJSON data: Data) -> Version? {
        func search(_ node: Any) -> Version? {
            switch node {
            case let string as String: return string.hasPrefix("at.") ? version(of: string) : nil
            case let object as [String: Any]:
                return object.keys.sorted().lazy.compactMap { search(object[$0] as Any) }.first
            case let array as [Any]: return array.lazy.compactMap(search).first
            default: return nil
            }
        }
        return (try? JSONSerialization.jsonObject(with: data)).flatMap(search)
    }

    /// The version a token value names, or nil for a value this ledger did not make.
    public static func version(of token: String) -> Version? {
        let parts = token.split(separator: ".")
        guard parts.count == 3, parts[0] == "at" || parts[0] == "rt", let grant = Int(parts[1]),
            let rotation = Int(parts[2])
        else {
            return nil
        }
        return Version(grant: grant, rotation: rotation)
    }

    /// Issues a new grant for `subject`.
    public func issue(subject: String) -> Version {
        state.withValue { state in
            let id = state.grants.count + 1
            state.grants[id] = Grant(subject: subject)
            return Version(grant: id, rotation: 0)
        }
    }

    /// Redeems an authorization code `ac-<subject>` once: a new grant for the subject, or nil for a spent code or one
    /// not made that way.
    public func redeem(code: String) -> Version? {
        let fresh = state.withValue { $0.spentCodes.insert(code).inserted }
        guard fresh, code.hasPrefix("ac-") else { return nil }
        return issue(subject: String(code.dropFirst(3)))
    }

    /// Redeems a refresh token: the grant's next version, or why not.
    public func refresh(_ token: String) -> Result<Version, Refusal> {
        state.withValue { state in
            let outcome = Self.redeem(token, in: &state)
            switch outcome {
            case .success: state.refreshes += 1
            case .failure(let refusal): state.refusals.append(refusal)
            }
            return outcome
        }
    }

    private static func redeem(_ token: String, in state: inout State) -> Result<Version, Refusal> {
        guard token.hasPrefix("rt."), let version = version(of: token), var grant = state.grants[version.grant] else {
            return .failure(.unknown)
        }
        if state.deletedSubjects.contains(grant.subject) { return .failure(.subjectDeleted) }
        if grant.revoked { return .failure(.revoked) }
        guard version.rotation == grant.rotation else { return .failure(.rotatedOut) }
        grant.rotation += 1
        grant.accessExpired = false
        state.grants[version.grant] = grant
        return .success(Version(grant: version.grant, rotation: grant.rotation))
    }

    /// Whether `token` is the current, unexpired access token of a live grant.
    public func accepts(accessToken token: String) -> Bool {
        state.withValue { state in
            guard token.hasPrefix("at."), let version = Self.version(of: token), let grant = state.grants[version.grant]
            else { return false }
            return !grant.revoked && !grant.accessExpired && grant.rotation == version.rotation
                && !state.deletedSubjects.contains(grant.subject)
        }
    }

    /// Revokes the grant a current token (access or refresh) belongs to (RFC 7009). A rotated-out token revokes
    /// nothing, as with servers that keep one record per issued token: the grant's newer token stays live.
    public func revoke(_ token: String) {
        guard let version = Self.version(of: token) else { return }
        state.withValue { state in
            guard state.grants[version.grant]?.rotation == version.rotation else { return }
            state.grants[version.grant]?.revoked = true
        }
    }

    /// Makes every current access token expire, as time passing would.
    public func expireAccessTokens() {
        state.withValue { state in
            for id in state.grants.keys { state.grants[id]?.accessExpired = true }
        }
    }

    /// Deletes a subject: its grants' refresh tokens are then refused with ``Refusal/subjectDeleted``.
    public func deleteSubject(_ subject: String) {
        _ = state.withValue { $0.deletedSubjects.insert(subject) }
    }

    /// Refresh tokens that would still be redeemed: one per live grant.
    public var liveRefreshTokens: [String] {
        state.withValue { state in
            state.grants.sorted { $0.key < $1.key }.compactMap { id, grant in
                grant.revoked || state.deletedSubjects.contains(grant.subject)
                    ? nil : Self.refreshToken(Version(grant: id, rotation: grant.rotation))
            }
        }
    }

    /// How many grants were issued.
    public var grantsIssued: Int { state.current.grants.count }

    /// How many refresh tokens were redeemed.
    public var refreshCount: Int { state.current.refreshes }

    /// Every refused refresh, in order.
    public var refusals: [Refusal] { state.current.refusals }
}
