import Foundation

/// Reads the files under `Tests/Fixtures`: request, response and error bodies per family and method.
public enum Fixtures {
    /// `Tests/Fixtures`.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// The repository root (the directory holding Package.swift).
    public static let repository = root.deletingLastPathComponent().deletingLastPathComponent()

    /// The bytes of `Tests/Fixtures/<path>`.
    public static func data(_ path: String) throws -> Data {
        try Data(contentsOf: root.appendingPathComponent(path))
    }

    /// The text of `Tests/Fixtures/<path>`.
    public static func text(_ path: String) throws -> String {
        String(decoding: try data(path), as: UTF8.self)
    }
}
