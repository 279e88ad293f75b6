import Foundation

/// The text of a log record, and whether all of it is the SDK's own wording.
///
/// A message written as a string literal is the SDK's fixed text and public. Each value interpolated into it makes the
/// message private (an identifier, a host or a server's wording may identify a person), unless the value is
/// interpolated as `\(public: value)`, which the SDK does only for values of its own: operation names, request
/// methods, and counts it made. Nothing a server chose is public: not a status, a delay it asked for, a claim or an
/// error it described. `OSLogSink` logs a private message with `privacy: .private`, so the unified log keeps it out
/// of anything collected from a device.
///
/// ```swift
/// let message: LogMessage = "\(public: operation) ← HTTP \(status)"
/// let isPublic = message.isPublic  // false: the status came from the server
/// ```
public struct LogMessage: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// The message's text.
    public let text: String
    /// True when the text is the SDK's fixed wording with only its own values in it.
    public let isPublic: Bool
    /// The text with each value from outside the SDK's own wording replaced by `<private>`, for logs that must not
    /// hold them: `CreateSignInToken ← HTTP <private>`. The whole text is `<private>` for a message made from one
    /// string that is not public.
    public let redactedText: String

    /// A message of `text`, public only when `isPublic` says so.
    public init(_ text: String, isPublic: Bool) {
        self.init(text, isPublic: isPublic, redactedText: isPublic ? text : Self.privatePlaceholder)
    }

    private init(_ text: String, isPublic: Bool, redactedText: String) {
        self.text = text
        self.isPublic = isPublic
        self.redactedText = redactedText
    }

    /// A literal: fixed text, public.
    public init(stringLiteral value: String) { self.init(value, isPublic: true) }

    /// An interpolated message: public only when every interpolated value was marked public.
    public init(stringInterpolation: Interpolation) {
        self.init(
            stringInterpolation.text, isPublic: stringInterpolation.isPublic,
            redactedText: stringInterpolation.redactedText)
    }

    /// What stands in the redacted text for a value that is not public.
    public static let privatePlaceholder = "<private>"

    /// The text.
    public var description: String { text }

    /// Builds a ``LogMessage`` from a string literal with interpolated values.
    public struct Interpolation: StringInterpolationProtocol {
        var text = ""
        var redactedText = ""
        var isPublic = true

        /// Starts an empty message.
        public init(literalCapacity: Int, interpolationCount: Int) { text.reserveCapacity(literalCapacity) }

        /// Appends fixed text.
        public mutating func appendLiteral(_ literal: String) {
            text += literal
            redactedText += literal
        }

        /// Appends a value from outside the SDK's own wording; the message becomes private.
        public mutating func appendInterpolation(_ value: some Any) {
            text += Redaction.show(Optional(value))
            redactedText += LogMessage.privatePlaceholder
            isPublic = false
        }

        /// Appends a value the SDK itself defines (an operation name, a status code, a count); the message stays public.
        public mutating func appendInterpolation(public value: some Any) {
            let shown = Redaction.show(Optional(value))
            text += shown
            redactedText += shown
        }

        /// Appends a request's URL as `Redaction.url(_:)` shows it: its origin public (which server), its path and
        /// query private (they can name a user); the message becomes private.
        public mutating func appendInterpolation(url: URL) {
            appendInterpolation(public: Redaction.origin(url))
            appendInterpolation(Redaction.pathAndQuery(url))
        }
    }
}
