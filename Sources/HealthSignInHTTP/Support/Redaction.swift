import Foundation

/// Helpers that keep secrets out of descriptions, mirrors, errors and logs.
///
/// Generated models that hold a field marked `sensitive` in their schema describe themselves through these helpers
/// (by `RedactedDescription`), so `print`, `dump`, `String(reflecting:)` and string interpolation all show
/// ``placeholder`` instead of the value.
public enum Redaction {
    /// What is shown in place of a secret.
    public static let placeholder = "<redacted>"

    /// Describes a value as `TypeName(label: value, secret: <redacted>)`.
    ///
    /// - Parameters:
    ///   - typeName: the name to print before the parentheses.
    ///   - fields: each field's label and its already-safe description (pass ``placeholder`` for secrets).
    public static func describe(_ typeName: String, _ fields: KeyValuePairs<String, String>) -> String {
        typeName + "(" + fields.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + ")"
    }

    /// ``placeholder`` when `value` is present, `nil` otherwise: a secret's presence is not itself a secret.
    public static func hide(_ value: (some Any)?) -> String {
        value == nil ? "nil" : placeholder
    }

    /// `url` without its query, fragment or user info: those are where codes and tokens travel.
    public static func url(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return placeholder }
        let hadQuery = components.query != nil
        components.query = nil
        components.fragment = nil
        components.user = nil
        components.password = nil
        return (components.string ?? placeholder) + (hadQuery ? "?" + placeholder : "")
    }

    /// `scheme://host[:port]` of `url`, without userinfo: which server a request went to, never whom it is about.
    public static func origin(_ url: URL) -> String {
        guard let scheme = url.scheme, let host = url.host else { return placeholder }
        return scheme + "://" + host + (url.port.map { ":\($0)" } ?? "")
    }

    /// ``url(_:)`` without its ``origin(_:)``: the path, and `?` and the placeholder for a query.
    public static func pathAndQuery(_ url: URL) -> String {
        let whole = self.url(url)
        let origin = origin(url)
        return whole.hasPrefix(origin) ? String(whole.dropFirst(origin.count)) : whole
    }
}
