import Foundation

/// The inputs `make fuzz` mutates, one target per parser of outside data. Each target takes arbitrary bytes and must
/// return (normally or by a typed error) without crashing, leaking or hanging; whatever it returns is ignored.
///
/// The same entry points run in the regression tests over every input a fuzzing run ever found troublesome
/// (`Tests/Fixtures/Fuzz/<target>/`).
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The XML reader, walking every node of what it reads.
    case xmlReader = "xml-reader"
    /// The HealthVault response envelope and every generated HealthVault response decoder.
    case healthVaultResponses = "healthvault-responses"
    /// Every Koppeltaal, Vital, HealthVault and SMART client method, given the input as a server's answer.
    case httpResponses = "http-responses"
    /// FHIR OperationOutcome, in JSON and in XML.
    case operationOutcome = "operation-outcome"
    /// The Vital sign-in token.
    case signInToken = "sign-in-token"
    /// The HealthVault Shell's completion redirect.
    case shellRedirect = "shell-redirect"
    /// The schema loader and validator: the JSON parser, then the whole generator on a method file.
    case schema = "schema"
    /// Any JSON value (`JSONValue.parse`), written back and read again.
    case jsonValue = "json-value"
    /// XML content (`XMLFragment(wellFormed:)`), kept exactly and read as a tree.
    case xmlFragment = "xml-fragment"
    /// Text in a schema's fields (descriptions, enum values, names, paths): never code in the generated Swift.
    case schemaText = "schema-text"
    /// An `sdkgen-config.json`, then the generator with what it accepts.
    case config = "config"
    /// JSON Web Keys, key sets, compact JWS, and OpenID Connect id tokens.
    case jose = "jose"

    /// Feeds `data` to the text mode of the schema target, and tells whether the family it made generated.
    public static func schemaTextGenerates(_ data: Data) -> Bool { SchemaFuzzing.runText(data) }

    /// Feeds `data` to the target.
    public func run(_ data: Data) {
        switch self {
        case .xmlReader: XMLReaderFuzzing.run(data)
        case .healthVaultResponses: HealthVaultFuzzing.run(data)
        case .httpResponses: HTTPResponseFuzzing.run(data)
        case .operationOutcome: OperationOutcomeFuzzing.run(data)
        case .signInToken: SignInTokenFuzzing.run(data)
        case .shellRedirect: ShellRedirectFuzzing.run(data)
        case .schema: SchemaFuzzing.run(data)
        case .schemaText: SchemaFuzzing.runText(data)
        case .config: ConfigFuzzing.run(data)
        case .jose: JOSEFuzzing.run(data)
        case .jsonValue: JSONValueFuzzing.run(data)
        case .xmlFragment: XMLFragmentFuzzing.run(data)
        }
    }
}
