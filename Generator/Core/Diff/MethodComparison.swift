/// The changes to one method present in both sets: its client name, binding, paging, and request and response.
struct MethodComparison {
    let oldFamily: IRFamily
    let newFamily: IRFamily
    let old: IRMethod
    let new: IRMethod
    /// Error formats whose name changed, old name to new.
    let renamedFormats: [String: String]

    private var at: Provenance { new.provenance }
    private var oldAt: Provenance { old.provenance }

    mutating func compare(into diff: inout SchemaDiff) {
        if old.clientMethodName != new.clientMethodName || old.name != new.name {
            diff.report(
                .methodRenamed, old: oldAt, new: at,
                "\(old.name) is \(new.name), called \(new.clientMethodName), was \(old.clientMethodName)")
        }
        switch (old.binding, new.binding) {
        case (.http(let before), .http(let after)): compareHTTP(before, after, into: &diff)
        case (.healthvault(let before), .healthvault(let after)): compareHealthVault(before, after, into: &diff)
        default: diff.report(.bodyChanged, old: oldAt, new: at, "\(new.name) has another binding kind")
        }
        comparePaging(into: &diff)
        var walk = TypeWalk(old: oldFamily, new: newFamily)
        for (before, after, part) in [(old.request, new.request, "request"), (old.response, new.response, "response")] {
            switch (before, after) {
            case (nil, nil): continue
            case (let before?, let after?):
                walk.compare(
                    .named(before), .named(after), at: at.appending(part), oldAt: oldAt.appending(part),
                    into: &diff)
            default:
                diff.report(
                    .responseChanged, old: oldAt, new: at,
                    "\(new.name) has \(after == nil ? "no" : "a") \(part) schema now")
                if let before { diff.pairedAway(before, in: oldFamily) }
                if let after { diff.accountedNew(after, in: newFamily) }
            }
        }
    }

    private func compareHTTP(_ before: IRHTTPMethod, _ after: IRHTTPMethod, into diff: inout SchemaDiff) {
        let binding = at.appending("binding/http")
        let oldBinding = oldAt.appending("binding/http")
        if before.verb != after.verb {
            diff.report(
                .verbChanged, old: oldBinding, new: binding,
                "\(new.name) is sent with \(after.verb.rawValue), was \(before.verb.rawValue)")
        }
        if before.server != after.server {
            diff.report(
                .methodServerChanged, old: oldBinding, new: binding,
                "\(new.name) goes to \(after.server), went to \(before.server)")
        }
        if Self.path(before) != Self.path(after) {
            diff.report(
                .pathChanged, old: oldBinding, new: binding,
                "\(new.name)'s path is \(Self.path(after)), was \(Self.path(before))")
        }
        if before.auth != after.auth {
            diff.report(
                .authChanged, old: oldBinding, new: binding,
                "\(new.name) authenticates with \(after.auth.rawValue), did with \(before.auth.rawValue)")
        }
        if before.body != after.body {
            diff.report(
                .bodyChanged, old: oldBinding, new: binding,
                "\(new.name)'s request body is \(after.body.rawValue), was \(before.body.rawValue)")
        }
        if before.response != after.response {
            diff.report(
                .responseChanged, old: oldBinding, new: binding,
                "\(new.name)'s response is \(after.response.rawValue), was \(before.response.rawValue)")
        }
        if before.responseRoots != after.responseRoots {
            diff.report(
                .xmlShapeChanged, old: oldBinding, new: binding,
                "\(new.name)'s response root is \(SchemaDiff.roots(after.responseRoots)), was \(SchemaDiff.roots(before.responseRoots))"
            )
        }
        if before.headers != after.headers {
            diff.report(
                .methodHeadersChanged, old: oldBinding, new: binding,
                "\(new.name) sends \(FamilyComparison.describe(after.headers)), sent \(FamilyComparison.describe(before.headers))"
            )
        }
        let beforeErrors = before.errors.map { renamedFormats[$0] ?? $0 }
        for name in beforeErrors where !after.errors.contains(name) {
            diff.report(
                .methodErrorRemoved, old: oldBinding, new: binding, "\(new.name)'s errors no longer include \(name)")
        }
        for name in after.errors where !beforeErrors.contains(name) {
            diff.report(.methodErrorAdded, old: oldBinding, new: binding, "\(new.name)'s errors include \(name)")
        }
    }

    private func compareHealthVault(
        _ before: IRHealthVaultMethod, _ after: IRHealthVaultMethod, into diff: inout SchemaDiff
    ) {
        let binding = at.appending("binding/healthvault")
        let oldBinding = oldAt.appending("binding/healthvault")
        if before.auth != after.auth {
            diff.report(
                .authChanged, old: oldBinding, new: binding,
                "\(new.name) authenticates with \(after.auth.rawValue), did with \(before.auth.rawValue)")
        }
        let identity = { (method: IRHealthVaultMethod) in
            "\(method.method) v\(method.version) \(method.responseNamespace) record-scoped: \(method.recordScoped)"
        }
        if identity(before) != identity(after) {
            diff.report(
                .healthVaultMethodChanged, old: oldBinding, new: binding,
                "\(new.name) is \(identity(after)), was \(identity(before))")
        }
    }

    private static func path(_ method: IRHTTPMethod) -> String {
        method.pathSegments.map { segment -> String in
            switch segment {
            case .literal(let text): return text
            case .parameter(_, let wire): return "{" + wire + "}"
            }
        }.joined()
    }

    private func comparePaging(into diff: inout SchemaDiff) {
        let place = at.appending("paging")
        let oldPlace = oldAt.appending("paging")
        switch (old.paging, new.paging) {
        case (nil, nil): return
        case (nil, _?): diff.report(.pagingAdded, old: nil, new: place, "\(new.name) pages")
        case (_?, nil): diff.report(.pagingRemoved, old: oldPlace, new: nil, "\(new.name) no longer pages")
        case (let before?, let after?):
            let text = { (paging: IRPaging) in
                [paging.cursorPath, paging.itemsPath, paging.itemCursorPath, paging.morePath ?? []].map(PathText.of)
            }
            if text(before) != text(after) {
                diff.report(.pagingChanged, old: oldPlace, new: place, "\(new.name) finds its pages differently")
            }
        }
    }
}

extension Provenance {
    /// The place `component` below this one.
    func appending(_ component: String) -> Provenance {
        Provenance(file: file, pointer: pointer + "/" + component)
    }
}

extension SchemaDiff {
    /// Marks `name` and the types inside it as accounted for: a part of a method that is gone as a whole.
    mutating func pairedAway(_ name: IRTypeName, in family: IRFamily) {
        guard paired[name] == nil else { return }
        paired[name] = name
        for nested in family.typeTable[name]?.nestedTypes ?? [] { pairedAway(nested, in: family) }
    }

    /// Marks the new `name` and the types inside it as accounted for: a part of a method that is new as a whole.
    mutating func accountedNew(_ name: IRTypeName, in family: IRFamily) {
        guard pairedNew.insert(name).inserted else { return }
        for nested in family.typeTable[name]?.nestedTypes ?? [] { accountedNew(nested, in: family) }
    }

    /// The XML document elements a response may have, for a message: `any` when the method names none.
    fileprivate static func roots(_ names: [String]) -> String {
        names.isEmpty ? "any" : names.joined(separator: " or ")
    }
}
