import Foundation

@testable import HealthSignInGenerator

/// One schema set of a diff example: a family's files as JSON values, edited by the example.
struct ExampleSet {
    /// The files by path under the schemas directory, e.g. `R7/R7Ping.json`.
    var files: [String: Any]
    /// The generator configuration.
    var config = GeneratorConfig()

    /// The files as the generator reads them.
    var inMemoryFiles: [InMemoryFile] {
        files.keys.sorted().map { path in
            let data =
                (try? JSONSerialization.data(withJSONObject: files[path] ?? [:], options: [.sortedKeys])) ?? Data()
            return InMemoryFile(path: path, contents: String(decoding: data, as: UTF8.self))
        }
    }

    /// Sets the value at `pointer` (`/`-separated keys, array indexes) of `file`; nil removes it.
    mutating func set(_ file: String, _ pointer: String, _ value: Any?) {
        let keys = pointer.split(separator: "/").map(String.init)
        files[file] = Self.setting(files[file] ?? [String: Any](), keys[...], value)
    }

    /// Appends `value` to the array at `pointer` of `file`.
    mutating func append(_ file: String, _ pointer: String, _ value: Any) {
        let keys = pointer.split(separator: "/").map(String.init)
        let current = Self.value(files[file] as Any, keys[...]) as? [Any] ?? []
        set(file, pointer, current + [value])
    }

    private static func value(_ root: Any, _ keys: ArraySlice<String>) -> Any? {
        guard let key = keys.first else { return root }
        if let object = root as? [String: Any], let child = object[key] { return value(child, keys.dropFirst()) }
        if let array = root as? [Any], let index = Int(key), array.indices.contains(index) {
            return value(array[index], keys.dropFirst())
        }
        return nil
    }

    private static func setting(_ root: Any, _ keys: ArraySlice<String>, _ value: Any?) -> Any {
        guard let key = keys.first else { return value ?? NSNull() }
        if var array = root as? [Any], let index = Int(key) {
            if keys.count == 1, value == nil {
                if array.indices.contains(index) { array.remove(at: index) }
            } else if array.indices.contains(index) {
                array[index] = setting(array[index], keys.dropFirst(), value)
            } else {
                array.append(setting([String: Any](), keys.dropFirst(), value))
            }
            return array
        }
        var object = root as? [String: Any] ?? [:]
        if keys.count == 1, value == nil {
            object[key] = nil
        } else {
            object[key] = setting(object[key] ?? [String: Any](), keys.dropFirst(), value)
        }
        return object
    }
}

/// An example of a rule: a family in two versions whose differences the rule classifies.
struct DiffExample {
    /// The rule the example shows, or nil for a random change.
    let rule: DiffRule?
    /// What the example is, in failure messages.
    let label: String
    /// The family's name, unique among the examples so that every example's code can share one module.
    let family: String
    let old: ExampleSet
    let new: ExampleSet
    /// Rules the change also falls under, by its nature (renaming a variant's type renames the type too).
    let alsoReports: Set<DiffRule>
}

/// The examples of every rule, each a small family that differs in one way.
enum DiffExamples {
    /// The base family of an example, `P` its prefix: one method that sends and receives a shared type.
    static func base(_ p: String) -> ExampleSet {
        ExampleSet(files: [
            "\(p)/protocol.json": [
                "family": p, "description": "A family.",
                "binding": [
                    "http": [
                        "authPolicies": ["none", "bearer", "apiKey"], "apiKeyHeader": "x-key",
                        "headers": ["Accept": "application/json"],
                    ]
                ],
                "servers": ["api": ["description": "The API.", "default": "https://api.example.com"]],
                "errors": [
                    "\(p)Error": [
                        "description": "An error body.", "body": ["$ref": "types.json#/$defs/\(p)ErrorBody"],
                        "encodings": ["json"], "code": ["/code"], "message": ["/message"],
                        "codes": [
                            ["value": "expired", "name": "expired", "recovery": "refreshCredential"],
                            ["value": "bad", "name": "bad", "recovery": "fixRequest"],
                        ],
                    ]
                ],
            ] as [String: Any],
            "\(p)/types.json": [
                "$defs": [
                    "\(p)ErrorBody": [
                        "type": "object", "required": ["code"],
                        "properties": ["code": ["type": "string"], "message": ["type": "string"]],
                    ],
                    "\(p)Thing": [
                        "type": "object", "required": ["id"],
                        "properties": [
                            "id": ["type": "string", "maxLength": 100],
                            "name": ["type": "string"],
                            "count": ["type": "integer", "minimum": 0],
                            "tags": ["type": "array", "items": ["type": "string"]],
                            "kind": ["type": "string", "enum": ["alpha", "beta"]],
                            "value": ["oneOf": [["type": "string"], ["type": "boolean"]]],
                        ],
                    ] as [String: Any],
                ]
            ],
            "\(p)/\(p)Ping.json": [
                "name": "\(p)Ping", "description": "Pings.",
                "binding": [
                    "http": [
                        "method": "POST", "server": "api", "path": "/ping", "body": "json", "auth": "bearer",
                        "response": "json", "errors": ["\(p)Error"],
                    ]
                ],
                "request": [
                    "type": "object", "required": ["id"],
                    "properties": [
                        "id": ["type": "string"], "thing": ["$ref": "types.json#/$defs/\(p)Thing"],
                    ],
                ] as [String: Any],
                "response": [
                    "type": "object", "required": ["ok"],
                    "properties": [
                        "ok": ["type": "boolean"], "thing": ["$ref": "types.json#/$defs/\(p)Thing"],
                        "note": ["type": "string"],
                    ],
                ] as [String: Any],
            ] as [String: Any],
        ])
    }

    /// Every rule's example, numbered in the order of ``DiffRule/allCases``.
    static var all: [DiffExample] {
        DiffRule.allCases.enumerated().compactMap { index, rule in
            let p = "R\(index + 1)"
            var old = base(p)
            var new = base(p)
            guard edit(rule, p, &old, &new) else { return nil }
            return DiffExample(
                rule: rule, label: rule.rawValue, family: p, old: old, new: new, alsoReports: alsoReports[rule] ?? [])
        }
    }

    /// Makes `old` and `new` differ as `rule` says; false when the rule has no example of this kind.
    private static func edit(_ rule: DiffRule, _ p: String, _ old: inout ExampleSet, _ new: inout ExampleSet) -> Bool {
        editFamily(rule, p, &old, &new) ?? editTypes(rule, p, &old, &new) ?? editValues(rule, p, &old, &new)
    }

    // swift-format-ignore: FunctionBodyLength
    /// ``edit(_:_:_:_:)`` for the rules on families, servers and methods; nil for the others.
    private static func editFamily(
        _ rule: DiffRule, _ p: String, _ old: inout ExampleSet, _ new: inout ExampleSet
    ) -> Bool? {
        let proto = "\(p)/protocol.json"
        let ping = "\(p)/\(p)Ping.json"
        switch rule {
        case .familyAdded:
            old.files = [:]
        case .familyRemoved:
            new.files = [:]
        case .moduleRenamed:
            new.set(proto, "module", "\(p)Kit")
        case .accessNarrowed:
            new.config.accessModifier = .package
        case .accessWidened:
            old.config.accessModifier = .package
        case .serverAdded:
            new.set(proto, "servers/files", ["description": "Files.", "default": "https://files.example.com"])
        case .serverRemoved:
            old.set(proto, "servers/files", ["description": "Files.", "default": "https://files.example.com"])
        case .serverDefaultChanged:
            new.set(proto, "servers/api/default", "https://v2.example.com")
        case .familyHeadersChanged:
            new.set(proto, "binding/http/headers/X-Version", "2")
        case .apiKeyHeaderChanged:
            old.set(ping, "binding/http/auth", "apiKey")
            new.set(ping, "binding/http/auth", "apiKey")
            new.set(proto, "binding/http/apiKeyHeader", "x-api-key")
        case .envelopeChanged:
            return false  // the HealthVault envelope: covered by the family's own fixtures
        case .methodAdded:
            new.files["\(p)/\(p)Other.json"] = otherMethod(p)
        case .methodRemoved:
            old.files["\(p)/\(p)Other.json"] = otherMethod(p)
        case .methodRenamed:
            new.config.methodNames["\(p).\(p)Ping"] = "ring"
        case .verbChanged:
            new.set(ping, "binding/http/method", "PUT")
        case .pathChanged:
            new.set(ping, "binding/http/path", "/v2/ping")
        case .methodServerChanged:
            old.set(proto, "servers/files", ["description": "Files.", "default": "https://files.example.com"])
            new.set(proto, "servers/files", ["description": "Files.", "default": "https://files.example.com"])
            new.set(ping, "binding/http/server", "files")
        case .authChanged:
            new.set(ping, "binding/http/auth", "apiKey")
        case .bodyChanged:
            new.set(ping, "binding/http/body", "form")
            new.set(ping, "request/properties/thing", nil)
            old.set(ping, "request/properties/thing", nil)
        case .responseChanged:
            new.set(ping, "binding/http/response", "none")
            new.set(ping, "response", nil)
        case .methodHeadersChanged:
            new.set(ping, "binding/http/headers", ["X-Version": "2"])
        case .methodErrorAdded:
            old.set(ping, "binding/http/errors", [String]())
        case .methodErrorRemoved:
            new.set(ping, "binding/http/errors", [String]())
        case .pagingAdded, .pagingRemoved:
            for set in [0, 1] {
                var target = set == 0 ? old : new
                target.set(ping, "request/properties/cursor", ["type": "string"])
                target.set(
                    ping, "response/properties/items",
                    ["type": "array", "items": ["$ref": "types.json#/$defs/\(p)Thing"]])
                target.set(ping, "response/properties/more", ["type": "boolean"])
                if (rule == .pagingAdded) == (set == 1) {
                    target.set(
                        ping, "paging", ["cursor": "/cursor", "items": "/items", "itemCursor": "/id", "more": "/more"])
                }
                if set == 0 { old = target } else { new = target }
            }
        case .pagingChanged:
            return false  // which request follows a page: the HealthVault paging tests drive pages themselves
        case .healthVaultMethodChanged:
            return false
        default:
            return nil
        }
        return true
    }

    // swift-format-ignore: FunctionBodyLength
    /// ``edit(_:_:_:_:)`` for the rules on types and their members; nil for the others.
    private static func editTypes(
        _ rule: DiffRule, _ p: String, _ old: inout ExampleSet, _ new: inout ExampleSet
    ) -> Bool? {
        let types = "\(p)/types.json"
        let ping = "\(p)/\(p)Ping.json"
        let thing = "$defs/\(p)Thing"
        switch rule {
        case .typeAdded:
            new.set(types, "$defs/\(p)Extra", ["type": "object", "properties": ["a": ["type": "string"]]])
        case .typeRemoved:
            old.set(types, "$defs/\(p)Extra", ["type": "object", "properties": ["a": ["type": "string"]]])
        case .typeRenamed:
            new.set(types, "\(thing)/x-swift-name", "\(p)Item")
        case .typeKindChanged:
            new.set(ping, "response/properties/thing", ["type": "string", "enum": ["a", "b"]])
        case .propertyAddedOptional:
            new.set(types, "\(thing)/properties/nickname", ["type": "string"])
        case .propertyAddedRequired:
            new.set(types, "\(thing)/properties/nickname", ["type": "string"])
            new.append(types, "\(thing)/required", "nickname")
        case .propertyAddedRequiredWithDefault:
            new.set(types, "\(thing)/properties/limit", ["type": "integer", "default": 10])
            new.append(types, "\(thing)/required", "limit")
        case .propertyAddedToClosedObject:
            old.set(types, "\(thing)/additionalProperties", false)
            new.set(types, "\(thing)/additionalProperties", false)
            new.set(types, "\(thing)/properties/nickname", ["type": "string"])
        case .propertyRemovedOptional:
            new.set(types, "\(thing)/properties/name", nil)
        case .propertyRemovedRequired:
            new.set(types, "\(thing)/properties/id", nil)
            new.set(types, "\(thing)/required", [String]())
        case .propertyBecameRequired:
            new.append(types, "\(thing)/required", "name")
        case .propertyBecameOptional:
            new.set(types, "\(thing)/required", [String]())
        case .arrayBecameOptional:
            old.append(types, "\(thing)/required", "tags")
        case .requirementChanged:
            old.set(types, "\(thing)/properties/version", ["const": "v1"])
            new.set(types, "\(thing)/properties/version", ["const": "v1"])
            new.append(types, "\(thing)/required", "version")
        case .propertyTypeChanged:
            new.set(types, "\(thing)/properties/count", ["type": "string"])
        case .propertyWireNameChanged:
            old.set(types, "\(thing)/properties/name/x-swift-name", "title")
            new.set(types, "\(thing)/properties/name", nil)
            new.set(types, "\(thing)/properties/label", ["type": "string", "x-swift-name": "title"])
        case .propertySwiftNameChanged:
            new.set(types, "\(thing)/properties/name/x-swift-name", "title")
        case .propertiesReordered:
            return false  // examples serialize their keys sorted; ResolverTests-style text examples cover it
        case .nullabilityChanged:
            new.set(types, "\(thing)/properties/name/type", ["string", "null"])
        case .defaultChanged:
            old.set(types, "\(thing)/properties/count/default", 10)
            new.set(types, "\(thing)/properties/count/default", 20)
        case .sensitivityChanged:
            new.set(types, "\(thing)/properties/name/sensitive", true)
        case .locationChanged:
            for (set, location) in [(0, "query"), (1, "header")] {
                var method = otherMethod(p)
                method["request"] = [
                    "type": "object", "properties": ["limit": ["type": "integer", "in": location]],
                ]
                if set == 0 {
                    old.files["\(p)/\(p)Other.json"] = method
                } else {
                    new.files["\(p)/\(p)Other.json"] = method
                }
            }
        case .constantChanged:
            old.set(ping, "request/properties/version", ["const": "v1"])
            new.set(ping, "request/properties/version", ["const": "v2"])
        case .aliasesChanged:
            new.set(types, "\(thing)/properties/name/aliases", ["title"])
        case .xmlShapeChanged:
            return false  // XML: the HealthVault family's own fixtures
        default:
            return nil
        }
        return true
    }

    // swift-format-ignore: FunctionBodyLength
    /// ``edit(_:_:_:_:)`` for the rules on constraints, enumerations, variants and errors.
    private static func editValues(_ rule: DiffRule, _ p: String, _ old: inout ExampleSet, _ new: inout ExampleSet)
        -> Bool
    {
        let proto = "\(p)/protocol.json"
        let types = "\(p)/types.json"
        let ping = "\(p)/\(p)Ping.json"
        let thing = "$defs/\(p)Thing"
        switch rule {
        case .constraintTightened:
            new.set(types, "\(thing)/properties/id/maxLength", 10)
        case .constraintLoosened:
            new.set(types, "\(thing)/properties/count/minimum", nil)
        case .objectClosed:
            new.set(types, "\(thing)/additionalProperties", false)
        case .objectOpened:
            old.set(types, "\(thing)/additionalProperties", false)
        case .additionalPropertiesKept:
            new.set(types, "\(thing)/additionalProperties", ["type": "integer"])
        case .additionalPropertiesChanged:
            old.set(types, "\(thing)/additionalProperties", ["type": "integer"])
            new.set(types, "\(thing)/additionalProperties", ["type": "string"])
        case .enumValueAdded:
            new.append(types, "\(thing)/properties/kind/enum", "gamma")
        case .enumValueRemoved:
            new.set(types, "\(thing)/properties/kind/enum", ["alpha"])
        case .enumCaseRenamed:
            // Two values with one Swift name: the second is numbered, until the first goes.
            old.set(types, "\(thing)/properties/kind/enum", ["alpha", "x-y", "x_y"])
            new.set(types, "\(thing)/properties/kind/enum", ["alpha", "x_y"])
        case .variantAdded:
            new.append(types, "\(thing)/properties/value/oneOf", ["type": "integer"])
        case .variantRemoved:
            old.append(types, "\(thing)/properties/value/oneOf", ["type": "integer"])
        case .variantRenamed:
            let flag: [String: Any] = ["type": "object", "properties": ["on": ["type": "boolean"]]]
            old.set(types, "\(thing)/properties/value/oneOf/1", ["$ref": "#/$defs/\(p)Flag"])
            old.set(types, "$defs/\(p)Flag", flag)
            new.set(types, "\(thing)/properties/value/oneOf/1", ["$ref": "#/$defs/\(p)Switch"])
            new.set(types, "$defs/\(p)Switch", flag)
        case .discriminatorChanged:
            for set in [0, 1] {
                var target = set == 0 ? old : new
                for (name, tag) in [("\(p)Circle", "circle"), ("\(p)Square", set == 0 ? "square" : "box")] {
                    target.set(
                        types, "$defs/\(name)",
                        [
                            "type": "object", "required": ["kind"],
                            "properties": ["kind": ["const": tag], "size": ["type": "integer"]],
                        ])
                }
                target.set(
                    types, "\(thing)/properties/shape",
                    [
                        "oneOf": [["$ref": "#/$defs/\(p)Circle"], ["$ref": "#/$defs/\(p)Square"]],
                        "discriminator": ["propertyName": "kind"],
                    ])
                if set == 0 { old = target } else { new = target }
            }
        case .errorFormatAdded:
            new.set(
                proto, "errors/\(p)Limit",
                ["description": "A limit.", "body": ["$ref": "types.json#/$defs/\(p)ErrorBody"], "encodings": ["json"]])
        case .errorFormatRemoved:
            old.set(
                proto, "errors/\(p)Limit",
                ["description": "A limit.", "body": ["$ref": "types.json#/$defs/\(p)ErrorBody"], "encodings": ["json"]])
        case .errorFormatRenamed:
            let format = (old.files[proto] as? [String: Any])?["errors"] as? [String: Any]
            new.set(proto, "errors", ["\(p)Failure": format?["\(p)Error"] as Any])
            new.set(ping, "binding/http/errors", ["\(p)Failure"])
        case .errorCodeAdded:
            new.append(proto, "errors/\(p)Error/codes", ["value": "quota", "name": "quota", "recovery": "retryLater"])
        case .errorCodeRemoved:
            new.set(
                proto, "errors/\(p)Error/codes",
                [["value": "expired", "name": "expired", "recovery": "refreshCredential"]])
        case .errorCodeRenamed:
            new.set(proto, "errors/\(p)Error/codes/1/x-swift-name", "badRequest")
        case .recoveryChanged:
            new.set(proto, "errors/\(p)Error/codes/1/recovery", "reconfigure")
        case .errorFieldsChanged:
            new.set(proto, "errors/\(p)Error/message", ["/code"])
        default:
            return false  // the rules editFamily and editTypes make
        }
        return true
    }

    /// What each example's change is besides its own rule.
    private static let alsoReports: [DiffRule: Set<DiffRule>] = [
        .variantRenamed: [.typeRenamed], .enumCaseRenamed: [.enumValueRemoved],
        .discriminatorChanged: [.constantChanged, .variantRenamed],
    ]

    /// A second method, added or removed by some examples.
    private static func otherMethod(_ p: String) -> [String: Any] {
        [
            "name": "\(p)Other", "description": "Does something else.",
            "binding": [
                "http": ["method": "GET", "server": "api", "path": "/other", "auth": "none", "response": "json"]
            ],
            "response": ["type": "object", "properties": ["done": ["type": "boolean"]]],
        ]
    }
}
