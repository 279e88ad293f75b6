import Foundation

extension Redaction {
    /// The description of an optional without the `Optional(...)` wrapper: `nil` or the value's description.
    ///
    /// A `Date` is shown as ``DateTimeText/format(_:)`` writes it, which any instant survives (Foundation's own
    /// description of a NaN instant traps).
    public static func show(_ value: (some Any)?) -> String {
        guard let value else { return "nil" }
        if let date = value as? Date { return DateTimeText.format(date) }
        return String(describing: value)
    }
}
