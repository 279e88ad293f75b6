import Foundation

/// The inputs a fuzz target is seeded with (`Fuzz/seeds.txt`) and its regression inputs (`Tests/Fixtures/Fuzz/<target>/`).
public enum FuzzCorpus {
    /// Every seed and regression file of the target called `target`, sorted.
    public static func files(for target: some RawRepresentable<String>) throws -> [URL] {
        let listing = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("Fuzz/seeds.txt"), encoding: .utf8)
        var patterns = ["Tests/Fixtures/Fuzz/\(target.rawValue)/*"]
        for line in listing.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count == 2, fields[0] == target.rawValue { patterns.append(String(fields[1])) }
        }
        return patterns.flatMap(matches).sorted { $0.path < $1.path }
    }

    /// The files matching `pattern`, whose components may contain `*`.
    static func matches(_ pattern: String) -> [URL] {
        var candidates = [Fixtures.repository]
        for component in pattern.split(separator: "/") {
            candidates = candidates.flatMap { directory -> [URL] in
                guard component.contains("*") else {
                    let next = directory.appendingPathComponent(String(component))
                    return FileManager.default.fileExists(atPath: next.path) ? [next] : []
                }
                let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
                return names.filter { !$0.hasPrefix(".") && matches(Substring($0), component) }.map(
                    directory.appendingPathComponent)
            }
        }
        return candidates.filter { url in
            var isDirectory: ObjCBool = false
            return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && !isDirectory.boolValue
        }
    }

    /// Whether `name` matches `pattern`, where `*` matches any run of characters.
    private static func matches(_ name: Substring, _ pattern: Substring) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return name == pattern }
        let prefix = pattern[..<star]
        let rest = pattern[pattern.index(after: star)...]
        guard name.hasPrefix(prefix) else { return false }
        var tail = name.dropFirst(prefix.count)
        while true {
            if matches(tail, rest) { return true }
            guard !tail.isEmpty else { return false }
            tail = tail.dropFirst()
        }
    }
}
