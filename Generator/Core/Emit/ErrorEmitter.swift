/// Emits an error format: the error struct and the open enum of its codes.
enum ErrorEmitter {
    /// Emits `public struct <Name>: Error` holding the decoded body, with `code`, `message` and `recovery`; the
    /// runtime's `ProtocolError` conformance lets flows act on `recovery` without knowing the family.
    ///
    /// ```swift
    /// public struct OAuthError: Error, Sendable, Equatable, CustomStringConvertible, HealthSignInCore.ProtocolError {
    ///     public let body: OAuthErrorBody
    ///     public let httpStatus: Swift.Int
    ///     public let operation: Swift.String
    ///     public var code: OAuthErrorCode { OAuthErrorCode(rawValue: body.error) }
    ///     public var message: Swift.String? { body.errorDescription }
    ///     public var recovery: HealthSignInCore.ErrorRecovery { code.recovery }
    ///     public var description: Swift.String { … }
    /// }
    /// ```
    static func emit(_ error: IRErrorFormat, into p: inout SwiftPrinter) {
        p.doc(error.documentation, remarks: [Emit.remark(error.provenance)])
        p.block(
            "public struct \(error.name): Error, Sendable, Equatable, CustomStringConvertible, HealthSignInCore.ProtocolError"
        ) { p in
            p.doc("The decoded error body.")
            p.line("public let body: \(error.body.swiftType)")
            p.blank()
            p.doc("The HTTP status of the response that carried it.")
            p.line("public let httpStatus: Swift.Int")
            p.blank()
            p.doc("The method that failed, by its schema name.")
            p.line("public let operation: Swift.String")
            p.blank()
            p.doc("Creates an error.")
            p.block("public init(body: \(error.body.swiftType), httpStatus: Swift.Int, operation: Swift.String)") { p in
                p.line("self.body = body")
                p.line("self.httpStatus = httpStatus")
                p.line("self.operation = operation")
            }
            var codeIsOptional = true
            // How the recovery follows from the code or codes: from the code table, or through a function of one code.
            var recovery = (
                table: "code?.recovery ?? .none",
                through: { (function: String) in "code.map(\(function)) ?? HealthSignInCore.ErrorRecovery.none" }
            )
            var recoveryDoc = "What a caller should do about the error, from the schema's code table."
            var shownCode = "(code.map { \" \\($0)\" } ?? \"\")"
            var codeTypeName: String?
            if let codeType = error.codeType, let every = MemberChain.everyElement(error.codePaths, from: "body"),
                let chain = MemberChain.firstPresent(every.element, from: "element")
            {
                codeTypeName = codeType.name
                p.blank()
                p.doc("Every error code in the body, in order: one for each element of `\(every.array)` that has one.")
                let code =
                    chain.isOptional
                    ? "(\(chain.expression)).map(\(codeType.name).init(rawValue:))"
                    : "\(codeType.name)(rawValue: \(chain.expression))"
                p.line(
                    "public var codes: [\(codeType.name)] { \(every.array).\(chain.isOptional ? "compactMap" : "map") { element in \(code) } }"
                )
                p.blank()
                p.doc("The first error code.")
                p.line("public var code: \(codeType.name)? { codes.first }")
                recovery = (
                    "codes.lazy.map(\\.recovery).first { $0 != .none } ?? .none",
                    { "codes.lazy.map(\($0)).first { $0 != .none } ?? HealthSignInCore.ErrorRecovery.none" }
                )
                recoveryDoc =
                    "What a caller should do about the error: the recovery of the first code that calls for something."
                shownCode = "(codes.isEmpty ? \"\" : \" \" + codes.map(\\.rawValue).joined(separator: \", \"))"
            } else if let codeType = error.codeType, let chain = MemberChain.firstPresent(error.codePaths, from: "body")
            {
                codeTypeName = codeType.name
                codeIsOptional = chain.isOptional
                if !chain.isOptional { recovery = ("code.recovery", { "\($0)(code)" }) }
                p.blank()
                p.doc("The error code.")
                let expression =
                    chain.isOptional
                    ? "(\(chain.expression)).map(\(codeType.name).init(rawValue:))"
                    : "\(codeType.name)(rawValue: \(chain.expression))"
                p.line("public var code: \(codeType.name)\(chain.isOptional ? "?" : "") { \(expression) }")
            }
            if let codeTypeName {
                // A family that uses this format but gives some codes another recovery sets it through this.
                p.blank()
                p.doc(
                    "Creates an error whose recovery `codeRecovery` gives for its code, for a protocol that gives some codes another meaning."
                )
                p.listBlock(
                    "public init(",
                    [
                        "body: \(error.body.swiftType)", "httpStatus: Swift.Int", "operation: Swift.String",
                        "recovery codeRecovery: (\(codeTypeName)) -> HealthSignInCore.ErrorRecovery",
                    ], ")"
                ) { p in
                    p.line("self.init(body: body, httpStatus: httpStatus, operation: operation)")
                    p.line("recoveryOverride = \(recovery.through("codeRecovery"))")
                }
                p.blank()
                p.line("private var recoveryOverride: HealthSignInCore.ErrorRecovery?")
            }
            p.blank()
            p.doc("The server's explanation, when it gave one.")
            if let chain = MemberChain.firstPresent(error.messagePaths, from: "body") {
                p.line("public var message: Swift.String? { \(chain.expression) }")
            } else {
                p.line("public var message: Swift.String? { nil }")
            }
            p.blank()
            p.doc(recoveryDoc)
            if codeTypeName != nil {
                p.line(
                    "public var recovery: HealthSignInCore.ErrorRecovery { recoveryOverride ?? \(recovery.table) }"
                )
            } else {
                p.line("public var recovery: HealthSignInCore.ErrorRecovery { .none }")
            }
            p.blank()
            p.doc("The method, the code and the message; never the body's sensitive fields.")
            p.block("public var description: Swift.String") { p in
                if error.codeType != nil, !error.codePaths.isEmpty {
                    let code = codeIsOptional ? shownCode : "\" \\(code)\""
                    p.line(
                        "\"\\(operation) failed: \(error.name)\" + \(code) + (message.map { \": \\($0)\" } ?? \"\") + \" (HTTP \\(httpStatus))\""
                    )
                } else if let chain = MemberChain.firstPresent(error.codePaths, from: "body") {
                    // No code table, but the body has a code: it is shown as the server sent it.
                    let code =
                        chain.isOptional
                        ? "((\(chain.expression)).map { \" \\($0)\" } ?? \"\")" : "\" \\(\(chain.expression))\""
                    p.line(
                        "\"\\(operation) failed: \(error.name)\" + \(code) + (message.map { \": \\($0)\" } ?? \"\") + \" (HTTP \\(httpStatus))\""
                    )
                } else {
                    p.line(
                        "\"\\(operation) failed: \(error.name)\" + (message.map { \": \\($0)\" } ?? \"\") + \" (HTTP \\(httpStatus))\""
                    )
                }
            }
        }
        if let codeType = error.codeType {
            p.blank()
            codeEnum(codeType, errorName: error.name, into: &p)
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
            ? "Sendable, Hashable, RawRepresentable, CustomStringConvertible"
            : "HealthSignInCore.OpenEnum"
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

    /// The codes as data: one row per listed code (its wire value, case, documented name and recovery), which the
    /// initializer, `name` and `recovery` read. The case's wire value is a `switch`, not a lookup in the rows: Swift
    /// hashes and compares a `RawRepresentable` enum through its `rawValue`, so a table keyed by case would recurse.
    private static func codeTable(_ codeType: IRCodeType, raw: String, into p: inout SwiftPrinter) {
        let row = "(code: Self, name: Swift.String, recovery: HealthSignInCore.ErrorRecovery)"
        if codeType.codes.isEmpty {
            p.line("private static let rows: [\(raw): \(row)] = [:]")
        } else {
            p.entries(
                "private static let rows: [\(raw): \(row)] = [",
                codeType.codes.map {
                    "\(literal($0.value)): (.\(Emit.name($0.swiftName)), \(SwiftLiteral.string($0.name)), .\($0.recovery))"
                },
                "]")
        }
        p.blank()
        p.doc("The case for a wire code.")
        p.block("public init(rawValue: \(raw))") { p in
            p.line(
                codeType.isInteger
                    ? "self = Self.rows[rawValue]?.code ?? .unknown(rawValue)"
                    : "self = Self.listedCase(rawValue, in: Self.rows)?.code ?? .unknown(rawValue)")
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
        p.line("private var row: \(row)? {")
        p.indented { p in
            p.line("if case .unknown = self { return nil }")
            p.line("return Self.rows[rawValue]")
        }
        p.line("}")
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
