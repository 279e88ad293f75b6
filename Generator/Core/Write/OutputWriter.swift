import Foundation

/// Writes generated files: only those whose bytes changed, deleting generated files whose schema is gone.
///
/// It owns `<sources>/<Module>/Generated/` and `<tests>/<Module>Tests/Generated/` of each generated family: every
/// `.swift` file there that the generator did not produce is an orphan.
struct OutputWriter {
    /// One difference between the generated files and the disk.
    enum Change: Sendable, Hashable {
        case create(path: String, contents: String)
        case update(path: String, old: String, new: String)
        case delete(path: String, old: String)

        /// The file's path.
        var path: String {
            switch self {
            case .create(let path, _), .update(let path, _, _), .delete(let path, _): return path
            }
        }

        /// A unified diff of the change.
        var diff: String {
            switch self {
            case .create(let path, let contents):
                return UnifiedDiff.diff(old: "", new: contents, oldName: "/dev/null", newName: path)
            case .update(let path, let old, let new):
                return UnifiedDiff.diff(old: old, new: new, oldName: path, newName: path)
            case .delete(let path, let old):
                return UnifiedDiff.diff(old: old, new: "", oldName: path, newName: "/dev/null")
            }
        }
    }

    /// The sources root, e.g. `Sources`.
    let sources: URL
    /// The tests root, e.g. `Tests` (used only for test samples).
    let tests: URL

    /// The changes that writing `files` for the families generated into `modules` would make, in path order.
    func plan(_ files: [GeneratedFile], modules: [String], testSamples: Bool) throws -> [Change] {
        let manager = FileManager.default
        var wanted: [String: String] = [:]
        for file in files { wanted[display(url(for: file).standardizedFileURL.path)] = file.contents }
        var changes: [Change] = []
        for (path, contents) in wanted {
            if let data = manager.contents(atPath: path) {
                let old = String(decoding: data, as: UTF8.self)
                if old != contents { changes.append(.update(path: path, old: old, new: contents)) }
            } else {
                changes.append(.create(path: path, contents: contents))
            }
        }
        var owned = modules.map { sources.appendingPathComponent($0).appendingPathComponent("Generated") }
        if testSamples {
            owned += modules.map { tests.appendingPathComponent($0 + "Tests").appendingPathComponent("Generated") }
        }
        for directory in owned {
            guard let enumerator = manager.enumerator(atPath: directory.path) else { continue }
            while let relative = enumerator.nextObject() as? String {
                let path = display(directory.appendingPathComponent(relative).standardizedFileURL.path)
                guard relative.hasSuffix(".swift"), wanted[path] == nil, let data = manager.contents(atPath: path)
                else { continue }
                changes.append(.delete(path: path, old: String(decoding: data, as: UTF8.self)))
            }
        }
        return changes.sorted { $0.path < $1.path }
    }

    /// Applies `changes`, creating directories as needed and removing directories left empty.
    func apply(_ changes: [Change]) throws {
        let manager = FileManager.default
        var directories: Set<String> = []
        for change in changes {
            switch change {
            case .create(let path, let contents), .update(let path, _, let contents):
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                if directories.insert(directory).inserted {
                    try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
                }
                try FileReplacement.replace(path, with: Array(contents.utf8))
            case .delete(let path, _):
                try manager.removeItem(atPath: path)
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
                if (try? manager.contentsOfDirectory(atPath: directory.path))?.isEmpty == true {
                    try? manager.removeItem(at: directory)
                }
            }
        }
    }

    /// `path` relative to the working directory when it is inside it, so diffs show `Sources/…` paths.
    private func display(_ path: String) -> String {
        let base = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(base) ? String(path.dropFirst(base.count)) : path
    }

    private func url(for file: GeneratedFile) -> URL {
        let root = file.root == .sources ? sources : tests
        return file.path.split(separator: "/").reduce(root) { $0.appendingPathComponent(String($1)) }
    }
}
