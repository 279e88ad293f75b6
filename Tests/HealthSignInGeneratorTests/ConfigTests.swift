import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// `sdkgen-config.json`: what it may say, what it does to the generated code, and the diagnostics of a bad one.
final class ConfigTests: XCTestCase {
    private func shippedSchemas() throws -> [InMemoryFile] {
        try SchemaDirectory.read(Fixtures.repository.appendingPathComponent("Schemas"))
    }

    private func decode(_ text: String) -> (GeneratorConfig?, [String]) {
        let (config, diagnostics) = GeneratorConfig.decode(text, file: "sdkgen-config.json")
        return (config, diagnostics.sorted.map(\.description))
    }

    func testAValidConfigurationIsRead() {
        let (config, diagnostics) = decode(
            """
            {"$schema": "config.schema.json", "families": ["Vital"], "accessModifier": "package",
             "additionalImports": ["Dispatch"],
             "namingOverrides": {"types": {"Vital.ConnectedProvider": "LinkedProvider"},
                                 "methods": {"Vital.GetConnectedProviders": "linkedProviders"}}}
            """)
        XCTAssertEqual(diagnostics, [])
        XCTAssertEqual(config?.families, ["Vital"])
        XCTAssertEqual(config?.accessModifier, .package)
        XCTAssertEqual(config?.additionalImports, ["Dispatch"])
        XCTAssertEqual(config?.typeNames, ["Vital.ConnectedProvider": "LinkedProvider"])
        XCTAssertEqual(config?.methodNames, ["Vital.GetConnectedProviders": "linkedProviders"])
    }

    func testEveryMistakeIsALocatedDiagnostic() {
        let (config, diagnostics) = decode(
            """
            {"families": ["vital"], "accessModifier": "open", "additionalImports": ["my module"], "extra": 1,
             "namingOverrides": {"types": {"Vital": "X", "Vital.A": "lower"}, "methods": {"Vital.B": "Upper"}}}
            """)
        XCTAssertNil(config)
        XCTAssertEqual(
            diagnostics,
            [
                #"sdkgen-config.json:1:15: error: "vital" in "families" is not a family name, expected a Swift module name [at /families/0]"#,
                #"sdkgen-config.json:1:43: error: "accessModifier" is "open", expected one of public, package, internal [at /accessModifier]"#,
                #"sdkgen-config.json:1:73: error: "my module" in "additionalImports" is not a module name, expected a Swift identifier [at /additionalImports/0]"#,
                #"sdkgen-config.json:1:87: error: unknown keyword "extra" in the configuration, expected one of "$schema", "families", "accessModifier", "additionalImports", "namingOverrides" [at /extra]"#,
                #"sdkgen-config.json:2:32: error: "Vital" is not Family.TypeKey, expected the family and the schema's name joined by a dot [at /namingOverrides/types/Vital]"#,
                #"sdkgen-config.json:2:57: error: "lower" is not an UpperCamelCase Swift type name, expected letters and digits starting with a capital [at /namingOverrides/types/Vital.A]"#,
                #"sdkgen-config.json:2:90: error: "Upper" is not a lowerCamelCase Swift function name, expected letters and digits starting with a lowercase letter [at /namingOverrides/methods/Vital.B]"#,
            ])
    }

    func testOverridesMustNameWhatIsGenerated() throws {
        let (config, _) = decode(
            #"{"namingOverrides": {"types": {"Vital.Nope": "Other"}, "methods": {"Acme.GetThing": "thing"}}}"#)
        XCTAssertThrowsError(
            try GeneratorPipeline.run(try shippedSchemas(), options: .init(config: try XCTUnwrap(config)))
        ) { error in
            let text = (error as? GenerationFailed)?.description ?? "\(error)"
            XCTAssertTrue(text.contains(#""Acme.GetThing" names the family Acme, which is not generated"#), text)
            XCTAssertTrue(text.contains(#""Vital.Nope" names no type of types.json in Vital"#), text)
        }
    }

    func testTheConfigurationShapesTheGeneratedCode() throws {
        let (config, _) = decode(
            """
            {"families": ["Vital"], "accessModifier": "internal", "additionalImports": ["Dispatch"],
             "namingOverrides": {"types": {"Vital.ConnectedProvider": "LinkedProvider"},
                                 "methods": {"Vital.GetConnectedProviders": "linkedProviders"}}}
            """)
        let output = try GeneratorPipeline.run(try shippedSchemas(), options: .init(config: try XCTUnwrap(config)))
        XCTAssertEqual(output.families, ["Vital"])
        let text = output.files.map(\.contents).joined(separator: "\n")
        let code = text.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
        XCTAssertFalse(code.contains { $0.contains("public ") }, "internal output declares nothing public")
        XCTAssertTrue(text.contains("\nstruct LinkedProvider: Sendable, Equatable, Decodable {"))
        // Vital uses OAuth2's types, from its module.
        XCTAssertTrue(
            output.files.allSatisfy {
                $0.contents.contains(
                    "@_spi(Generated) import HealthSignInCore\nimport HealthSignInOAuth\nimport Dispatch\n")
            })
        XCTAssertTrue(output.files.contains { $0.path == "HealthSignInVital/Generated/Types/LinkedProvider.swift" })
        XCTAssertTrue(text.contains("func linkedProviders("), text)
        XCTAssertTrue(text.contains("var providers: [LinkedProvider]"))

        let single = try GeneratorPipeline.run(
            try shippedSchemas(), options: .init(config: try XCTUnwrap(config), singleFile: true))
        XCTAssertEqual(single.files.map(\.path), ["Vital.sdkgen.swift"])
        XCTAssertEqual(single.files.first?.contents.components(separatedBy: "import Foundation").count, 2)
    }

    func testTheMetaSchemaDescribesExactlyWhatIsRead() throws {
        let text = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("Schemas/config.schema.json"), encoding: .utf8)
        let schema = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let properties = try XCTUnwrap(schema["properties"] as? [String: Any])
        XCTAssertEqual(
            Set(properties.keys), ["$schema", "families", "accessModifier", "additionalImports", "namingOverrides"])
        let access = try XCTUnwrap(properties["accessModifier"] as? [String: Any])
        XCTAssertEqual(access["enum"] as? [String], GeneratorConfig.AccessModifier.allCases.map(\.rawValue))
        let overrides = try XCTUnwrap(
            (properties["namingOverrides"] as? [String: Any])?["properties"] as? [String: Any])
        XCTAssertEqual(Set(overrides.keys), ["types", "methods"])
    }
}
