import Foundation

/// Compiles generated Swift as one executable module against the debug build of HealthSignInCore, and runs it: how tests
/// prove that generated code compiles and behaves, without a package of its own.
public enum SwiftCompiler {
    /// Compiles `sources` (paths; one of them a `main.swift`) as module `module` into `executable`.
    public static func compile(module: String, sources: [String], executable: URL) throws -> Subprocess.Outcome {
        let build = Fixtures.repository.appendingPathComponent(".build/debug")
        // The runtime, the modules it depends on, and its test doubles.
        var objects: [String] = []
        for module in ["HealthSignInHTTP", "HealthSignInCore", "HealthSignInSchemaSemantics", "HealthSignInTesting"] {
            objects += try objectFiles(in: build.appendingPathComponent(module + ".build"))
        }
        guard objects.contains(where: { $0.contains("HealthSignInCore.build") }) else {
            return Subprocess.Outcome(
                status: -1, output: "the runtime's debug build is missing (swift build --build-tests)")
        }
        var arguments: [String] = [
            "swiftc", "-module-name", module, "-swift-version", "6", "-Onone", "-I",
            build.appendingPathComponent("Modules").path,
        ]
        arguments += systemLibraryArguments
        return try Subprocess.run(arguments + sources + objects + ["-o", executable.path])
    }

    /// Type-checks `sources` as a file of an app that imports the debug build's modules, without compiling them.
    public static func typecheck(sources: [String]) throws -> Subprocess.Outcome {
        let modules = Fixtures.repository.appendingPathComponent(".build/debug/Modules").path
        return try Subprocess.run(
            ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules] + systemLibraryArguments + sources)
    }

    /// The compiler arguments that make the runtime's system libraries importable (libcrypto and libcurl on Linux,
    /// through their module maps, which also link them); none on Apple platforms.
    public static var systemLibraryArguments: [String] {
        #if os(Linux)
            ["HealthSignInLibcrypto", "HealthSignInLibcurl"].flatMap { library in
                [
                    "-Xcc",
                    "-fmodule-map-file="
                        + Fixtures.repository.appendingPathComponent("Sources/\(library)/module.modulemap").path,
                ]
            }
        #else
            []
        #endif
    }

    /// The objects of a module's current sources (a file deleted since an earlier build leaves its object behind).
    private static func objectFiles(in directory: URL) throws -> [String] {
        let sources = try String(contentsOf: directory.appendingPathComponent("sources"), encoding: .utf8)
        return sources.split(separator: "\n").map { (path: Substring) -> String in
            let name: Substring = path.split(separator: "/").last ?? ""
            return directory.appendingPathComponent(String(name) + ".o").path
        }
    }
}
