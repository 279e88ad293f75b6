/// The changes inside one family present in both sets: its module, servers, binding settings, error formats, methods,
/// and every type, walked from the methods.
struct FamilyComparison {
    let old: IRFamily
    let new: IRFamily

    mutating func compare(into diff: inout SchemaDiff) {
        if old.module != new.module {
            diff.report(
                .moduleRenamed, old: old.protocolFile, new: new.protocolFile,
                "\(new.name)'s module is \(new.module), was \(old.module)")
        }
        compareServers(into: &diff)
        compareBinding(into: &diff)
        compareErrorFormats(into: &diff)
        compareMethods(into: &diff)
        compareRemainingTypes(into: &diff)
    }

    private func server(_ family: IRFamily, _ name: String) -> Provenance {
        Provenance(file: family.directory + "/protocol.json", pointer: "/servers/" + Pointer.escape(name))
    }

    private func compareServers(into diff: inout SchemaDiff) {
        let newServers = Dictionary(new.servers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let oldNames = Set(old.servers.map(\.name))
        for server in old.servers {
            guard let other = newServers[server.name] else {
                diff.report(
                    .serverRemoved, old: self.server(old, server.name), new: nil, "the server \(server.name) is gone")
                continue
            }
            if server.defaultURL != other.defaultURL {
                diff.report(
                    .serverDefaultChanged, old: self.server(old, server.name), new: self.server(new, server.name),
                    "the server \(server.name)'s default is \(other.defaultURL ?? "none"), was \(server.defaultURL ?? "none")"
                )
            }
        }
        for server in new.servers where !oldNames.contains(server.name) {
            diff.report(.serverAdded, old: nil, new: self.server(new, server.name), "the server \(server.name) is new")
        }
    }

    private func compareBinding(into diff: inout SchemaDiff) {
        let place = Provenance(file: new.directory + "/protocol.json", pointer: "/binding")
        let oldPlace = Provenance(file: old.directory + "/protocol.json", pointer: "/binding")
        switch (old.binding, new.binding) {
        case (.http(let before), .http(let after)):
            if before.apiKeyHeader != after.apiKeyHeader {
                diff.report(
                    .apiKeyHeaderChanged, old: oldPlace, new: place,
                    "the API key travels in \(after.apiKeyHeader ?? "no header"), was \(before.apiKeyHeader ?? "none")")
            }
            if before.headers != after.headers {
                diff.report(
                    .familyHeadersChanged, old: oldPlace, new: place,
                    "every request sends \(Self.describe(after.headers)), was \(Self.describe(before.headers))")
            }
            if before.xmlPrimitives != after.xmlPrimitives {
                diff.report(
                    .envelopeChanged, old: oldPlace, new: place,
                    "XML primitives are written as \(after.xmlPrimitives.rawValue), were \(before.xmlPrimitives.rawValue)"
                )
            }
        case (.healthvault(let before), .healthvault(let after)):
            if before != after {
                diff.report(.envelopeChanged, old: oldPlace, new: place, "the HealthVault envelope settings changed")
            }
        default:
            diff.report(.envelopeChanged, old: oldPlace, new: place, "the family's binding is another kind")
        }
    }

    static func describe(_ headers: [HTTPHeaderField]) -> String {
        headers.isEmpty ? "no header fields" : headers.map { "\($0.name): \($0.value)" }.joined(separator: ", ")
    }

    // MARK: - Error formats

    private func compareErrorFormats(into diff: inout SchemaDiff) {
        // Another family's formats are compared in that family.
        let ownOld = old.errors.filter { $0.module == nil }
        var unmatched = new.errors.filter { $0.module == nil }
        var removed: [IRErrorFormat] = []
        for format in ownOld {
            if let index = unmatched.firstIndex(where: { $0.name == format.name }) {
                compareErrorFormat(format, unmatched.remove(at: index), into: &diff)
            } else {
                removed.append(format)
            }
        }
        // A format with another name but the same codes and encodings is the same format renamed.
        for format in removed {
            guard let newName = diff.renamedFormats[format.name],
                let index = unmatched.firstIndex(where: { $0.name == newName })
            else {
                diff.report(
                    .errorFormatRemoved, old: format.provenance, new: nil, "the error format \(format.name) is gone")
                continue
            }
            let other = unmatched.remove(at: index)
            diff.report(
                .errorFormatRenamed, old: format.provenance, new: other.provenance,
                "the error format \(format.name) is \(other.name) now")
            compareErrorFormat(format, other, into: &diff)
        }
        for format in unmatched {
            diff.report(.errorFormatAdded, old: nil, new: format.provenance, "the error format \(format.name) is new")
        }
    }

    /// The family's error formats whose name changed (same codes, same encodings), old name to new.
    static func renamedFormats(old: IRFamily, new: IRFamily) -> [String: String] {
        let ownNew = new.errors.filter { $0.module == nil }
        var unmatched = ownNew.filter { format in !old.errors.contains { $0.name == format.name } }
        var renames: [String: String] = [:]
        for format in old.errors where format.module == nil && !ownNew.contains(where: { $0.name == format.name }) {
            if let index = unmatched.firstIndex(where: { sameCodes($0, format) }) {
                renames[format.name] = unmatched.remove(at: index).name
            }
        }
        return renames
    }

    /// Whether two formats read the same codes the same ways.
    private static func sameCodes(_ a: IRErrorFormat, _ b: IRErrorFormat) -> Bool {
        let codes = { (format: IRErrorFormat) in (format.codeType?.codes ?? []).map(\.value) }
        return a.json == b.json && a.xml == b.xml && a.root == b.root && !codes(a).isEmpty && codes(a) == codes(b)
    }

    private func compareErrorFormat(_ before: IRErrorFormat, _ after: IRErrorFormat, into diff: inout SchemaDiff) {
        let paths = { (format: IRErrorFormat) in
            [format.codePaths.map(PathText.of), format.messagePaths.map(PathText.of)]
        }
        if paths(before) != paths(after) || before.json != after.json || before.xml != after.xml
            || before.root != after.root
        {
            diff.report(
                .errorFieldsChanged, old: before.provenance, new: after.provenance,
                "\(after.name) finds its code, message or body differently")
        }
        var types = TypeWalk(old: old, new: new)
        types.compare(before.body, after.body, at: after.provenance, oldAt: before.provenance, into: &diff)
        let beforeCodes = before.codeType?.codes ?? []
        let afterCodes = after.codeType?.codes ?? []
        let place = after.codeType?.provenance ?? after.provenance
        let oldPlace = before.codeType?.provenance ?? before.provenance
        for code in beforeCodes {
            guard let other = afterCodes.first(where: { $0.value == code.value }) else {
                diff.report(.errorCodeRemoved, old: oldPlace, new: nil, "\(before.name)'s code \(code.name) is gone")
                continue
            }
            if other.swiftName != code.swiftName {
                diff.report(
                    .errorCodeRenamed, old: oldPlace, new: place,
                    "\(after.name)'s code \(code.name) is the case \(other.swiftName), was \(code.swiftName)")
            }
            if other.recovery != code.recovery {
                diff.report(
                    .recoveryChanged, old: oldPlace, new: place,
                    "\(after.name)'s code \(code.name) asks for \(other.recovery), asked for \(code.recovery)")
            }
        }
        for code in afterCodes where !beforeCodes.contains(where: { $0.value == code.value }) {
            diff.report(.errorCodeAdded, old: nil, new: place, "\(after.name) has the new code \(code.name)")
        }
    }

    // MARK: - Methods

    private func compareMethods(into diff: inout SchemaDiff) {
        var unmatchedNew = new.methods
        var pairs: [(IRMethod, IRMethod)] = []
        var unmatchedOld: [IRMethod] = []
        for method in old.methods {
            if let index = unmatchedNew.firstIndex(where: { $0.name == method.name }) {
                pairs.append((method, unmatchedNew.remove(at: index)))
            } else {
                unmatchedOld.append(method)
            }
        }
        // A method renamed in its schema is the same request if it goes to the same place.
        for method in unmatchedOld {
            if let index = unmatchedNew.firstIndex(where: { Self.endpoint($0) == Self.endpoint(method) }) {
                pairs.append((method, unmatchedNew.remove(at: index)))
            } else {
                diff.report(.methodRemoved, old: method.provenance, new: nil, "the method \(method.name) is gone")
                for type in [method.request, method.response].compactMap({ $0 }) + method.namespaceTypes {
                    diff.pairedAway(type, in: old)
                }
            }
        }
        for method in unmatchedNew {
            diff.report(.methodAdded, old: nil, new: method.provenance, "the method \(method.name) is new")
            for type in [method.request, method.response].compactMap({ $0 }) + method.namespaceTypes {
                diff.accountedNew(type, in: new)
            }
        }
        for (before, after) in pairs {
            var comparison = MethodComparison(
                oldFamily: old, newFamily: new, old: before, new: after, renamedFormats: diff.renamedFormats)
            comparison.compare(into: &diff)
        }
    }

    /// Where a request goes, which identifies a method whose name changed.
    private static func endpoint(_ method: IRMethod) -> String {
        switch method.binding {
        case .http(let http):
            let path = http.pathSegments.map { segment -> String in
                switch segment {
                case .literal(let text): return text
                case .parameter(_, let wire): return "{" + wire + "}"
                }
            }
            return "http " + http.verb.rawValue + " " + http.server + " " + path.joined()
        case .healthvault(let healthVault): return "healthvault " + healthVault.method
        }
    }

    // MARK: - Types

    /// The family's own types that no walk paired: added, removed, or renamed where only their names tell.
    private func compareRemainingTypes(into diff: inout SchemaDiff) {
        let ownOld = old.typeTable.names.filter { old.typeTable[$0]?.module == nil && diff.paired[$0] == nil }
        let ownNew = Set(
            new.typeTable.names.filter { new.typeTable[$0]?.module == nil && !diff.pairedNew.contains($0) })
        var walk = TypeWalk(old: old, new: new)
        for name in ownOld {
            guard let type = old.typeTable[name] else { continue }
            if ownNew.contains(name), let other = new.typeTable[name] {
                walk.compare(.named(name), .named(name), at: other.provenance, oldAt: type.provenance, into: &diff)
            } else {
                diff.report(.typeRemoved, old: type.provenance, new: nil, "the type \(name) is gone")
            }
        }
        for name in ownNew.sorted(by: { $0.qualified < $1.qualified })
        where old.typeTable[name] == nil || old.typeTable[name]?.module != nil {
            guard let type = new.typeTable[name], !diff.pairedNew.contains(name) else { continue }
            diff.report(.typeAdded, old: nil, new: type.provenance, "the type \(name) is new")
        }
    }
}

/// A member chain as text, for comparing where paging and error formats look.
enum PathText {
    static func of(_ steps: [IRPathStep]) -> String {
        steps.map { step -> String in
            switch step {
            case .property(let property): return property.wireName
            case .first: return "0"
            case .each: return "*"
            }
        }.joined(separator: "/")
    }
}

/// JSON pointer escaping (RFC 6901).
enum Pointer {
    static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
