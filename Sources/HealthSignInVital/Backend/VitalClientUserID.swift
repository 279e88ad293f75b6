import Foundation
import HealthSignInCore

/// The rules a client user id meets before ``VitalBackend`` sends it: Junction keeps it as the user's name in your
/// system and puts it in a URL path (`/v2/user/resolve/{client_user_id}`), so it must be one path segment as it is.
enum VitalClientUserID {
    /// The longest id, in characters.
    static let maximumLength = 255

    /// - Throws: ``VitalClientUserIDError`` naming the first rule `id` breaks.
    static func check(_ id: String) throws(VitalClientUserIDError) {
        guard !id.isEmpty else { throw VitalClientUserIDError(rule: .empty) }
        guard id.unicodeScalars.count <= maximumLength else { throw VitalClientUserIDError(rule: .tooLong) }
        guard id != ".", id != ".." else { throw VitalClientUserIDError(rule: .dotSegment) }
        for scalar in id.unicodeScalars where !isAllowed(scalar) {
            throw VitalClientUserIDError(rule: .character)
        }
    }

    /// Printable ASCII but the characters that end or change a path segment: `/`, `\`, `?`, `#` and `%`.
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        (0x21...0x7E).contains(scalar.value) && !"/\\?#%".unicodeScalars.contains(scalar)
    }
}

/// ``VitalBackend`` refused a client user id before sending it; ``rule`` says which rule it breaks. The id itself is
/// not in the message: it may name a person.
public struct VitalClientUserIDError: Error, Hashable, SDKError {
    /// A rule of a client user id.
    public enum Rule: String, Sendable, Hashable, CaseIterable {
        /// It is empty.
        case empty
        /// It is longer than 255 characters.
        case tooLong
        /// It holds a character other than printable ASCII, or one of `/`, `\`, `?`, `#` and `%`.
        case character
        /// It is `.` or `..`, which a URL path resolves away.
        case dotSegment
    }

    /// The rule the id breaks.
    public let rule: Rule

    /// Creates an error.
    public init(rule: Rule) { self.rule = rule }

    /// The rule, in a sentence.
    public var description: String {
        let rule: String
        switch self.rule {
        case .empty: rule = "it is empty"
        case .tooLong: rule = "it is longer than \(VitalClientUserID.maximumLength) characters"
        case .character: rule = "it holds a character other than printable ASCII without / \\ ? # and %"
        case .dotSegment: rule = "it is . or .., which a URL path resolves away"
        }
        return "The client user id was not sent to Junction: \(rule)"
    }

    /// `ErrorRecovery.fixRequest`: the caller chose the id.
    public var recovery: ErrorRecovery { .fixRequest }
}
