import Foundation

/// Walks a message's shape in both versions at once, from a method's request or response, an error body or a named
/// type: pairs named types (reporting a renamed or re-kinded one), pairs an object's properties by Swift name and
/// then by wire name, and compares every property, enum value, `oneOf` variant and validation keyword.
struct TypeWalk {
    let old: IRFamily
    let new: IRFamily

    /// Compares what `before` and `after` describe at the same place of a message.
    ///
    /// - Returns: whether their shapes are the same kind (so a caller reports a changed type otherwise).
    @discardableResult
    mutating func compare(
        _ before: IRTypeRef, _ after: IRTypeRef, at: Provenance, oldAt: Provenance, into diff: inout SchemaDiff
    ) -> Bool {
        // An alias on one side only is the shape it stands for.
        var left = before
        var right = after
        if old.typeTable.isAlias(left) != new.typeTable.isAlias(right) {
            left = old.typeTable.resolved(left)
            right = new.typeTable.resolved(right)
        }
        switch (left, right) {
        case (.scalar(let a, _), .scalar(let b, _)):
            return a == b
        case (.array(let a), .array(let b)), (.map(let a), .map(let b)):
            return compare(a, b, at: at, oldAt: oldAt, into: &diff)
        case (.named(let a), .named(let b)):
            guard let beforeType = old.typeTable[a], let afterType = new.typeTable[b] else { return a == b }
            return compareTypes(beforeType, afterType, into: &diff)
        default:
            return false
        }
    }

    /// Compares two named types at the same place; reports a renamed or re-kinded type.
    private mutating func compareTypes(_ before: IRType, _ after: IRType, into diff: inout SchemaDiff) -> Bool {
        // Another family's type is compared in that family's own diff; here it only has to be the same kind of
        // thing (its module's name may have changed, which that family reports).
        if before.module != nil || after.module != nil {
            return before.module == after.module && Self.kindName(before.kind) == Self.kindName(after.kind)
        }
        guard diff.compared.insert([before.qualifiedName, after.qualifiedName]).inserted else { return true }
        if diff.paired[before.qualifiedName] == nil { diff.paired[before.qualifiedName] = after.qualifiedName }
        diff.pairedNew.insert(after.qualifiedName)
        // A name that still exists for its own type is not a rename: the place now holds another type.
        if before.qualifiedName != after.qualifiedName, new.typeTable[before.qualifiedName] == nil {
            diff.report(
                .typeRenamed, old: before.provenance, new: after.provenance,
                "\(before.qualifiedName) is \(after.qualifiedName) now")
        }
        switch (before.kind, after.kind) {
        case (.object(let a), .object(let b)):
            compareObjects(before, a, after, b, into: &diff)
        case (.enumeration(let a), .enumeration(let b)):
            compareEnums(before, a, after, b, into: &diff)
        case (.union(let a), .union(let b)):
            compareUnions(before, a, after, b, into: &diff)
        case (.alias(let a), .alias(let b)):
            if !compare(a, b, at: after.provenance, oldAt: before.provenance, into: &diff) {
                diff.report(
                    .typeKindChanged, old: before.provenance, new: after.provenance,
                    "\(after.qualifiedName) stands for \(b.swiftType), stood for \(a.swiftType)")
            }
            compareConstraints(
                before.constraints, after.constraints, what: after.qualifiedName.qualified, oldAt: before.provenance,
                at: after.provenance, into: &diff)
        default:
            diff.report(
                .typeKindChanged, old: before.provenance, new: after.provenance,
                "\(after.qualifiedName) is \(Self.kindName(after.kind)), was \(Self.kindName(before.kind))")
        }
        return true
    }

    private static func kindName(_ kind: IRType.Kind) -> String {
        switch kind {
        case .object: return "an object"
        case .enumeration: return "an enum"
        case .union: return "a oneOf"
        case .alias(let target): return target.swiftType
        }
    }

    // MARK: - Objects

    private mutating func compareObjects(
        _ beforeType: IRType, _ before: [IRProperty], _ afterType: IRType, _ after: [IRProperty],
        into diff: inout SchemaDiff
    ) {
        var remaining = after
        var pairs: [(IRProperty, IRProperty)] = []
        var removed: [IRProperty] = []
        for property in before {
            if let index = remaining.firstIndex(where: { $0.swiftName == property.swiftName }) {
                pairs.append((property, remaining.remove(at: index)))
            } else {
                removed.append(property)
            }
        }
        removed = removed.filter { property in
            guard let index = remaining.firstIndex(where: { $0.wireName == property.wireName }) else { return true }
            pairs.append((property, remaining.remove(at: index)))
            return false
        }
        let owner = afterType.qualifiedName.qualified
        for property in removed {
            let breaksWire = property.isRequired || beforeType.isClosed || !property.isStored
            diff.report(
                breaksWire ? .propertyRemovedRequired : .propertyRemovedOptional, old: property.provenance, new: nil,
                "\(owner).\(property.swiftName) (\(property.wireName)) is gone")
        }
        for property in remaining {
            let rule: DiffRule
            if !property.isStored {
                rule = .constantChanged
            } else if property.isRequired && property.defaultExpression == nil {
                rule = .propertyAddedRequired
            } else if property.isRequired {
                // The initializer fills it in, but a message written without it is refused.
                rule = .propertyAddedRequiredWithDefault
            } else if beforeType.isClosed {
                rule = .propertyAddedToClosedObject
            } else {
                rule = .propertyAddedOptional
            }
            diff.report(
                rule, old: nil, new: property.provenance,
                "\(owner).\(property.swiftName) (\(property.wireName)) is new\(property.isRequired ? " and required" : "")"
            )
        }
        let xml = beforeType.needsXML || afterType.needsXML
        for (a, b) in pairs { compareProperties(a, b, owner: owner, xml: xml, into: &diff) }
        // The initializer takes the stored properties in the order the schema lists them.
        let storedOrder = pairs.filter { $0.0.isStored && $0.1.isStored }
            .sorted { before.firstIndex(of: $0.0) ?? 0 < before.firstIndex(of: $1.0) ?? 0 }
            .map { after.firstIndex(of: $0.1) ?? 0 }
        if storedOrder != storedOrder.sorted() {
            diff.report(
                .propertiesReordered, old: beforeType.provenance, new: afterType.provenance,
                "\(owner)'s properties are listed in another order")
            if afterType.needsXML {
                diff.report(
                    .xmlShapeChanged, old: beforeType.provenance, new: afterType.provenance,
                    "\(owner)'s elements are written in another order")
            }
        }
        if beforeType.isClosed != afterType.isClosed {
            diff.report(
                afterType.isClosed ? .objectClosed : .objectOpened, old: beforeType.provenance,
                new: afterType.provenance,
                "\(owner) \(afterType.isClosed ? "refuses" : "allows") members beyond its properties")
        }
        switch (beforeType.extraMembers, afterType.extraMembers) {
        case (nil, nil): break
        case (let a?, let b?):
            if !compare(a, b, at: afterType.provenance, oldAt: beforeType.provenance, into: &diff) {
                diff.report(
                    .additionalPropertiesChanged, old: beforeType.provenance, new: afterType.provenance,
                    "\(owner) keeps other members as \(b.swiftType), kept them as \(a.swiftType)")
            }
            compareConstraints(
                beforeType.extraConstraints, afterType.extraConstraints, what: owner + " (other members)",
                oldAt: beforeType.provenance, at: afterType.provenance, into: &diff)
        case (nil, let kept?):
            diff.report(
                .additionalPropertiesKept, old: beforeType.provenance, new: afterType.provenance,
                "\(owner) keeps the members beyond its properties, as \(kept.swiftType)")
        case (_?, nil):
            diff.report(
                .additionalPropertiesChanged, old: beforeType.provenance, new: afterType.provenance,
                "\(owner) no longer keeps the members beyond its properties")
        }
    }

    private mutating func compareProperties(
        _ before: IRProperty, _ after: IRProperty, owner: String, xml: Bool, into diff: inout SchemaDiff
    ) {
        let name = "\(owner).\(after.swiftName)"
        let report = { (diff: inout SchemaDiff, rule: DiffRule, message: String) in
            diff.report(rule, old: before.provenance, new: after.provenance, message)
        }
        if before.wireName != after.wireName {
            report(&diff, .propertyWireNameChanged, "\(name) is \(after.wireName) on the wire, was \(before.wireName)")
        }
        if before.swiftName != after.swiftName {
            report(&diff, .propertySwiftNameChanged, "\(owner).\(before.swiftName) is called \(after.swiftName)")
        }
        switch (before.storage, after.storage) {
        case (.constant(let a), .constant(let b)):
            // The rest applies to a constant too: whether it must be present, where it travels, its other values.
            if a != b { report(&diff, .constantChanged, "\(name) is always \(b), was always \(a)") }
        case (.stored, .stored), (.fixed, .fixed), (.bound, .bound):
            break
        default:
            report(
                &diff, .propertyTypeChanged, "\(name) is held differently (a stored value, a constant or a bound one)")
            return
        }
        if !compare(before.type, after.type, at: after.provenance, oldAt: before.provenance, into: &diff) {
            report(&diff, .propertyTypeChanged, "\(name) is \(after.type.swiftType), was \(before.type.swiftType)")
            return
        }
        if before.isRequired != after.isRequired {
            let presence = after.isRequired ? "must be present" : "may be left out"
            if !after.isStored || (before.isOptional && after.isOptional) {
                // Not a field of the model, or a nullable one that is optional in Swift either way: only the wire sees it.
                report(&diff, .requirementChanged, "\(name) \(presence) now")
            } else if after.isRequired {
                report(&diff, .propertyBecameRequired, "\(name) is required")
            } else if before.isOptional == after.isOptional {
                report(&diff, .arrayBecameOptional, "\(name) may be left out (an empty array then)")
            } else {
                report(&diff, .propertyBecameOptional, "\(name) may be left out")
            }
        } else if before.isOptional != after.isOptional {
            report(
                &diff, after.isOptional ? .propertyBecameOptional : .propertyBecameRequired,
                "\(name)'s Swift type changed")
        }
        if before.isNullable != after.isNullable {
            report(&diff, .nullabilityChanged, "\(name) \(after.isNullable ? "may" : "may not") be null")
        }
        if before.defaultExpression != after.defaultExpression {
            report(
                &diff, .defaultChanged,
                "\(name)'s default is \(after.defaultExpression ?? "none"), was \(before.defaultExpression ?? "none")")
        }
        if old.typeTable.isSensitiveScalar(before.type) != new.typeTable.isSensitiveScalar(after.type) {
            report(
                &diff, .sensitivityChanged,
                "\(name) is \(new.typeTable.isSensitiveScalar(after.type) ? "" : "not ")sensitive")
        }
        if before.location != after.location {
            report(
                &diff, .locationChanged,
                "\(name) travels in \(after.location?.rawValue ?? "the body"), did in \(before.location?.rawValue ?? "the body")"
            )
        }
        if before.aliases != after.aliases || before.alsoAccepts != after.alsoAccepts
            || before.acceptsString != after.acceptsString || before.acceptSingle != after.acceptSingle
        {
            report(&diff, .aliasesChanged, "\(name) is read from other names or forms")
        }
        if xml,
            before.xmlKind != after.xmlKind || before.xmlName != after.xmlName
                || before.xmlItemName != after.xmlItemName
        {
            report(&diff, .xmlShapeChanged, "\(name)'s XML shape changed")
        }
        compareConstraints(
            before.constraints, after.constraints, what: name, oldAt: before.provenance, at: after.provenance,
            into: &diff)
    }

    // MARK: - Enums and unions

    private func compareEnums(
        _ beforeType: IRType, _ before: [IREnumCase], _ afterType: IRType, _ after: [IREnumCase],
        into diff: inout SchemaDiff
    ) {
        let name = afterType.qualifiedName.qualified
        for value in before {
            guard let other = after.first(where: { $0.wireValue == value.wireValue }) else {
                diff.report(
                    .enumValueRemoved, old: beforeType.provenance, new: afterType.provenance,
                    "\(name) no longer has \"\(value.wireValue)\"")
                continue
            }
            if other.swiftName != value.swiftName {
                diff.report(
                    .enumCaseRenamed, old: beforeType.provenance, new: afterType.provenance,
                    "\(name)'s \"\(value.wireValue)\" is .\(other.swiftName), was .\(value.swiftName)")
            }
        }
        for value in after where !before.contains(where: { $0.wireValue == value.wireValue }) {
            diff.report(
                .enumValueAdded, old: beforeType.provenance, new: afterType.provenance,
                "\(name) has the new value \"\(value.wireValue)\"")
        }
    }

    private mutating func compareUnions(
        _ beforeType: IRType, _ before: IRUnion, _ afterType: IRType, _ after: IRUnion, into diff: inout SchemaDiff
    ) {
        let name = afterType.qualifiedName.qualified
        if before.discriminator != after.discriminator {
            diff.report(
                .discriminatorChanged, old: beforeType.provenance, new: afterType.provenance,
                "\(name) is told apart by \(after.discriminator ?? "its variants' shapes"), was by \(before.discriminator ?? "its variants' shapes")"
            )
        }
        var remaining = after.variants
        for (position, variant) in before.variants.enumerated() {
            // By discriminating value, by case name, by the named type it holds, else (without a discriminator) the
            // variant in the same place: a renamed case. With a discriminator, a variant whose tag, case and type
            // all changed is another variant, whatever its place (HL7 drops one resource where it adds another).
            let index =
                remaining.firstIndex {
                    $0.discriminatorValue != nil && $0.discriminatorValue == variant.discriminatorValue
                }
                ?? remaining.firstIndex { $0.caseName == variant.caseName }
                ?? remaining.firstIndex { holdSameNamedType(variant, $0) }
                ?? (after.discriminator == nil
                    ? samePlace(position, before: before, after: after, remaining: remaining) : nil)
            guard let index else {
                diff.report(
                    .variantRemoved, old: beforeType.provenance, new: afterType.provenance,
                    "\(name) no longer has the variant .\(variant.caseName)")
                continue
            }
            let other = remaining.remove(at: index)
            if other.caseName != variant.caseName {
                diff.report(
                    .variantRenamed, old: beforeType.provenance, new: afterType.provenance,
                    "\(name)'s variant .\(variant.caseName) is .\(other.caseName)")
            }
            if other.discriminatorValue != variant.discriminatorValue {
                diff.report(
                    .discriminatorChanged, old: beforeType.provenance, new: afterType.provenance,
                    "\(name)'s variant .\(other.caseName) is named \(other.discriminatorValue ?? "nothing")")
            }
            if !compare(variant.type, other.type, at: afterType.provenance, oldAt: beforeType.provenance, into: &diff) {
                diff.report(
                    .variantRemoved, old: beforeType.provenance, new: afterType.provenance,
                    "\(name)'s variant .\(other.caseName) holds \(other.type.swiftType), held \(variant.type.swiftType)"
                )
            }
            compareConstraints(
                variant.constraints, other.constraints, what: "\(name).\(other.caseName)", oldAt: beforeType.provenance,
                at: afterType.provenance, into: &diff)
        }
        for variant in remaining {
            diff.report(
                .variantAdded, old: beforeType.provenance, new: afterType.provenance,
                "\(name) has the new variant .\(variant.caseName)")
        }
    }

    /// Whether two variants hold the named type of the same name.
    private func holdSameNamedType(_ before: IRVariant, _ after: IRVariant) -> Bool {
        guard case .named(let a) = old.typeTable.resolved(before.type),
            case .named(let b) = new.typeTable.resolved(after.type)
        else { return false }
        return a == b
    }

    /// The index in `remaining` of the variant at `position` of `after`, when neither union has a case of that
    /// variant's name on the other side.
    private func samePlace(_ position: Int, before: IRUnion, after: IRUnion, remaining: [IRVariant]) -> Int? {
        guard position < after.variants.count else { return nil }
        let candidate = after.variants[position]
        guard !before.variants.contains(where: { $0.caseName == candidate.caseName }),
            sameShape(before.variants[position].type, candidate.type)
        else { return nil }
        return remaining.firstIndex { $0.caseName == candidate.caseName }
    }

    /// Whether two references are the same shape at their top: the same scalar, both arrays or maps, or named types
    /// of the same kind.
    private func sameShape(_ before: IRTypeRef, _ after: IRTypeRef) -> Bool {
        switch (old.typeTable.resolved(before), new.typeTable.resolved(after)) {
        case (.scalar(let a, _), .scalar(let b, _)): return a == b
        case (.array, .array), (.map, .map): return true
        case (.named(let a), .named(let b)):
            guard let left = old.typeTable[a], let right = new.typeTable[b] else { return false }
            return Self.kindName(left.kind) == Self.kindName(right.kind)
        default: return false
        }
    }

    // MARK: - Validation keywords

    private func compareConstraints(
        _ before: IRConstraints, _ after: IRConstraints, what: String, oldAt: Provenance, at: Provenance,
        into diff: inout SchemaDiff
    ) {
        for change in ConstraintChange.changes(from: before.checks, to: after.checks) {
            diff.report(
                change.tightened ? .constraintTightened : .constraintLoosened, old: oldAt, new: at,
                "\(what): \(change.text)")
        }
        if before.elements != after.elements {
            compareConstraints(
                before.elements, after.elements, what: what + " (items)", oldAt: oldAt, at: at, into: &diff)
        }
    }
}

extension IRTypeTable {
    /// Whether `reference` names an alias (of a scalar, an array, a map or another type).
    func isAlias(_ reference: IRTypeRef) -> Bool {
        guard case .named(let name) = reference, case .alias? = self[name]?.kind else { return false }
        return true
    }
}
