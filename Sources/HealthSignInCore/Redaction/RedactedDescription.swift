import Foundation

/// A value that lists its fields once, with secrets already replaced by `Redaction.placeholder`, and is described,
/// debug-described and mirrored from that list: `print`, `dump`, `String(reflecting:)` and debuggers show the same
/// fields and never a secret.
///
/// ```swift
/// struct Invitation: RedactedDescription {
///     let email: String
///     let code: String
///     var redactedFields: KeyValuePairs<String, Any> { ["email": email, "code": Redaction.placeholder] }
/// }
/// // "Invitation(email: a@example.com, code: <redacted>)"
/// ```
public protocol RedactedDescription: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Each field's label and value, with `Redaction.placeholder` in place of a secret.
    var redactedFields: KeyValuePairs<String, Any> { get }
}

extension RedactedDescription {
    /// `TypeName(label: value, …)`, with secrets redacted: the type's name as written in its module (`Outer.Inner`),
    /// an optional's value without the `Optional(…)` wrapper, and a date as ``DateTimeText`` writes it.
    public var description: String {
        let qualified = String(reflecting: Self.self)
        let name = qualified.firstIndex(of: ".").map { String(qualified[qualified.index(after: $0)...]) } ?? qualified
        return name + "(" + redactedFields.map { "\($0.key): \(Self.shown($0.value))" }.joined(separator: ", ") + ")"
    }

    private static func shown(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return Redaction.show(value) }
        return mirror.children.first.map { shown($0.value) } ?? "nil"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror of the redacted fields, for `dump` and debuggers.
    public var customMirror: Mirror { Mirror(self, children: redactedFields, displayStyle: .struct) }
}
