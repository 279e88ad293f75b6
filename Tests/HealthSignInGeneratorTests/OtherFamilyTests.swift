import Foundation
import HealthSignInTestSupport
import XCTest

@testable import HealthSignInGenerator

/// A family of one's own that uses another family's types, extends its object and answers with its error format
/// with one code's recovery changed: generated with `--single-file` into one module, as the build plugin does, it
/// compiles, and the client reads what the other family's types describe.
final class OtherFamilyTests: XCTestCase {
    private static let files: [String: String] = [
        "Base/protocol.json": """
        {"family": "Base", "description": "A family others build on.",
         "binding": {"http": {"authPolicies": ["none"], "headers": {"Accept": "application/json"}}},
         "servers": {"api": {"description": "The API."}},
         "errors": {"BaseError": {"description": "An error.", "body": {"$ref": "types.json#/$defs/ErrorBody"},
           "code": ["/code"], "codes": [{"value": "busy", "name": "busy", "recovery": "retryLater"}]}}}
        """,
        "Base/types.json": """
        {"$defs": {
          "ErrorBody": {"type": "object", "required": ["code"], "properties": {"code": {"type": "string"}}},
          "Account": {"type": "object", "required": ["id"], "properties": {
            "id": {"type": "string"}, "secret": {"type": "string", "sensitive": true}}, "additionalProperties": true}}}
        """,
        "Base/GetAccount.json": """
        {"name": "GetAccount", "description": "Reads the account.",
         "binding": {"http": {"method": "GET", "server": "api", "path": "/account", "auth": "none", "errors": ["BaseError"]}},
         "response": {"$ref": "types.json#/$defs/Account"}}
        """,
        "Shop/protocol.json": """
        {"family": "Shop", "description": "A family on Base.",
         "binding": {"http": {"authPolicies": ["none"], "headers": {"Accept": "application/json"}}},
         "servers": {"api": {"description": "The API."}},
         "errors": {"BaseError": {"$ref": "../Base/protocol.json#/errors/BaseError",
           "codes": [{"value": "busy", "name": "busy", "recovery": "none"},
                     {"value": "closed", "name": "closed", "recovery": "reauthorize"}]}}}
        """,
        "Shop/types.json": """
        {"$defs": {"Customer": {"allOf": [{"$ref": "../Base/types.json#/$defs/Account"},
          {"type": "object", "properties": {"loyalty": {"type": "integer", "acceptString": true}, "alias": {"type": "string", "aliases": ["Alias"]}}}]}}}
        """,
        "Shop/GetCustomer.json": """
        {"name": "GetCustomer", "description": "Reads the customer.",
         "binding": {"http": {"method": "GET", "server": "api", "path": "/customer", "auth": "none", "errors": ["BaseError"]}},
         "response": {"$ref": "types.json#/$defs/Customer"}}
        """,
        "Shop/GetAccount2.json": """
        {"name": "GetAccount2", "description": "Reads the account as Base describes it.",
         "binding": {"http": {"method": "GET", "server": "api", "path": "/account", "auth": "none", "errors": ["BaseError"]}},
         "response": {"$ref": "../Base/types.json#/$defs/Account"}}
        """,
    ]

    private static let main = #"""
        import Foundation
        import HealthSignInCore
        import HealthSignInTesting

        func check(_ condition: Bool, _ message: String) {
            if !condition { print("FAILED: " + message); exit(1) }
        }

        let json: HTTPHeaderFields = ["Content-Type": "application/json"]
        let transport = RecordingTransport(responses: [
            HTTPResponseMessage(status: 200, headers: json, body: Data(#"{"id": "c1", "secret": "canary", "loyalty": "3", "Alias": "ann", "tier": "gold"}"#.utf8)),
            HTTPResponseMessage(status: 200, headers: json, body: Data(#"{"id": "a1", "extra": true}"#.utf8)),
            HTTPResponseMessage(status: 503, headers: json, body: Data(#"{"code": "busy"}"#.utf8)),
            HTTPResponseMessage(status: 400, headers: json, body: Data(#"{"code": "closed"}"#.utf8)),
        ])
        let shop = ShopAPIClient(configuration: .init(servers: .init(api: URL(string: "https://shop.example")), transport: transport))
        let customer = try await shop.getCustomer()
        check(customer.id == "c1", "the base's member through the extension: \(customer.id)")
        check(customer.account.id == "c1" && customer.loyalty == 3 && customer.alias == "ann", "own members: \(customer)")
        check(customer.additionalProperties == ["tier": "gold"], "members neither names: \(customer.additionalProperties)")
        check(!String(describing: customer).contains("canary"), "the base's secret is redacted: \(customer)")
        let again = try Customer(extending: customer.account)
        check(again == customer, "built from the base alone")
        let account: Account = try await shop.getAccount2()
        check(account.id == "a1" && account.additionalProperties == ["extra": true], "another family's type: \(account)")
        do {
            _ = try await shop.getCustomer()
            check(false, "no error")
        } catch let error as BaseError {
            check(error.code == .busy && error.recovery == ErrorRecovery.none, "Shop's recovery of busy: \(error.recovery)")
            check(BaseError(body: error.body, httpStatus: 503, operation: "GetAccount").recovery == .retryLater, "Base's")
        }
        do {
            _ = try await shop.getCustomer()
            check(false, "no error")
        } catch let error as BaseError {
            check(error.code == .unknown("closed") && error.recovery == .reauthorize, "a code Shop adds: \(error.recovery)")
        }
        print("OK")
        """#

    func testAFamilyOnAnotherGeneratesCompilesAndReadsItsTypes() throws {
        let inputs = Self.files.map { InMemoryFile(path: $0.key, contents: $0.value) }
        let output = try GeneratorPipeline.run(inputs, options: .init(singleFile: true))
        XCTAssertEqual(output.families, ["Base", "Shop"])
        let shop = try XCTUnwrap(output.files.first { $0.path == "Shop.sdkgen.swift" }).contents
        XCTAssertFalse(shop.contains("import Base"), "one module: nothing to import")
        XCTAssertFalse(shop.contains("struct Account"), "Base's type is not generated again")
        XCTAssertTrue(shop.contains("public var account: Account"), shop)

        // Generated alone, Shop imports Base as a module and names its types with it.
        let alone = try GeneratorPipeline.run(inputs, options: .init(families: ["Shop"], singleFile: true))
        let imported = try XCTUnwrap(alone.files.first).contents
        XCTAssertTrue(imported.contains("\nimport Base\n"))
        XCTAssertTrue(imported.contains("public var account: Base.Account"), imported)

        let root = FileManager.default.temporaryDirectory.appendingPathComponent("other-family-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        var sources: [String] = []
        for file in output.files {
            let path = root.appendingPathComponent(file.path).path
            try file.contents.write(toFile: path, atomically: true, encoding: .utf8)
            sources.append(path)
        }
        let main = root.appendingPathComponent("main.swift")
        try Self.main.write(to: main, atomically: true, encoding: .utf8)
        let executable = root.appendingPathComponent("shop")
        let compile = try SwiftCompiler.compile(module: "Shop", sources: sources + [main.path], executable: executable)
        XCTAssertEqual(compile.status, 0, compile.output.suffix(4000).description)
        guard compile.status == 0 else { return }
        let run = try Subprocess.run([executable.path])
        XCTAssertEqual(run.output, "OK\n")
        XCTAssertEqual(run.status, 0)
    }
}
