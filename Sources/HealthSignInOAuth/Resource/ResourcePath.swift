import Foundation
@_spi(Generated) import HealthSignInCore

/// A path under a resource server's base URL that cannot leave it: segments, each percent-encoded, none of them
/// empty, `.` or `..`. A bearer token sent to a ``ResourcePath`` goes to the base URL's path and below, whatever the
/// segments hold (a server-sent id such as `../../tenantB/Patient/7` is one segment, or refused).
///
/// ```swift
/// let patient = try ResourcePath.fhir("Patient", id: context.patient)     // Patient/123
/// let search = try ResourcePath("Observation")                            // a search is asked for by name
/// let history = try ResourcePath("Patient", "123", "_history")
/// ```
public struct ResourcePath: Sendable, Hashable, CustomStringConvertible {
    /// The segments, as given (not yet percent-encoded).
    public let segments: [String]

    /// The path of `segments`.
    ///
    /// - Throws: ``ResourcePathError`` for no segments, or an empty, `.` or `..` segment.
    public init(segments: [String]) throws {
        guard !segments.isEmpty else { throw ResourcePathError.empty }
        for segment in segments where segment.isEmpty || segment == "." || segment == ".." {
            throw ResourcePathError.invalidSegment(segment)
        }
        self.segments = segments
    }

    /// The path of `segments`.
    ///
    /// - Throws: ``ResourcePathError`` for an empty, `.` or `..` segment.
    public init(_ first: String, _ rest: String...) throws {
        try self.init(segments: [first] + rest)
    }

    /// The FHIR resource `type`/`id`, both checked against FHIR's rules: a resource type is `[A-Z][A-Za-z]+`, an id
    /// `[A-Za-z0-9\-\.]{1,64}` (and not `.` or `..`). A missing id is an error, never a search over every resource
    /// of the type.
    ///
    /// - Throws: ``ResourcePathError/invalidResourceType(_:)``, ``ResourcePathError/invalidID(_:)``,
    ///   ``ResourcePathError/missingID(resourceType:)``.
    public static func fhir(_ type: String, id: String?) throws -> ResourcePath {
        try checkResourceType(type)
        guard let id else { throw ResourcePathError.missingID(resourceType: type) }
        guard (1...64).contains(id.utf8.count), id.utf8.allSatisfy(isIDCharacter), id != ".", id != ".." else {
            throw ResourcePathError.invalidID(id)
        }
        return try ResourcePath(segments: [type, id])
    }

    /// All resources of the FHIR resource `type` (a search, or a type-level operation's base).
    ///
    /// - Throws: ``ResourcePathError/invalidResourceType(_:)``.
    public static func fhir(_ type: String) throws -> ResourcePath {
        try checkResourceType(type)
        return try ResourcePath(segments: [type])
    }

    /// This path followed by `more` segments.
    ///
    /// - Throws: ``ResourcePathError`` for an empty, `.` or `..` segment.
    public func appending(_ more: String...) throws -> ResourcePath {
        try ResourcePath(segments: segments + more)
    }

    /// The segments percent-encoded and joined with `/`, e.g. `Patient/a%2Fb`.
    public var percentEncoded: String { segments.map(PercentEncoding.pathSegment).joined(separator: "/") }

    /// The encoded path.
    public var description: String { percentEncoded }

    private static func checkResourceType(_ type: String) throws {
        let bytes = Array(type.utf8)
        guard bytes.count >= 2, let first = bytes.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first),
            bytes.dropFirst().allSatisfy(isLetter)
        else { throw ResourcePathError.invalidResourceType(type) }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    private static func isIDCharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: ".")
    }
}

/// A resource path that would not stay under the resource server's base URL, or names no resource.
public enum ResourcePathError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path has no segments.
    case empty
    /// A segment is empty, `.` or `..`.
    case invalidSegment(String)
    /// The FHIR resource type is not `[A-Z][A-Za-z]+`.
    case invalidResourceType(String)
    /// The FHIR id is not `[A-Za-z0-9\-\.]{1,64}`, or is `.` or `..`.
    case invalidID(String)
    /// No id was given for a resource of this type (say, a launch without a patient in context).
    case missingID(resourceType: String)

    /// A one-line explanation; a refused id is quoted shortened.
    public var description: String {
        switch self {
        case .empty: return "A resource path needs at least one segment"
        case .invalidSegment(let segment):
            return "The path segment \(Self.quote(segment)) is empty or a dot segment, which would leave the base path"
        case .invalidResourceType(let type): return "\(Self.quote(type)) is not a FHIR resource type"
        case .invalidID(let id): return "\(Self.quote(id)) is not a FHIR resource id"
        case .missingID(let type): return "No \(type) id was given, so there is no resource to ask for"
        }
    }

    private static func quote(_ text: String) -> String {
        "\"" + (text.count > 40 ? String(text.prefix(40)) + "…" : text) + "\""
    }
}

extension ResourcePathError: SDKError {
    /// `ErrorRecovery.fixRequest`: the app asked for a path it must not.
    public var recovery: ErrorRecovery { .fixRequest }
}
