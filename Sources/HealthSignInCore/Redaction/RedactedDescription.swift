import Foundation

/// A value that lists its fields once, with secrets already replaced by ``Redaction/placeholder``, and is described,
/// debug-described and mirrored from that list: `print`, `dump`, `String(reflecting:)` and debuggers show the same
/// fields and never a secret.
///
/// ```swift
/// extension ActivationCode: RedactedDescription {
///     public var redactedFields: KeyValuePairs<String, Any> {
///         ["code": Redaction.placeholder, "expiresAt": expiresAt]
///     }
/// }
/// ```
public protocol RedactedDescription: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Each field's label and value, with ``Redaction/placeholder`` in place of a secret.
    var redactedFields: KeyValuePairs<String, Any> { get }
}

extension RedactedDescription {
    /// `TypeName(label: value, …)`, with secrets redacted.
    public var description: String {
        String(describing: Self.self) + "("
            + redactedFields.map { "\($0.key): \(Redaction.show($0.value))" }.joined(separator: ", ") + ")"
    }

    /// Same as ``description``.
    public var debugDescription: String { description }

    /// A mirror of the redacted fields, for `dump` and debuggers.
    public var customMirror: Mirror { Mirror(self, children: redactedFields, displayStyle: .struct) }
}
