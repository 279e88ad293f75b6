import Foundation
import HealthSignInGenerator

/// sdkgen, the `HealthSignInSDKGen` executable: generates Swift from protocol schemas. Argument parsing only; the work
/// is in HealthSignInGenerator.
let usage = """
    sdkgen (the HealthSignInSDKGen executable): generate Swift clients, models and errors from protocol schemas

    Usage: HealthSignInSDKGen [--schemas DIR] [--output DIR] [--config FILE] [--test-samples DIR]
                              [--family NAME]... [--schema-reference FILE] [--single-file] [--check] [--verbose]

    Reads every family directory under the schemas directory (each holds protocol.json, an optional types.json and
    one JSON file per method) and writes <output>/<Module>/Generated/, where <Module> is the module protocol.json
    names (the family's name by default). Only files whose bytes change are written; generated files whose schema is
    gone are deleted.

    Options:
      --schemas DIR       The schemas directory (default: Schemas).
      --output DIR        The sources root; each family goes to DIR/<Module>/Generated (default: Sources).
      --config FILE       An sdkgen-config.json: which families, the access level of the generated code
                          (public, package or internal), additional imports, and naming overrides.
      --test-samples DIR  Also write round-trip tests of every model to DIR/<Module>Tests/Generated.
      --family NAME       Generate only this family; repeat for several (default: all). The families it refers to
                          (a $ref to ../Other/...) are read and checked, not written.
      --schema-reference FILE
                          Also write the schema language's reference, rendered from the meta-schemas in the schemas
                          directory, to FILE (Markdown).
      --single-file       Write each family as one file, <output>/<Family>.sdkgen.swift, all into one module (what the
                          build plugin runs); a family referred to but not generated is imported as a module.
      --check             Change nothing; exit 1 with a diff when the generated files are not up to date.
      --verbose           List every file written, deleted or unchanged.
      --help              Show this help.

    Examples:
      swift run HealthSignInSDKGen             regenerate this repository (what `make generate` runs, with its
                                               options)
      swift run HealthSignInSDKGen --check     fail when Sources/*/Generated is stale
      swift run HealthSignInSDKGen --schemas MySchemas --output MySources --family Acme

    Exit status: 0 on success, 1 when --check finds stale files, 2 for schema errors or bad arguments.

    HealthSignInSDKGen diff --base OLD [--schemas NEW] [--config FILE] [--base-config FILE] [--format text|json]
                            [--fail-on any|source|wire|none]

    Lists every change from the schema set OLD to NEW (default: Schemas), each located (file and JSON pointer) and
    classified by a rule (Schemas/README.md lists them) on two axes: source (does Swift written against the old
    generated API still compile?) and wire (can a message of one version be refused or read differently by the
    other, in either direction?). OLD is a directory, a git revision of the repository that holds NEW (the same
    path there; the configuration file too), or REVISION:PATH for another path at a revision of the repository
    around the current directory. --format json prints
    {"changes": [{"file", "pointer", "rule", "source", "wire", "message"}]}.

    Exit status: 0 when nothing breaking changed, 1 when something did (--fail-on source or wire counts one axis,
    none never fails), 2 when a schema set is invalid or cannot be read.

    HealthSignInSDKGen import-fhir --definitions DIR [--schemas DIR] [--family NAME] [--module NAME] [--check]

    Reads a FHIR core package (the folder of hl7.fhir.r4.core's StructureDefinitions, ValueSets and CodeSystems)
    and writes the schema family it becomes to <schemas>/<family>/ (default: Schemas/FHIR, module HealthSignInFHIR):
    every data type and resource, their backbone elements, the codes of their required bindings and the Resource
    union. --check changes nothing and exits 1 when the family is out of date.
    """

struct Arguments {
    var schemas = "Schemas"
    var output = "Sources"
    var testSamples: String?
    var families: Set<String> = []
    var schemaReference: String?
    var config: String?
    var singleFile = false
    var check = false
    var verbose = false
}

func parse(_ arguments: [String]) -> Arguments? {
    var result = Arguments()
    var index = 0
    func value(_ flag: String) -> String? {
        index += 1
        guard index < arguments.count, !arguments[index].hasPrefix("--") else {
            FileHandle.standardError.write(
                Data("error: \(flag) needs a value\n\nRun HealthSignInSDKGen --help for usage.\n".utf8))
            return nil
        }
        return arguments[index]
    }
    while index < arguments.count {
        switch arguments[index] {
        case "--schemas":
            guard let v = value("--schemas") else { return nil }
            result.schemas = v
        case "--output":
            guard let v = value("--output") else { return nil }
            result.output = v
        case "--test-samples":
            guard let v = value("--test-samples") else { return nil }
            result.testSamples = v
        case "--family":
            guard let v = value("--family") else { return nil }
            result.families.insert(v)
        case "--schema-reference":
            guard let v = value("--schema-reference") else { return nil }
            result.schemaReference = v
        case "--config":
            guard let v = value("--config") else { return nil }
            result.config = v
        case "--single-file": result.singleFile = true
        case "--check": result.check = true
        case "--verbose": result.verbose = true
        case "--help", "-h":
            print(usage)
            exit(0)
        default:
            FileHandle.standardError.write(
                Data("error: unknown argument '\(arguments[index])'\n\nRun HealthSignInSDKGen --help for usage.\n".utf8)
            )
            return nil
        }
        index += 1
    }
    return result
}

/// The arguments of `diff`.
struct DiffArguments {
    var base: String?
    var schemas = "Schemas"
    var config: String?
    var baseConfig: String?
    var format = DiffReport.Format.text
    var failOn = DiffCommand.FailOn.any
}

func parseDiff(_ arguments: [String]) -> DiffArguments? {
    var result = DiffArguments()
    var index = 0
    func fail(_ message: String) -> DiffArguments? {
        FileHandle.standardError.write(Data("error: \(message)\n\nRun HealthSignInSDKGen --help for usage.\n".utf8))
        return nil
    }
    while index < arguments.count {
        let flag = arguments[index]
        if flag == "--help" || flag == "-h" {
            print(usage)
            exit(0)
        }
        guard index + 1 < arguments.count else { return fail("\(flag) needs a value") }
        let value = arguments[index + 1]
        switch flag {
        case "--base": result.base = value
        case "--schemas": result.schemas = value
        case "--config": result.config = value
        case "--base-config": result.baseConfig = value
        case "--format":
            guard let format = DiffReport.Format(rawValue: value) else { return fail("--format is text or json") }
            result.format = format
        case "--fail-on":
            guard let failOn = DiffCommand.FailOn(rawValue: value) else {
                return fail("--fail-on is any, source, wire or none")
            }
            result.failOn = failOn
        default: return fail("unknown argument '\(flag)' for diff")
        }
        index += 2
    }
    guard result.base != nil else { return fail("diff needs --base, a directory or a git revision") }
    return result
}

let commandLine = Array(CommandLine.arguments.dropFirst())
if commandLine.first == "diff" {
    guard let arguments = parseDiff(Array(commandLine.dropFirst())), let base = arguments.base else { exit(2) }
    exit(
        DiffCommand.run(
            base: base, schemas: arguments.schemas, config: arguments.config, baseConfig: arguments.baseConfig,
            format: arguments.format, failOn: arguments.failOn))
}

if commandLine.first == "import-fhir" {
    var options = ["--schemas": "Schemas", "--family": "FHIR", "--module": "HealthSignInFHIR"]
    var check = false
    var rest = Array(commandLine.dropFirst())[...]
    while let flag = rest.popFirst() {
        if flag == "--check" {
            check = true
        } else if ["--definitions", "--schemas", "--family", "--module"].contains(flag), let value = rest.popFirst() {
            options[flag] = value
        } else {
            FileHandle.standardError.write(
                Data(
                    "error: unknown or incomplete argument '\(flag)' for import-fhir\n\nRun HealthSignInSDKGen --help for usage.\n"
                        .utf8))
            exit(2)
        }
    }
    guard let definitions = options["--definitions"] else {
        FileHandle.standardError.write(Data("error: import-fhir needs --definitions, the package folder\n".utf8))
        exit(2)
    }
    exit(
        FHIRImportCommand.run(
            definitions: definitions, schemas: options["--schemas"] ?? "Schemas", family: options["--family"] ?? "FHIR",
            module: options["--module"] ?? "HealthSignInFHIR", check: check))
}

guard let arguments = parse(commandLine) else { exit(2) }
let status = Command.run(
    schemas: arguments.schemas, output: arguments.output, testSamples: arguments.testSamples,
    families: arguments.families.isEmpty ? nil : arguments.families, check: arguments.check, verbose: arguments.verbose,
    schemaReference: arguments.schemaReference, config: arguments.config, singleFile: arguments.singleFile
)
exit(status)
