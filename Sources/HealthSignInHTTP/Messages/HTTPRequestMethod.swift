/// An HTTP request method.
public struct HTTPRequestMethod: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The method's token as sent on the request line, e.g. `POST`.
    public let rawValue: String

    /// Creates a method from its token.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `GET`
    public static let get = HTTPRequestMethod(rawValue: "GET")
    /// `POST`
    public static let post = HTTPRequestMethod(rawValue: "POST")
    /// `PUT`
    public static let put = HTTPRequestMethod(rawValue: "PUT")
    /// `DELETE`
    public static let delete = HTTPRequestMethod(rawValue: "DELETE")

    /// The method's token.
    public var description: String { rawValue }
}
