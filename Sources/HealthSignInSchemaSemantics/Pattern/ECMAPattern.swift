/// A regular expression read as ECMA-262 reads it with the u flag, as JSON Schema's `pattern` is.
///
/// The pattern and the subject are sequences of code points. There are no flags besides u: `^` and `$` are the
/// ends of the input, `.` excludes line terminators, and matching is case-sensitive. The engine is written here
/// because Foundation's regular expressions differ from ECMA-262 (`\d`, `\w`, `\s`, captures, lookbehind).
public struct ECMAPattern: Sendable, Hashable {
    /// The pattern's source text.
    public let source: String
    private let program: PatternProgram

    /// Parses `source`; throws for anything ECMA-262 (u flag) does not accept, with the offset in code points.
    ///
    /// - Throws: `ECMAPatternError` of kind `.syntax`, or of kind `.tooComplex` when groups nest more than 256
    ///   deep (a limit of this engine, not of ECMA-262).
    public init(_ source: String) throws(ECMAPatternError) {
        self.source = source
        program = PatternCompiler.compile(try PatternParser.parse(source))
    }

    /// Whether `subject` contains a match anywhere (an unanchored search, as JSON Schema's `pattern` is).
    /// - Throws: `ECMAPatternError` with `.tooComplex` reason when the search needs more than `stepLimit` steps
    ///   (backtracking is exponential in the worst case; the caller reports it instead of hanging).
    public func matches(_ subject: String, stepLimit: Int = 10_000_000) throws(ECMAPatternError) -> Bool {
        var matcher = PatternMatcher(
            program: program, subject: subject.unicodeScalars.map(\.value), stepLimit: stepLimit)
        return try matcher.search()
    }

    /// Patterns are equal when their sources are: the same source always compiles to the same program.
    public static func == (left: ECMAPattern, right: ECMAPattern) -> Bool {
        left.source == right.source
    }

    /// Hashes the source only, consistent with `==`.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
    }
}
