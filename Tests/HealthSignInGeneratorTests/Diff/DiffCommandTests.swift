import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// `sdkgen diff` as a user runs it: directories or git revisions in, the documented text or JSON out, the documented
/// exit status; and over this repository's own history, verdicts that match what those commits did.
final class DiffCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("diff-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    private func write(_ set: ExampleSet, to name: String) throws -> URL {
        let root = directory.appendingPathComponent(name).appendingPathComponent("Schemas")
        for file in set.inMemoryFiles {
            let url = root.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    private func run(
        base: String, schemas: URL, format: DiffReport.Format = .text, failOn: DiffCommand.FailOn = .any
    ) -> (status: Int32, output: String, errors: String) {
        var output = ""
        var errors = ""
        let status = DiffCommand.run(
            base: base, schemas: schemas.path, config: nil, baseConfig: nil, format: format, failOn: failOn,
            print: { output += $0 }, complain: { errors += $0 + "\n" })
        return (status, output, errors)
    }

    private func example(_ rule: DiffRule) throws -> DiffExample {
        try XCTUnwrap(DiffExamples.all.first { $0.rule == rule })
    }

    func testTheExitStatusFollowsTheVerdictsAndFailOn() throws {
        let breaking = try example(.propertyAddedRequired)
        let oldURL = try write(breaking.old, to: "old")
        let newURL = try write(breaking.new, to: "new")
        XCTAssertEqual(run(base: oldURL.path, schemas: newURL).status, 1)
        XCTAssertEqual(run(base: oldURL.path, schemas: newURL, failOn: .none).status, 0)
        XCTAssertEqual(run(base: oldURL.path, schemas: oldURL).status, 0)

        let wireOnly = try example(.constraintTightened)
        let wireOld = try write(wireOnly.old, to: "wire-old")
        let wireNew = try write(wireOnly.new, to: "wire-new")
        XCTAssertEqual(run(base: wireOld.path, schemas: wireNew, failOn: .source).status, 0)
        XCTAssertEqual(run(base: wireOld.path, schemas: wireNew, failOn: .wire).status, 1)

        let sourceOnly = try example(.propertySwiftNameChanged)
        let sourceOld = try write(sourceOnly.old, to: "source-old")
        let sourceNew = try write(sourceOnly.new, to: "source-new")
        XCTAssertEqual(run(base: sourceOld.path, schemas: sourceNew, failOn: .wire).status, 0)
        XCTAssertEqual(run(base: sourceOld.path, schemas: sourceNew, failOn: .source).status, 1)

        var invalid = breaking.new
        invalid.set("\(breaking.family)/\(breaking.family)Ping.json", "binding/http/method", "FETCH")
        let invalidURL = try write(invalid, to: "invalid")
        let result = run(base: oldURL.path, schemas: invalidURL)
        XCTAssertEqual(result.status, 2)
        XCTAssertTrue(result.errors.contains("error:"), result.errors)
        XCTAssertEqual(run(base: directory.appendingPathComponent("nowhere").path, schemas: newURL).status, 2)
    }

    func testTheJSONHasExactlyTheDocumentedKeysAndTheTextALineEach() throws {
        let sample = try example(.propertyWireNameChanged)
        let oldURL = try write(sample.old, to: "old")
        let newURL = try write(sample.new, to: "new")
        let json = run(base: oldURL.path, schemas: newURL, format: .json)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        XCTAssertEqual(Array(object.keys), ["changes"])
        let changes = try XCTUnwrap(object["changes"] as? [[String: String]])
        XCTAssertEqual(changes.count, 1)
        XCTAssertEqual(changes.first.map { Set($0.keys) }, ["file", "pointer", "rule", "source", "wire", "message"])
        XCTAssertEqual(changes.first?["rule"], "property-wire-name-changed")
        XCTAssertEqual(changes.first?["source"], "compatible")
        XCTAssertEqual(changes.first?["wire"], "breaking")
        XCTAssertEqual(changes.first?["file"], "\(newURL.path)/\(sample.family)/types.json")
        XCTAssertEqual(changes.first?["pointer"], "/$defs/\(sample.family)Thing/properties/label")

        let text = run(base: oldURL.path, schemas: newURL).output.split(separator: "\n")
        XCTAssertEqual(text.count, 2)
        XCTAssertTrue(
            text.first?.hasPrefix(
                "\(newURL.path)/\(sample.family)/types.json#/$defs/\(sample.family)Thing/properties/label: property-wire-name-changed (source compatible, wire breaking): "
            ) == true, String(text.first ?? ""))
        XCTAssertEqual(text.last, "1 change: 0 breaking the source, 1 breaking the wire")
    }

    private var sdkgen: String { Fixtures.repository.appendingPathComponent(".build/debug/HealthSignInSDKGen").path }

    func testLocationsAreUnderTheFoldersAsGivenOnTheCommandLine() throws {
        let sample = try example(.propertyWireNameChanged)
        _ = try write(sample.old, to: "old")
        _ = try write(sample.new, to: "scratch")
        let run = try Subprocess.run(
            [sdkgen, "diff", "--base", "old/Schemas/", "--schemas", "scratch/Schemas"], currentDirectory: directory)
        XCTAssertEqual(run.status, 1, run.output)
        XCTAssertTrue(
            run.output.hasPrefix("scratch/Schemas/\(sample.family)/types.json#/$defs/"), run.output)

        // A removal is located in the old set, under the base as given.
        let removal = try example(.typeRemoved)
        _ = try write(removal.old, to: "removal-old")
        _ = try write(removal.new, to: "removal-new")
        let removed = try Subprocess.run(
            [sdkgen, "diff", "--base", "removal-old/Schemas", "--schemas", "removal-new/Schemas"],
            currentDirectory: directory)
        XCTAssertTrue(removed.output.hasPrefix("removal-old/Schemas/"), removed.output)
    }

    func testEveryFormOfTheBaseSaysWhatIsWrongWhenItCannotBeRead() throws {
        // A copy inside the repository that the revision does not have: compared with the revision's Schemas, and
        // said so with the way to name another folder.
        let scratch = ".build/diff-scratch-\(UUID().uuidString)/Schemas"
        let copy = Fixtures.repository.appendingPathComponent(scratch)
        defer { try? FileManager.default.removeItem(at: copy.deletingLastPathComponent()) }
        let sample = try example(.propertyWireNameChanged)
        for file in sample.new.inMemoryFiles {
            let url = copy.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
        }
        let compared = try Subprocess.run(
            [sdkgen, "diff", "--base", "HEAD", "--schemas", scratch, "--fail-on", "none"],
            currentDirectory: Fixtures.repository)
        XCTAssertEqual(compared.status, 0, compared.output)
        XCTAssertTrue(
            compared.output.contains(
                "note: \(scratch) is not in HEAD; comparing with HEAD:Schemas (name another with "
                    + "--base HEAD:PATH)"), compared.output)
        XCTAssertTrue(compared.output.contains("HEAD:Schemas/Vital/protocol.json#: family-removed"), compared.output)

        // The same copy against the revision's folder named, and a folder the revision does not have.
        let named = try Subprocess.run(
            [sdkgen, "diff", "--base", "HEAD:Schemas", "--schemas", scratch, "--fail-on", "none"],
            currentDirectory: Fixtures.repository)
        XCTAssertEqual(named.status, 0, named.output)
        XCTAssertTrue(named.output.contains("family-removed"), named.output)
        let nowhere = try Subprocess.run(
            [sdkgen, "diff", "--base", "HEAD:NoSuchFolder", "--schemas", scratch], currentDirectory: Fixtures.repository
        )
        XCTAssertEqual(nowhere.status, 2, nowhere.output)
        XCTAssertTrue(nowhere.output.contains("NoSuchFolder holds no schema files at HEAD"), nowhere.output)

        // Neither a directory nor a revision, inside a repository and outside any.
        let unknown = try Subprocess.run(
            [sdkgen, "diff", "--base", "nosuchdir", "--schemas", scratch], currentDirectory: Fixtures.repository)
        XCTAssertEqual(unknown.status, 2, unknown.output)
        XCTAssertTrue(
            unknown.output.contains(
                "--base nosuchdir is neither a directory nor a git revision: the repository "
                    + "\(Fixtures.repository.resolvingSymlinksInPath().path) has no commit named nosuchdir"),
            unknown.output)
        _ = try write(sample.new, to: "outside")
        let outside = try Subprocess.run(
            [sdkgen, "diff", "--base", "nosuchdir", "--schemas", "outside/Schemas"], currentDirectory: directory)
        XCTAssertEqual(outside.status, 2, outside.output)
        XCTAssertTrue(outside.output.contains("is not inside a git repository"), outside.output)

        // A copy outside every repository, against a revision of the one around the current directory.
        let copyOutside = try Subprocess.run(
            [
                sdkgen, "diff", "--base", "HEAD", "--schemas", directory.appendingPathComponent("outside/Schemas").path,
                "--fail-on", "none",
            ],
            currentDirectory: Fixtures.repository)
        XCTAssertEqual(copyOutside.status, 0, copyOutside.output)
        XCTAssertTrue(copyOutside.output.contains("comparing with HEAD:Schemas"), copyOutside.output)
    }

    /// The schemas at `revision` of this repository, written to a directory of their own.
    private func schemas(at revision: String) throws -> URL {
        let git = try GitRevision(revision, repositoryOf: Fixtures.repository, base: revision)
        let files = try git.files(under: Fixtures.repository.appendingPathComponent("Schemas", isDirectory: true))
        let root = directory.appendingPathComponent(revision).appendingPathComponent("Schemas")
        for file in files {
            let url = root.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
        }
        return root
    }

    /// The changes `sdkgen diff` finds between two revisions of this repository's schemas, through its command line
    /// (`REVISION:PATH` as the base), as JSON.
    private func history(from old: String, to new: String) throws -> (status: Int32, changes: [[String: String]]) {
        let target = try schemas(at: new)
        let run = try Subprocess.run(
            [sdkgen, "diff", "--base", old + ":Schemas", "--schemas", target.path, "--format", "json"],
            currentDirectory: Fixtures.repository)
        let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        return (run.status, object?["changes"] as? [[String: String]] ?? [])
    }

    func testTheRepositorysOwnHistoryGetsPlausibleVerdicts() throws {
        // GetThings3 gained an optional order-by: additions only.
        let additions = try history(from: "1c85256", to: "e789666")
        XCTAssertEqual(additions.status, 0)
        XCTAssertEqual(
            additions.changes.map { $0["rule"] ?? "" }.sorted(),
            ["property-added-optional", "type-added", "type-added", "type-added"])

        // Every product, module and several types were renamed: the source breaks, the wire does not.
        let renames = try history(from: "e789666", to: "f5843da")
        XCTAssertEqual(renames.status, 1)
        let rules = renames.changes.map { $0["rule"] ?? "" }
        XCTAssertEqual(rules.filter { $0 == "module-renamed" }.count, 5)
        XCTAssertTrue(rules.contains("method-renamed"), "\(rules)")
        XCTAssertTrue(rules.contains("error-format-renamed"), "\(rules)")
        XCTAssertEqual(renames.changes.filter { $0["wire"] == "breaking" }.map { $0["message"] ?? "" }, [])
        XCTAssertEqual(renames.changes.filter { $0["source"] == "compatible" }.map { $0["message"] ?? "" }, [])
    }
}
