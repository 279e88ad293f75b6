/// What `sdkgen diff` reports: one rule per kind of change, each with its verdicts on both axes.
///
/// The verdicts follow from what the generator emits and what the runtime does with a message:
/// - **source** breaks when a use of the old API can stop compiling: a member or type gone or renamed, a type or an
///   initializer parameter changed, a case added to a type users switch over exhaustively (enums, unions and error
///   codes are all such types).
/// - **wire** breaks when, in either direction (a client not yet updated talking to an updated server, or an updated
///   client talking to a server not yet updated), a message one version writes or accepts is refused or read
///   differently by the other. Every validation keyword is checked on both sides, so tightening one refuses old
///   values and loosening one lets new values through that an old peer refuses.
///
/// The table in `Schemas/README.md` is rendered from ``allCases``; the proofs in the generator's tests compile and run
/// each rule's example.
enum DiffRule: String, Sendable, Hashable, CaseIterable, Codable {
    // Families and configuration
    case familyAdded = "family-added"
    case familyRemoved = "family-removed"
    case moduleRenamed = "module-renamed"
    case accessNarrowed = "access-level-narrowed"
    case accessWidened = "access-level-widened"
    // Servers and family bindings
    case serverAdded = "server-added"
    case serverRemoved = "server-removed"
    case serverDefaultChanged = "server-default-changed"
    case familyHeadersChanged = "family-headers-changed"
    case apiKeyHeaderChanged = "api-key-header-changed"
    case envelopeChanged = "envelope-settings-changed"
    // Methods
    case methodAdded = "method-added"
    case methodRemoved = "method-removed"
    case methodRenamed = "method-renamed"
    case verbChanged = "method-verb-changed"
    case pathChanged = "method-path-changed"
    case methodServerChanged = "method-server-changed"
    case authChanged = "method-auth-changed"
    case bodyChanged = "method-body-changed"
    case responseChanged = "method-response-changed"
    case methodHeadersChanged = "method-headers-changed"
    case methodErrorAdded = "method-error-format-added"
    case methodErrorRemoved = "method-error-format-removed"
    case pagingAdded = "paging-added"
    case pagingRemoved = "paging-removed"
    case pagingChanged = "paging-changed"
    case healthVaultMethodChanged = "healthvault-method-changed"
    // Types
    case typeAdded = "type-added"
    case typeRemoved = "type-removed"
    case typeRenamed = "type-renamed"
    case typeKindChanged = "type-kind-changed"
    // Properties
    case propertyAddedOptional = "property-added-optional"
    case propertyAddedRequired = "property-added-required"
    case propertyAddedRequiredWithDefault = "property-added-required-with-default"
    case propertyAddedToClosedObject = "property-added-to-closed-object"
    case propertyRemovedOptional = "property-removed-optional"
    case propertyRemovedRequired = "property-removed-required"
    case propertyBecameRequired = "property-became-required"
    case propertyBecameOptional = "property-became-optional"
    case arrayBecameOptional = "array-property-became-optional"
    case requirementChanged = "property-requirement-changed"
    case propertyTypeChanged = "property-type-changed"
    case propertyWireNameChanged = "property-wire-name-changed"
    case propertySwiftNameChanged = "property-swift-name-changed"
    case propertiesReordered = "properties-reordered"
    case nullabilityChanged = "property-nullability-changed"
    case defaultChanged = "property-default-changed"
    case sensitivityChanged = "property-sensitivity-changed"
    case locationChanged = "property-location-changed"
    case constantChanged = "property-constant-changed"
    case aliasesChanged = "property-aliases-changed"
    case xmlShapeChanged = "property-xml-changed"
    case constraintTightened = "constraint-tightened"
    case constraintLoosened = "constraint-loosened"
    case objectClosed = "object-closed"
    case objectOpened = "object-opened"
    case additionalPropertiesKept = "additional-properties-kept"
    case additionalPropertiesChanged = "additional-properties-changed"
    // Enumerations and unions
    case enumValueAdded = "enum-value-added"
    case enumValueRemoved = "enum-value-removed"
    case enumCaseRenamed = "enum-case-renamed"
    case variantAdded = "one-of-variant-added"
    case variantRemoved = "one-of-variant-removed"
    case variantRenamed = "one-of-case-renamed"
    case discriminatorChanged = "one-of-discriminator-changed"
    // Error formats
    case errorFormatAdded = "error-format-added"
    case errorFormatRemoved = "error-format-removed"
    case errorFormatRenamed = "error-format-renamed"
    case errorCodeAdded = "error-code-added"
    case errorCodeRemoved = "error-code-removed"
    case errorCodeRenamed = "error-code-renamed"
    case recoveryChanged = "error-recovery-changed"
    case errorFieldsChanged = "error-fields-changed"

    /// Whether Swift written against the old generated API can stop compiling.
    var source: ChangeVerdict { Self.verdicts[self]?.source ?? .breaking }
    /// Whether a message of one version can be refused or read differently by the other.
    var wire: ChangeVerdict { Self.verdicts[self]?.wire ?? .breaking }
    /// What changed, as the table says it.
    var summary: String { Self.texts[self]?.summary ?? rawValue }
    /// One example, in schema terms.
    var example: String { Self.texts[self]?.example ?? "" }

    private static let b = ChangeVerdict.breaking
    private static let c = ChangeVerdict.compatible

    /// The verdicts of every rule: source first, wire second.
    private static let verdicts: [DiffRule: (source: ChangeVerdict, wire: ChangeVerdict)] = [
        .familyAdded: (c, c), .familyRemoved: (b, b), .moduleRenamed: (b, c), .accessNarrowed: (b, c),
        .accessWidened: (c, c),
        .serverAdded: (c, c), .serverRemoved: (b, c), .serverDefaultChanged: (c, b), .familyHeadersChanged: (c, b),
        .apiKeyHeaderChanged: (c, b), .envelopeChanged: (c, b),
        .methodAdded: (c, c), .methodRemoved: (b, b), .methodRenamed: (b, c), .verbChanged: (c, b),
        .pathChanged: (c, b), .methodServerChanged: (c, b), .authChanged: (b, b), .bodyChanged: (c, b),
        .responseChanged: (b, b), .methodHeadersChanged: (c, b), .methodErrorAdded: (c, c),
        .methodErrorRemoved: (c, b), .pagingAdded: (c, c), .pagingRemoved: (b, c), .pagingChanged: (c, b),
        .healthVaultMethodChanged: (c, b),
        .typeAdded: (c, c), .typeRemoved: (b, c), .typeRenamed: (b, c), .typeKindChanged: (b, b),
        .propertyAddedOptional: (c, c), .propertyAddedRequired: (b, b), .propertyAddedRequiredWithDefault: (c, b),
        .propertyAddedToClosedObject: (c, b),
        .propertyRemovedOptional: (b, c), .propertyRemovedRequired: (b, b), .propertyBecameRequired: (b, b),
        .propertyBecameOptional: (b, b), .arrayBecameOptional: (c, b), .requirementChanged: (c, b),
        .propertyTypeChanged: (b, b),
        .propertyWireNameChanged: (c, b),
        .propertySwiftNameChanged: (b, c), .propertiesReordered: (b, c), .nullabilityChanged: (c, b),
        .defaultChanged: (c, c),
        .sensitivityChanged: (c, c), .locationChanged: (c, b), .constantChanged: (c, b), .aliasesChanged: (c, b),
        .xmlShapeChanged: (c, b), .constraintTightened: (c, b), .constraintLoosened: (c, b), .objectClosed: (c, b),
        .objectOpened: (c, b), .additionalPropertiesKept: (c, b), .additionalPropertiesChanged: (b, b),
        .enumValueAdded: (b, b), .enumValueRemoved: (b, b), .enumCaseRenamed: (b, c), .variantAdded: (b, b),
        .variantRemoved: (b, b), .variantRenamed: (b, c), .discriminatorChanged: (c, b),
        .errorFormatAdded: (c, c), .errorFormatRemoved: (b, c), .errorFormatRenamed: (b, c), .errorCodeAdded: (b, c),
        .errorCodeRemoved: (b, c),
        .errorCodeRenamed: (b, c), .recoveryChanged: (c, c), .errorFieldsChanged: (c, b),
    ]

    /// What each rule covers, and an example.
    private static let texts: [DiffRule: (summary: String, example: String)] = [
        .familyAdded: ("a family directory added", "`Acme/` appears"),
        .familyRemoved: ("a family directory removed", "`Acme/` is gone"),
        .moduleRenamed: ("`protocol.json`'s `module` changed", "`\"module\": \"Acme\"` → `\"AcmeKit\"`"),
        .accessNarrowed: (
            "the configuration's `accessModifier` made narrower", "`public` → `package`"
        ),
        .accessWidened: ("the configuration's `accessModifier` made wider", "`internal` → `public`"),
        .serverAdded: ("a server added to `servers`", "`\"files\": {…}` added"),
        .serverRemoved: (
            "a server removed from `servers` (a method that used it changes too, which its own rule reports)",
            "`\"files\": {…}` removed"
        ),
        .serverDefaultChanged: (
            "a server's `default` URL changed, added or removed", "`https://api.example.com` → `https://v2.example.com`"
        ),
        .familyHeadersChanged: (
            "the header fields every request sends changed", "`\"Accept\": \"application/json\"` added"
        ),
        .apiKeyHeaderChanged: ("the `apiKeyHeader` changed", "`x-key` → `x-api-key`"),
        .envelopeChanged: (
            "a HealthVault envelope setting changed (language, country, message TTL, client version, status error)",
            "`\"messageTTL\": 1800` → `600`"
        ),
        .methodAdded: ("a method file added", "`DeleteUser.json` appears"),
        .methodRemoved: ("a method file removed", "`DeleteUser.json` is gone"),
        .methodRenamed: (
            "a method's client name changed (its `name`, `x-swift-name` or a configuration rename) for the same request",
            "`\"name\": \"GetUser\"` → `\"FetchUser\"`"
        ),
        .verbChanged: ("a method's HTTP `method` changed", "`GET` → `POST`"),
        .pathChanged: ("a method's `path` changed, or a path parameter's wire name", "`/v1/users` → `/v2/users`"),
        .methodServerChanged: ("a method's `server` changed", "`api` → `files`"),
        .authChanged: ("a method's `auth` policy changed", "`none` → `bearer`"),
        .bodyChanged: ("how a method's request travels changed (`body`: json, form or none)", "`json` → `form`"),
        .responseChanged: (
            "a method's `response` kind changed, or its request or response schema added or removed",
            "`json` → `none`"
        ),
        .methodHeadersChanged: ("a header field a method sends by itself changed", "`\"X-Version\": \"1\"` → `\"2\"`"),
        .methodErrorAdded: ("an error format added to a method's `errors`", "`\"errors\": []` → `[\"DemoError\"]`"),
        .methodErrorRemoved: (
            "an error format removed from a method's `errors` (its error responses are no longer read as that error)",
            "`[\"DemoError\"]` → `[]`"
        ),
        .pagingAdded: ("`paging` added to a method", "`\"paging\": {…}` added"),
        .pagingRemoved: ("`paging` removed from a method", "`\"paging\": {…}` removed"),
        .pagingChanged: ("where a method's cursor, items or `more` flag are", "`/cursor` → `/next`"),
        .healthVaultMethodChanged: (
            "a HealthVault method's name, version, response namespace or record scoping changed", "version `1` → `2`"
        ),
        .typeAdded: ("a named type added", "`$defs/Address` added"),
        .typeRemoved: ("a named type removed", "`$defs/Address` removed"),
        .typeRenamed: (
            "a type's Swift name changed for the same place in a message (`x-swift-name`, a `$defs` key, a property name of an inline object, a configuration rename)",
            "`$defs/Address` → `$defs/PostalAddress`"
        ),
        .typeKindChanged: (
            "a type became another kind (object, enum, `oneOf`, scalar)", "`\"type\": \"object\"` → `\"enum\": […]`"
        ),
        .propertyAddedOptional: (
            "an optional property added to an object that allows other members", "`\"nickname\": {…}` added"
        ),
        .propertyAddedRequired: ("a required property added", "`\"nickname\"` added and listed in `required`"),
        .propertyAddedRequiredWithDefault: (
            "a required property with a `default` added (the initializer fills it in; a message without it is refused)",
            "`\"limit\": {\"type\": \"integer\", \"default\": 10}` added and listed in `required`"
        ),
        .propertyAddedToClosedObject: (
            "an optional property added to an object with `additionalProperties: false`", "`\"nickname\": {…}` added"
        ),
        .propertyRemovedOptional: ("an optional property removed", "`\"nickname\"` removed"),
        .propertyRemovedRequired: (
            "a required property removed, or an optional one from an object with `additionalProperties: false`",
            "`\"id\"` removed"
        ),
        .propertyBecameRequired: ("a property listed in `required`", "`\"required\": []` → `[\"id\"]`"),
        .propertyBecameOptional: ("a property taken out of `required`", "`\"required\": [\"id\"]` → `[]`"),
        .arrayBecameOptional: (
            "an array property taken out of `required` (its Swift type stays an array, empty when the member is absent)",
            "`\"required\": [\"tags\"]` → `[]`"
        ),
        .requirementChanged: (
            "a property listed in or taken out of `required` whose Swift declaration stays the same: a `const`, a nullable value (optional in Swift either way), a bound value, an object without fields",
            "`\"version\": {\"const\": \"v1\"}` with `\"required\": []` → `[\"version\"]`"
        ),
        .propertyTypeChanged: (
            "a property's type changed (`type`, `format`, `items`, a `$ref`)", "`\"type\": \"integer\"` → `\"string\"`"
        ),
        .propertyWireNameChanged: (
            "a property's name on the wire changed, its Swift name kept (`x-swift-name`)",
            "`\"user_id\"` → `\"userId\"` with `\"x-swift-name\": \"userID\"`"
        ),
        .propertySwiftNameChanged: (
            "a property's Swift name changed, its name on the wire kept",
            "`\"x-swift-name\": \"id\"` → `\"identifier\"`"
        ),
        .nullabilityChanged: (
            "whether a property may be `null` changed", "`\"type\": \"string\"` → `[\"string\", \"null\"]`"
        ),
        .defaultChanged: (
            "a property's `default` changed (documentation and the initializer's default argument; never substituted on the wire)",
            "`\"default\": 10` → `20`"
        ),
        .sensitivityChanged: ("a property's `sensitive` changed (redaction only)", "`\"sensitive\": true` added"),
        .locationChanged: (
            "where a request property travels changed (`in`: query, header, path, body)", "`query` → `header`"
        ),
        .constantChanged: ("a property's `const` value changed", "`\"const\": \"v1\"` → `\"v2\"`"),
        .aliasesChanged: ("the other names a property is read by changed (`aliases`)", "`[\"userId\"]` added"),
        .propertiesReordered: (
            "an object's properties listed in another order: the memberwise initializer's parameters follow it",
            "`{\"id\": …, \"name\": …}` → `{\"name\": …, \"id\": …}`"
        ),
        .xmlShapeChanged: (
            "a property's XML name, kind or item name changed", "`\"xml\": {\"name\": \"id\"}` → `\"thing-id\"`"
        ),
        .constraintTightened: (
            "a validation keyword added or made stricter (`maxLength`, `minimum`, `pattern`, `minItems`, `uniqueItems`, …)",
            "`\"maxLength\": 64` → `32`"
        ),
        .constraintLoosened: ("a validation keyword removed or made looser", "`\"maxLength\": 32` → `64`"),
        .objectClosed: ("`additionalProperties: false` added", "other members were kept, now they are refused"),
        .objectOpened: ("`additionalProperties: false` removed", "other members were refused, now they are allowed"),
        .additionalPropertiesKept: (
            "`additionalProperties` with a schema added: the members beyond the properties are kept, and checked",
            "`{}` → `\"additionalProperties\": {\"type\": \"integer\"}`"
        ),
        .additionalPropertiesChanged: (
            "the members beyond an object's properties kept with another type, or no longer kept",
            "`\"additionalProperties\": {\"type\": \"string\"}` → `{\"type\": \"integer\"}`"
        ),
        .enumValueAdded: ("a value added to an `enum`", "`[\"a\", \"b\"]` → `[\"a\", \"b\", \"c\"]`"),
        .enumValueRemoved: ("a value removed from an `enum`", "`[\"a\", \"b\"]` → `[\"a\"]`"),
        .enumCaseRenamed: ("an enum value's Swift case changed", "`\"x-swift-name\"` of a value changed"),
        .variantAdded: ("a variant added to `oneOf`", "`[{\"type\": \"string\"}]` → `[…, {\"type\": \"integer\"}]`"),
        .variantRemoved: (
            "a variant removed from `oneOf`", "`[…, {\"type\": \"integer\"}]` → `[{\"type\": \"string\"}]`"
        ),
        .variantRenamed: ("a `oneOf` variant's Swift case changed", "a variant's `$ref` renamed"),
        .discriminatorChanged: (
            "a `oneOf`'s `discriminator` or a variant's discriminating value changed", "`\"kind\"` → `\"type\"`"
        ),
        .errorFormatAdded: ("an error format added to `errors`", "`\"RateLimitError\": {…}` added"),
        .errorFormatRemoved: (
            "an error format removed (the methods that read it change too, which `method-error-format-removed` reports)",
            "`\"RateLimitError\": {…}` removed"
        ),
        .errorFormatRenamed: (
            "an error format's name changed, its codes and body the same", "`\"OAuth2Error\"` → `\"OAuthError\"`"
        ),
        .errorCodeAdded: ("a code added to an error format's `codes`", "`{\"value\": \"quota_exceeded\", …}` added"),
        .errorCodeRemoved: (
            "a code removed from an error format's `codes`", "`{\"value\": \"quota_exceeded\", …}` removed"
        ),
        .errorCodeRenamed: ("a code's Swift case changed", "`\"x-swift-name\"` of a code changed"),
        .recoveryChanged: ("a code's `recovery` changed", "`retryLater` → `reauthorize`"),
        .errorFieldsChanged: (
            "where an error format finds its code or message changed, or its body encodings", "`/error` → `/code`"
        ),
    ]
}
