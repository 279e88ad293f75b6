/// The REST interactions an imported FHIR family declares as methods, and `OperationOutcome` as their error.
///
/// The methods are the interactions whose request and answer the schema language can state for every resource at
/// once: `read` and `vread` answer with the `Resource` union, `transaction` (and `batch`, the same request with
/// another `Bundle.type`) sends and answers a `Bundle`, `capabilities` answers the `CapabilityStatement`. Between
/// them every type of the family is decoded and encoded, so every type gets its JSON codecs. Interactions that take
/// one resource as the whole body (create, update) or a resource type's own parameters (search) are typed by a
/// client over these models.
///
/// A method is written only when the package defines what it needs (a `Bundle` for `BatchOrTransaction`), and the error
/// only with an `OperationOutcome`.
struct FHIRRestDocuments {
    /// The package's type names.
    let types: Set<String>
    /// The codes of `OperationOutcome.issue.code`'s value set, when the package lists them.
    let issueCodes: FHIRCodeList?
    let family: String

    static let errorName = "FHIROperationOutcomeError"

    /// The method documents, one file per method.
    func methods() -> [InMemoryFile] {
        var methods: [InMemoryFile] = []
        let hasError = types.contains("OperationOutcome")
        let resourceType = Self.pathParameter("The resource's type, e.g. Patient.", pattern: "^[A-Z][A-Za-z]{0,63}$")
        let id = Self.pathParameter("The resource's logical id.", pattern: "^[A-Za-z0-9.-]{1,64}$")
        let versionID = Self.pathParameter(
            "The version's id, as meta.versionId gives it.", pattern: "^[A-Za-z0-9.-]{1,64}$")
        methods.append(
            method(
                "Read", "Reads a resource's current version (GET [base]/[type]/[id]).", verb: "GET",
                path: "/{resourceType}/{id}", auth: "bearer", hasError: hasError,
                request: Self.object([("resourceType", resourceType), ("id", id)]), response: "Resource"))
        methods.append(
            method(
                "VRead", "Reads one version of a resource (GET [base]/[type]/[id]/_history/[vid]).", verb: "GET",
                path: "/{resourceType}/{id}/_history/{vid}", auth: "bearer", hasError: hasError,
                request: Self.object([("resourceType", resourceType), ("id", id), ("vid", versionID)]),
                response: "Resource"))
        if types.contains("Bundle") {
            methods.append(
                method(
                    "BatchOrTransaction",
                    "Sends a transaction or batch Bundle (POST [base]): the server processes its entries, all or none for a transaction and each on its own for a batch, and answers with a Bundle of what happened to each.",
                    verb: "POST", path: "", auth: "bearer", hasError: hasError, request: Self.reference("Bundle"),
                    response: "Bundle", body: true))
        }
        if types.contains("CapabilityStatement") {
            methods.append(
                method(
                    "Capabilities", "Reads the server's CapabilityStatement (GET [base]/metadata, public).",
                    verb: "GET", path: "/metadata", auth: "none", hasError: hasError, request: nil,
                    response: "CapabilityStatement"))
        }
        return methods
    }

    /// The protocol's `errors` member, when the package defines `OperationOutcome`.
    func errors() -> SchemaText? {
        guard types.contains("OperationOutcome") else { return nil }
        var format: [(key: String, value: SchemaText)] = [
            (
                "description",
                .string("An OperationOutcome, which may accompany any 4xx or 5xx answer of a FHIR server.")
            ),
            ("body", Self.reference("OperationOutcome")),
            ("encodings", .array([.string("json")])),
            ("code", .array([.string("/issue/*/code")])),
            ("message", .array([.string("/issue/0/diagnostics")])),
        ]
        if let issueCodes {
            format.append(
                (
                    "codes",
                    .array(
                        issueCodes.codes.map { code in
                            var entry: [(key: String, value: SchemaText)] = [
                                ("value", .string(code.code)), ("name", .string(code.code)),
                            ]
                            // `unknown` is the case of codes a table does not list; this code means an identity.
                            if code.code == "unknown" { entry.append(("x-swift-name", .string("unknownIdentity"))) }
                            if !code.display.isEmpty { entry.append(("description", .string(code.display + "."))) }
                            if let recovery = Self.recoveries[code.code] {
                                entry.append(("recovery", .string(recovery)))
                            }
                            return .object(entry)
                        })
                ))
        }
        return .object([(Self.errorName, .object(format))])
    }

    /// What a caller does about an issue type (FHIR's issue-type code system): what the request got wrong is fixed
    /// in the request, an expired or missing sign-in is renewed, and a passing condition is retried.
    private static let recoveries: [String: String] = [
        "invalid": "fixRequest", "structure": "fixRequest", "required": "fixRequest", "value": "fixRequest",
        "invariant": "fixRequest", "not-supported": "fixRequest", "too-long": "fixRequest",
        "code-invalid": "fixRequest", "extension": "fixRequest", "login": "refreshCredential",
        "expired": "refreshCredential", "transient": "retryLater", "lock-error": "retryLater",
        "no-store": "retryLater", "timeout": "retryLater", "throttled": "retryLater",
    ]

    // MARK: Documents

    private func method(
        _ name: String, _ description: String, verb: String, path: String, auth: String, hasError: Bool,
        request: SchemaText?, response: String, body: Bool = false
    ) -> InMemoryFile {
        var http: [(key: String, value: SchemaText)] = [("method", .string(verb)), ("server", .string("base"))]
        if !path.isEmpty { http.append(("path", .string(path))) }
        http.append(("auth", .string(auth)))
        if body { http.append(("body", .string("json"))) }
        http.append(("response", .string("json")))
        if hasError { http.append(("errors", .array([.string(Self.errorName)]))) }
        if body { http.append(("headers", .object([("Content-Type", .string("application/fhir+json"))]))) }
        var document: [(key: String, value: SchemaText)] = [
            ("$schema", .string("../method.schema.json")), ("name", .string(name)),
            ("description", .string(description)), ("binding", .object([("http", .object(http))])),
        ]
        if let request { document.append(("request", request)) }
        document.append(("response", Self.reference(response)))
        return InMemoryFile(path: "\(family)/\(name).json", contents: SchemaText.object(document).printed())
    }

    private static func reference(_ type: String) -> SchemaText {
        .object([("$ref", .string("types.json#/$defs/" + type))])
    }

    /// A required object of path parameters.
    private static func object(_ properties: [(key: String, value: SchemaText)]) -> SchemaText {
        .object([
            ("type", .string("object")), ("required", .array(properties.map { .string($0.key) })),
            ("properties", .object(properties)),
        ])
    }

    /// A path parameter; its pattern keeps it one path segment of FHIR's syntax.
    private static func pathParameter(_ description: String, pattern: String) -> SchemaText {
        .object([
            ("type", .string("string")), ("in", .string("path")), ("pattern", .string(pattern)),
            ("description", .string(description)),
        ])
    }
}
