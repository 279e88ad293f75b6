/// Emits an error format: the error struct and the open enum of its codes.
enum ErrorEmitter {
    /// Emits `public struct <Name>` holding the decoded body and the response it came in, with its codes and
    /// message; the runtime's `ServerErrorResponse` gives it its status, method, recovery and description, and its
    /// `ProtocolError` conformance lets flows act on `recovery` without knowing the family.
    ///
    /// ```swift
    /// public struct OAuthError: HealthSignInCore.ServerErrorResponse {
    ///     public let body: OAuthErrorBody
    ///     public let origin: HealthSignInCore.ServerErrorOrigin
    ///     public init(body: OAuthErrorBody, origin: HealthSignInCore.ServerErrorOrigin) { … }
    ///     public var code: OAuthErrorCode { OAuthErrorCode(rawValue: body.error) }
    ///     public var codes: [OAuthErrorCode] { [code] }
    ///     public var message: Swift.String? { body.errorDescription }
    /// }
    /// ```
    static func emit(_ error: IRErrorFormat, into p: inout SwiftPrinter) {
        p.doc(error.documentation, remarks: [Emit.remark(error.provenance)])
        p.block("public struct \(error.name): HealthSignInCore.ServerErrorResponse") { p in
            let body = error.body.swiftType
            p.doc("The decoded error body.")
            p.line("public let body: \(body)")
            p.doc("The response that carried it: its HTTP status, the method that failed, and its family's recovery.")
            p.line("public let origin: HealthSignInCore.ServerErrorOrigin")
            p.blank()
            p.doc("Creates an error.")
            p.memberwiseInitializer(
                "public init(", ["body: \(body)", "origin: HealthSignInCore.ServerErrorOrigin"], ")",
                names: ["body", "origin"])
            p.blank()
            codes(of: error, into: &p)
            p.doc("The server's explanation, when it gave one.")
            if let chain = MemberChain.firstPresent(error.messagePaths, from: "body") {
                p.line("public var message: Swift.String? { \(chain.expression) }")
            } else {
                p.line("public var message: Swift.String? { nil }")
            }
        }
        if let codeType = error.codeType {
            p.blank()
            codeEnum(codeType, errorName: error.name, into: &p)
        }
    }

    /// `codes`, and `code` where the body has one (or the first of several); without a code table, no codes, and a
    /// code the body carries is shown as the server sent it.
    private static func codes(of error: IRErrorFormat, into p: inout SwiftPrinter) {
        guard let codeType = error.codeType else {
            p.doc("The schema lists no codes.")
            p.line("public var codes: [HealthSignInCore.NoServerErrorCode] { [] }")
            if let chain = MemberChain.firstPresent(error.codePaths, from: "body") {
                p.doc("The code as the server sent it.")
                let shown =
                    chain.isOptional
                    ? "(\(chain.expression)).map { \" \\($0)\" } ?? \"\"" : "\" \\(\(chain.expression))\""
                p.line("public var shownCodes: Swift.String { \(shown) }")
            }
            return
        }
        let name = codeType.name
        func make(_ chain: (expression: String, isOptional: Bool)) -> String {
            chain.isOptional
                ? "(\(chain.expression)).map(\(name).init(rawValue:))" : "\(name)(rawValue: \(chain.expression))"
        }
        if let every = MemberChain.everyElement(error.codePaths, from: "body"),
            let chain = MemberChain.firstPresent(every.element, from: "element")
        {
            p.doc("Every error code in the body, in order: one for each element of `\(every.array)` that has one.")
            p.line(
                "public var codes: [\(name)] { \(every.array).\(chain.isOptional ? "compactMap" : "map") { element in \(make(chain)) } }"
            )
            p.doc("The first error code.")
            p.line("public var code: \(name)? { codes.first }")
        } else if let chain = MemberChain.firstPresent(error.codePaths, from: "body") {
            p.doc("The error code.")
            p.line("public var code: \(name)\(chain.isOptional ? "?" : "") { \(make(chain)) }")
            p.doc("The error code, as a list.")
            p.line("public var codes: [\(name)] { \(chain.isOptional ? "code.map { [$0] } ?? []" : "[code]") }")
        } else {
            p.doc("The body has no code.")
            p.line("public var codes: [\(name)] { [] }")
        }
    }

    /// The open enum of known codes, with each code's documented name and recovery.
    private static func codeEnum(_ codeType: IRCodeType, errorName: String, into p: inout SwiftPrinter) {
        let raw = codeType.isInteger ? "Swift.Int" : "Swift.String"
        p.doc(
            "The codes of ``\(errorName)``; codes the schema does not list become ``unknown(_:)``.",
            remarks: [Emit.remark(codeType.provenance)])
        let conformance =
            codeType.isInteger
            ? "HealthSignInCore.ServerErrorCode, RawRepresentable"
            : "HealthSignInCore.OpenEnum, HealthSignInCore.ServerErrorCode"
        p.block("public enum \(codeType.name): \(conformance)") { p in
            for code in codeType.codes {
                let summary = "`\(literal(code.value))` \(code.name)" + (code.description.map { ": \($0)" } ?? "")
                p.doc(summary)
                p.line("case \(Emit.name(code.swiftName))")
            }
            p.doc("A code the schema does not list.")
            p.line("case unknown(\(raw))")
            p.blank()
            codeTable(codeType, raw: raw, into: &p)
            if codeType.isInteger {
                p.blank()
                p.doc("The number and documented name, e.g. `65 (AUTHENTICATED_SESSION_TOKEN_EXPIRED)`.")
                p.line("public var description: Swift.String { \"\\(rawValue) (\\(name ?? \"unknown\"))\" }")
            }
        }
    }

    /// The codes as data. Each listed case's wire value, and its documented name and recovery, are a `switch` over
    /// the case; a wire value finds its case in a dictionary made once from the list of cases. Those forms keep the
    /// compiler's work small for a family with hundreds of codes: a `switch` on integer or string literals, or a
    /// literal table of tuples, takes it about half a millisecond per code, past its limits at a few hundred.
    /// A string finds its case by its exact bytes (`listedCase`). The wire value is not a lookup in a table keyed by
    /// case: Swift hashes and compares a `RawRepresentable` enum through its `rawValue`, so that would recurse.
    private static func codeTable(_ codeType: IRCodeType, raw: String, into p: inout SwiftPrinter) {
        let cases = codeType.codes.map { ".\(Emit.name($0.swiftName))" }
        if cases.isEmpty {
            p.line("private static let listed: [Self] = []")
        } else {
            p.entries("private static let listed: [Self] = [", cases, "]")
        }
        p.blank()
        p.line("private static let byRawValue: [\(raw): Self] = Dictionary(")
        p.indented { p in p.line("listed.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })") }
        p.blank()
        p.doc("The case for a wire code.")
        p.block("public init(rawValue: \(raw))") { p in
            p.line(
                codeType.isInteger
                    ? "self = Self.byRawValue[rawValue] ?? .unknown(rawValue)"
                    : "self = Self.listedCase(rawValue, in: Self.byRawValue) ?? .unknown(rawValue)")
        }
        if !codeType.isInteger {
            p.blank()
            p.doc("Whether the value is one the schema lists; an unlisted one decodes, but `validate()` refuses it.")
            p.line("public var isListed: Swift.Bool { row != nil }")
        }
        p.blank()
        p.doc("The wire code.")
        p.block("public var rawValue: \(raw)") { p in
            p.switchBlock("self") { p in
                for code in codeType.codes {
                    p.line("case .\(Emit.name(code.swiftName)): return \(literal(code.value))")
                }
                p.line("case .unknown(let value): return value")
            }
        }
        p.blank()
        p.block("private var row: (name: Swift.String, recovery: HealthSignInCore.ErrorRecovery)?") { p in
            p.switchBlock("self") { p in
                for code in codeType.codes {
                    let row = "(\(SwiftLiteral.string(code.name)), .\(code.recovery))"
                    p.line("case .\(Emit.name(code.swiftName)): return \(row)")
                }
                p.line("case .unknown: return nil")
            }
        }
        p.blank()
        p.doc("The documented name, e.g. `\(codeType.codes.first?.name ?? "")`, or nil for an unknown code.")
        p.line("public var name: Swift.String? { row?.name }")
        p.blank()
        p.doc("What a caller should do about this code.")
        p.line("public var recovery: HealthSignInCore.ErrorRecovery { row?.recovery ?? .none }")
    }

    private static func literal(_ value: ErrorCodeNode.Value) -> String {
        switch value {
        case .integer(let number): return String(number)
        case .string(let text): return SwiftLiteral.string(text)
        }
    }
}
