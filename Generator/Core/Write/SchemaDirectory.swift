import Foundation

/// Reads a schemas directory into memory.
enum SchemaDirectory {
    /// Every `.json` file directly inside the family directories of `root`, plus the files beside them.
    ///
    /// - Throws: `CocoaError` when the directory cannot be read; the message names the path.
    static func read(_ root: URL) throws -> [InMemoryFile] {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: root.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SchemaDirectoryError.notADirectory(root.path)
        }
        var files: [InMemoryFile] = []
        for entry in try manager.contentsOfDirectory(atPath: root.path).sorted() where !entry.hasPrefix(".") {
            let url = root.appendingPathComponent(entry)
            guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                continue
            }
            for name in try manager.contentsOfDirectory(atPath: url.path).sorted()
            where name.hasSuffix(".json") && !name.hasPrefix(".") {
                let data = try Data(contentsOf: url.appendingPathComponent(name))
                guard let text = String(data: data, encoding: .utf8) else {
                    throw SchemaDirectoryError.notUTF8(entry + "/" + name)
                }
                files.append(InMemoryFile(path: entry + "/" + name, contents: text))
            }
        }
        return files
    }
}

/// The schemas directory could not be read.
enum SchemaDirectoryError: Error, CustomStringConvertible {
    case notADirectory(String)
    case notUTF8(String)

    var description: String {
        switch self {
        case .notADirectory(let path):
            return "error: the schemas directory \(path) does not exist or is not a directory (pass --schemas DIR)"
        case .notUTF8(let path): return "error: \(path) is not UTF-8 text"
        }
    }
}
