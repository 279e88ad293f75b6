import Foundation

/// `sdkgen diff`: what changes from a base schema set to a new one, with what each change breaks.
package enum DiffCommand {
    /// Which breaking changes make the command fail.
    package enum FailOn: String, Sendable, CaseIterable {
        case any, source, wire, none
    }

    /// Compares `base` (a directory, a git revision of the repository that holds `schemas`, or `REVISION:PATH` of the
    /// repository around the current directory) with `schemas`, prints the changes, and returns the exit status: 0
    /// when nothing breaking (as `failOn` counts it) changed, 1 when something did, 2 when a schema set is invalid or
    /// cannot be read. Locations are printed under the folders as given: `schemas` for the new set, `base` (or
    /// `REVISION:PATH`) for the old one.
    package static func run(
        base: String, schemas: String, config: String?, baseConfig: String?, format: DiffReport.Format,
        failOn: FailOn, print output: (String) -> Void = { Swift.print($0, terminator: "") },
        complain: (String) -> Void = Command.standardError
    ) -> Int32 {
        do {
            let newURL = URL(fileURLWithPath: schemas).standardizedFileURL
            let newFiles = try SchemaDirectory.read(newURL)
            let newConfig = try config.map { try Command.readConfig($0) } ?? .init()
            let old = try baseSchemas(
                base, schemas: newURL, given: schemas, config: config, baseConfig: baseConfig, note: complain)
            let oldModule = try GeneratorPipeline.resolvedModule(
                old.files, options: .init(displayRoot: old.displayRoot, config: old.config)
            ).0
            let newModule = try GeneratorPipeline.resolvedModule(
                newFiles, options: .init(displayRoot: displayed(schemas), config: newConfig)
            ).0
            let changes = SchemaDiff.changes(
                old: oldModule, new: newModule, oldConfig: old.config, newConfig: newConfig)
            output(DiffReport.render(changes, format: format))
            let failing = changes.contains { change in
                switch failOn {
                case .any: return change.source == .breaking || change.wire == .breaking
                case .source: return change.source == .breaking
                case .wire: return change.wire == .breaking
                case .none: return false
                }
            }
            return failing ? 1 : 0
        } catch let failure as GenerationFailed {
            complain(failure.description)
            return 2
        } catch {
            complain("error: \(error)")
            return 2
        }
    }

    /// A folder as the user wrote it, without trailing slashes (`.` for the current one).
    private static func displayed(_ folder: String) -> String {
        var folder = folder
        while folder.count > 1, folder.hasSuffix("/") { folder.removeLast() }
        return folder.isEmpty ? "." : folder
    }

    /// The base set's files, configuration and the folder its locations are printed under: read from the directory
    /// `base`, from `REVISION:PATH`, or from the git revision `base`: the folder `schemas` (written `given` on the
    /// command line) at that revision of the repository that holds it, or, for a copy the revision does not have,
    /// the revision's `Schemas` (said in a `note`). The configuration file is read at the revision too.
    private static func baseSchemas(
        _ base: String, schemas: URL, given: String, config: String?, baseConfig: String?, note: (String) -> Void
    ) throws -> (files: [InMemoryFile], config: GeneratorConfig, displayRoot: String) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: base, isDirectory: &isDirectory), isDirectory.boolValue {
            let files = try SchemaDirectory.read(URL(fileURLWithPath: base).standardizedFileURL)
            return (files, try (baseConfig ?? config).map { try Command.readConfig($0) } ?? .init(), displayed(base))
        }
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true)
        let revision: GitRevision
        let folder: URL
        // `REVISION:PATH`, as git writes it, names the schemas directory at the revision; the repository is the one
        // around the current directory.
        if let colon = base.firstIndex(of: ":"), base.first != ":" {
            revision = try GitRevision(String(base[..<colon]), repositoryOf: current, base: base)
            folder = revision.top.appendingPathComponent(String(base[base.index(after: colon)...]), isDirectory: true)
        } else {
            // A copy outside every repository is compared with the revision of the one around the current directory.
            if let own = try? GitRevision(base, repositoryOf: schemas, base: base) {
                revision = own
            } else {
                revision = try GitRevision(base, repositoryOf: current, base: base)
            }
            folder = schemas
        }
        var files: [InMemoryFile]
        var display = displayed(base)
        do {
            files = try revision.files(under: folder)
            if !base.contains(":") { display = revision.revision + ":" + (try revision.relative(folder)) }
        } catch let failure as GitRevision.Failure where !base.contains(":") {
            let fallback = revision.top.appendingPathComponent("Schemas", isDirectory: true)
            guard let found = try? revision.files(under: fallback) else { throw failure }
            note(
                "note: \(displayed(given)) is not in \(base); comparing with \(base):Schemas (name another with --base \(base):PATH)"
            )
            files = found
            display = base + ":Schemas"
        }
        // A `REVISION:PATH` base reads only `--base-config` there; a revision reads `--config` too.
        let configuration = try (base.contains(":") ? baseConfig : baseConfig ?? config).flatMap { path in
            try revision.text(of: URL(fileURLWithPath: path)).map { try Command.decodeConfig($0, file: path) }
        }
        return (files, configuration ?? .init(), display)
    }
}

/// Files of a git revision, read with `git` itself (no shell; the revision can never be taken for an option).
struct GitRevision {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let revision: String
    let top: URL

    /// The revision `revision` of the git repository that holds `path`.
    ///
    /// - Parameter base: the `--base` argument as given, for the errors.
    /// - Throws: ``Failure`` saying why `base` is neither a directory nor a revision there.
    init(_ revision: String, repositoryOf path: URL, base: String) throws {
        let neither = "--base \(base) is neither a directory nor a git revision"
        guard !revision.isEmpty, !revision.hasPrefix("-"), !revision.contains("\0") else {
            throw Failure(description: neither)
        }
        self.revision = revision
        var directory = path.hasDirectoryPath ? path : path.deletingLastPathComponent()
        // A folder that does not exist (yet) is looked up from the nearest one that does.
        while !FileManager.default.fileExists(atPath: directory.path), directory.pathComponents.count > 1 {
            directory = directory.deletingLastPathComponent()
        }
        let top: Data
        do {
            top = try Self.git(["rev-parse", "--show-toplevel"], in: directory)
        } catch {
            throw Failure(description: "\(neither): \(directory.path) is not inside a git repository")
        }
        self.top = URL(
            fileURLWithPath: String(decoding: top, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        do {
            _ = try Self.git(
                ["rev-parse", "--verify", "--quiet", "--end-of-options", revision + "^{commit}"], in: self.top)
        } catch {
            throw Failure(description: "\(neither): the repository \(self.top.path) has no commit named \(revision)")
        }
    }

    /// Every file under `directory` at the revision, as the schema reader would read the directory.
    ///
    /// - Throws: ``Failure`` naming the folder when the revision has nothing under it.
    func files(under directory: URL) throws -> [InMemoryFile] {
        let relative = try self.relative(directory)
        let listing = try Self.git(
            ["ls-tree", "-r", "--name-only", "--end-of-options", revision, "--", relative], in: top)
        let prefix = relative.isEmpty ? "" : relative + "/"
        var files: [InMemoryFile] = []
        for line in String(decoding: listing, as: UTF8.self).split(separator: "\n") {
            let path = String(line)
            guard path.hasPrefix(prefix), path.hasSuffix(".json") else { continue }
            let contents = try Self.git(["show", "--end-of-options", "\(revision):\(path)"], in: top)
            let name = String(path.dropFirst(prefix.count))
            files.append(InMemoryFile(path: name, contents: String(decoding: contents, as: UTF8.self)))
        }
        guard !files.isEmpty else {
            throw Failure(
                description: "\(relative.isEmpty ? "the repository's top folder" : relative) holds no schema files at "
                    + "\(revision); to compare with another folder of that revision, name it: --base \(revision):PATH")
        }
        return files
    }

    /// The file at `path` at the revision, or nil when it did not exist there.
    func text(of path: URL) throws -> String? {
        let relative = try self.relative(path.standardizedFileURL)
        guard let contents = try? Self.git(["show", "--end-of-options", revision + ":" + relative], in: top) else {
            return nil
        }
        return String(decoding: contents, as: UTF8.self)
    }

    /// `url`'s path inside the repository.
    func relative(_ url: URL) throws -> String {
        let path = url.resolvingSymlinksInPath().path
        let root = top.resolvingSymlinksInPath().path
        guard path == root || path.hasPrefix(root + "/") else {
            throw Failure(
                description: "\(url.path) is not inside the repository \(root); give the base as a directory, or as "
                    + "REVISION:PATH from inside the repository")
        }
        return String(path.dropFirst(root.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
    }

    private static func git(_ arguments: [String], in directory: URL) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let reason = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw Failure(
                description: "git \(arguments.joined(separator: " ")) failed: "
                    + (reason.isEmpty ? "it exited with status \(process.terminationStatus)" : reason))
        }
        return data
    }
}
