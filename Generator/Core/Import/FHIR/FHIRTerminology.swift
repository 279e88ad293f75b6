/// Lists the codes of a value set from its `compose`, the way a required binding's codes become an enum.
///
/// A value set can be listed when every `include` names codes explicitly, or takes a whole code system whose
/// concepts are all in the package, or another value set that can be listed. Filters, code systems outside the
/// package (UCUM, MIME types, LOINC) and exclusions make a value set that cannot be listed: its elements stay strings.
struct Terminology {
    let valueSets: [String: JSONNode]
    let codeSystems: [String: JSONNode]
    private var cache: [String: FHIRCodeList?] = [:]
    private var inProgress: Set<String> = []

    init(valueSets: [String: JSONNode], codeSystems: [String: JSONNode]) {
        self.valueSets = valueSets
        self.codeSystems = codeSystems
    }

    /// The codes of the value set at `url`, or nil when they cannot be listed.
    mutating func codes(ofValueSet url: String) -> FHIRCodeList? {
        if let cached = cache[url] { return cached }
        // A value set that includes itself, directly or not, cannot be listed.
        guard !inProgress.contains(url), let valueSet = valueSets[url],
            let name = valueSet["name"]?.stringValue, let compose = valueSet["compose"],
            compose["exclude"] == nil, let includes = compose["include"]?.elements, !includes.isEmpty
        else { return nil }
        inProgress.insert(url)
        defer { inProgress.remove(url) }
        var listed: [(code: String, display: String)] = []
        var seen: Set<String> = []
        func add(_ code: String, _ display: String) {
            if seen.insert(code).inserted { listed.append((code, display)) }
        }
        for include in includes {
            guard include["filter"] == nil else { return remember(url, nil) }
            if let concepts = include["concept"]?.elements {
                for concept in concepts {
                    guard let code = concept["code"]?.stringValue else { return remember(url, nil) }
                    add(code, concept["display"]?.stringValue ?? "")
                }
            } else if let system = include["system"]?.stringValue {
                guard let all = conceptsOf(system: system) else { return remember(url, nil) }
                for (code, display) in all { add(code, display) }
            }
            for nested in include["valueSet"]?.elements ?? [] {
                guard let nestedURL = nested.stringValue, let list = codes(ofValueSet: nestedURL) else {
                    return remember(url, nil)
                }
                for (code, display) in list.codes { add(code, display) }
            }
        }
        return remember(url, listed.isEmpty ? nil : FHIRCodeList(name: name, codes: listed))
    }

    private mutating func remember(_ url: String, _ list: FHIRCodeList?) -> FHIRCodeList? {
        cache[url] = .some(list)
        return list
    }

    /// Every concept of a complete code system in the package, depth first, or nil.
    private func conceptsOf(system: String) -> [(String, String)]? {
        guard let codeSystem = codeSystems[system], codeSystem["content"]?.stringValue == "complete",
            let concepts = codeSystem["concept"]?.elements
        else { return nil }
        var out: [(String, String)] = []
        func walk(_ nodes: [JSONNode]) -> Bool {
            for node in nodes {
                guard let code = node["code"]?.stringValue else { return false }
                out.append((code, node["display"]?.stringValue ?? ""))
                if let children = node["concept"]?.elements, !walk(children) { return false }
            }
            return true
        }
        return walk(concepts) ? out : nil
    }
}
