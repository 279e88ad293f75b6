/// Emits the conformances that hide sensitive values from descriptions, debug descriptions and mirrors: an object
/// lists its fields for the runtime's `RedactedDescription`, a union describes and mirrors its case.
struct RedactionEmitter {
    /// The family's types, where references are followed.
    let types: IRTypeTable

    /// Emits the conformances for a type that holds a sensitive value.
    ///
    /// For `NewApplicationCreationInfo.Response` it prints
    /// ```swift
    /// extension NewApplicationCreationInfo.Response: HealthSignInCore.RedactedDescription {
    ///     public var redactedFields: KeyValuePairs<Swift.String, Any> {
    ///         ["appID": self.appID, "sharedSecret": HealthSignInCore.Redaction.placeholder]
    ///     }
    /// }
    /// ```
    func emit(_ type: IRType, into p: inout SwiftPrinter) {
        guard type.holdsSensitive else { return }
        switch type.kind {
        case .object(let properties): emitObject(type, stored: properties.filter(\.isStored), into: &p)
        case .union(let union): emitUnion(type, union, into: &p)
        case .enumeration, .alias: return
        }
    }

    private func emitObject(_ type: IRType, stored: [IRProperty], into p: inout SwiftPrinter) {
        p.blank()
        p.block("extension \(type.qualifiedName): HealthSignInCore.RedactedDescription") { p in
            p.doc("The fields, with sensitive values as `<redacted>`: what the description and the mirror show.")
            p.block("public var redactedFields: KeyValuePairs<Swift.String, Any>") { p in
                p.collection("[", stored.map { "\(SwiftLiteral.string($0.swiftName)): \(redactedValue($0))" }, "]")
            }
        }
    }

    private func emitUnion(_ type: IRType, _ union: IRUnion, into p: inout SwiftPrinter) {
        p.blank()
        p.block(
            "extension \(type.qualifiedName): CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable"
        ) { p in
            p.doc("The case, with a sensitive value shown as `<redacted>`.")
            p.block("public var description: Swift.String") { p in
                p.switchBlock("self") { p in
                    for variant in union.variants {
                        let prefix = "\(type.qualifiedName).\(variant.caseName)"
                        if isRedacted(variant.type) {
                            p.line(
                                "case .\(Emit.name(variant.caseName)): return \(SwiftLiteral.string(prefix + "(<redacted>)"))"
                            )
                        } else {
                            p.line("case .\(Emit.name(variant.caseName))(let value): return \"\(prefix)(\\(value))\"")
                        }
                    }
                }
            }
            p.blank()
            p.doc("Same as ``description``.")
            p.line("public var debugDescription: Swift.String { description }")
            p.blank()
            p.doc("A mirror that shows a sensitive value as `<redacted>`.")
            p.block("public var customMirror: Mirror") { p in
                p.switchBlock("self") { p in
                    for variant in union.variants {
                        let label = SwiftLiteral.string(variant.caseName)
                        if isRedacted(variant.type) {
                            p.line(
                                "case .\(Emit.name(variant.caseName)): return Mirror(self, children: [\(label): HealthSignInCore.Redaction.placeholder], displayStyle: .enum)"
                            )
                        } else {
                            p.line(
                                "case .\(Emit.name(variant.caseName))(let value): return Mirror(self, children: [\(label): value], displayStyle: .enum)"
                            )
                        }
                    }
                }
            }
        }
    }

    /// Whether the value itself is hidden: a sensitive string, or an array of them.
    func isRedacted(_ type: IRTypeRef) -> Bool {
        if types.isSensitiveScalar(type) { return true }
        if case .array(let element) = type { return types.isSensitiveScalar(element) }
        return false
    }

    /// The property's entry in `redactedFields`: its value, or the placeholder (or `nil`) for a secret.
    private func redactedValue(_ property: IRProperty) -> String {
        let name = "self." + Emit.name(property.swiftName)
        if isRedacted(property.type) {
            return property.isOptional
                ? "HealthSignInCore.Redaction.hide(\(name))" : "HealthSignInCore.Redaction.placeholder"
        }
        return property.isOptional ? "\(name) as Any" : name
    }
}
