import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInKoppeltaal
import HealthSignInKoppeltaal2
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTestSupport
import HealthSignInVital
import XCTest

/// What an app shows for an error: `localizedDescription` is the error's redacted description, and its recovery
/// suggestion follows from its `recovery`, for every public error type of the package.
final class ErrorMessageTests: XCTestCase {
    private static let oauth = OAuthError(
        body: OAuthErrorBody(error: "invalid_grant", errorDescription: "The code was used"),
        httpStatus: 400,
        operation: "Token")

    /// One value of every public error type.
    private static let samples: [any SDKError] = [
        TransportError(
            .timedOut, url: URL(string: "https://api.example.com/v2/token?code=secret"), detail: "timed out"),
        TransportError(.insecureConnection, url: nil, detail: "certificate"),
        UnexpectedResponseError(operation: "Token", response: HTTPResponseMessage(status: 502)),
        ResponseDecodingError(path: "/access_token", reason: "missing"),
        ConfigurationError.missingServer("api"),
        RequestEncodingError.invalidCredential("not Base64"),
        RequestEncodingError.missingSigner,
        PagingError.repeatedCursor,
        PagingError.linkLeavesServer(
            link: "https://evil.example/fhir/Observation?<redacted>", server: "https://ehr.example/fhir"),
        JSONValueError(.unexpectedEnd, offset: 3),
        XMLFragmentError(reason: "unclosed element", offset: 4, line: 1, column: 5),
        SchemaValidationError(path: "/num-results", requirement: "at least 1"),
        CredentialLifecycleError.superseded,
        CredentialStoreError.unreadable(key: "session"),
        CredentialStoreError.lockLost(key: "session"),
        CredentialSealingError.unopenable(key: "session"),
        JOSEError.invalidSignature,
        IDTokenError.nonceMismatch,
        TokenResponseError("token_type is missing, expected Bearer"),
        RefreshResponseRefused(IDTokenError.differsFromSignIn("sub")),
        SignInError(
            .untrustedEndpoint, "the server's token_endpoint is on https://collector.example:8443", family: "SMART"),
        ResourcePathError.missingID(resourceType: "Patient"),
        SignInError(.invalidAuthorizationParameters, "the request sets state itself", family: "SMART"),
        AuthorizationBrowserError.cancelled,
        AuthorizationBrowserError.unexpectedRedirect(path: "/steal"),
        AuthorizationBrowserError.errorPage(
            status: 400, serverMessage: "invalid_client: unknown client",
            page: "https://ehr.example/authorize?<redacted>"),
        SignInError(.stateMismatch, "the redirect's state does not match", family: "SMART"),
        SignInError(.needsSignIn, "there is no usable grant; launch again", family: "SMART"),
        oauth,
        OperationOutcomeError(
            body: FHIROperationOutcome(issue: [.init(severity: .error, diagnostics: "Unknown patient")]),
            httpStatus: 404,
            operation: "MobileLaunch"),
        SignInError(.needsSignIn, "the server ended the grant", family: "Koppeltaal", serverError: oauth),
        SignInError(.activationCodeRejected, "the activation code was not accepted", family: "Koppeltaal"),
        VitalError(body: .init(detail: .init(errorType: "user_not_found")), httpStatus: 404, operation: "GetUser"),
        VitalSessionError.notSignedIn,
        VitalClientUserIDError(rule: .character),
        SignInTokenProblem.notBase64,
        HealthVaultError(
            body: HealthVaultResponseStatus(code: 11, error: StatusError(message: "Access denied")), httpStatus: 200,
            operation: "GetThings"),
        HealthVaultConnectionError.notProvisioned,
        HealthVaultThingChangedError(
            thingID: UUID(uuidString: "26a4598d-7db2-4d96-85bc-3e3dca5dce4b")!,
            underlying: HealthVaultError(
                body: HealthVaultResponseStatus(code: 61, error: StatusError(message: "Version stamp mismatch")),
                httpStatus: 200,
                operation: "PutThings")),
        ShellRedirectError.missingParameter("instanceid"),
        HTILaunchError(.replayed, "the launch token j-1 was used before"),
        KT2RequestError(
            code: .resourceOriginOnCreate, resourceType: "Task",
            detail: "a create must not carry the resource-origin extension; the server sets it"),
        KT2UpdateConflict(httpStatus: 409, outcome: nil, sentETag: #"W/"1""#, current: (#"W/"2""#, Data())),
        KT2PreconditionError(httpStatus: 412, outcome: nil, sentETag: #"W/"1""#),
        KT2NotificationError.unauthenticated,
        SHOFError.contextMismatch, SHOFError.tamperedRequest,
    ]

    func testTheLocalizedDescriptionIsTheDescription() {
        for error in Self.samples {
            XCTAssertEqual((error as any Error).localizedDescription, error.description, "\(type(of: error))")
            XCTAssertEqual(error.errorDescription, error.description)
        }
    }

    func testTheRecoverySuggestionFollowsTheRecovery() {
        for error in Self.samples {
            XCTAssertEqual(error.recoverySuggestion, error.recovery.suggestion, "\(type(of: error))")
        }
        XCTAssertNil(ErrorRecovery.none.suggestion)
        for recovery in ErrorRecovery.allCases where recovery != .none {
            XCTAssertNotNil(recovery.suggestion, "\(recovery)")
        }
        XCTAssertEqual(Self.oauth.recovery, .discardGrant)
        XCTAssertEqual(TransportError(.timedOut, url: nil, detail: "").recovery, .retryLater)
        XCTAssertEqual(SignInError(.needsSignIn, "", family: "Koppeltaal").recovery, .reauthorize)
        XCTAssertEqual(HealthVaultConnectionError.notProvisioned.recovery, .reprovision)
    }

    /// A transport error shows the host only, never the path or query that may carry a code.
    func testTheLocalizedDescriptionStaysRedacted() {
        let error = TransportError(
            .timedOut, url: URL(string: "https://api.example.com/v2/token?code=canary-secret"), detail: "timed out")
        XCTAssertFalse((error as any Error).localizedDescription.contains("canary-secret"))
        XCTAssertTrue((error as any Error).localizedDescription.contains("api.example.com"))
    }

    /// Every public error type declared in the products' sources is among the samples, so a new one cannot miss the
    /// conformance. (HealthSignInSchemaSemantics is no product: the runtime turns its errors into its own.)
    func testEveryPublicErrorTypeIsCovered() throws {
        let sampled = Set(Self.samples.map { String(describing: type(of: $0)) })
        let sources = Fixtures.repository.appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        let declaration = try NSRegularExpression(pattern: #"public (?:struct|enum) (\w+): Error\b"#)
        var declared: Set<String> = []
        for case let file as URL in files
        where file.pathExtension == "swift" && !file.path.contains("/Sources/HealthSignInSchemaSemantics/") {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                if let range = Range(match.range(at: 1), in: text) { declared.insert(String(text[range])) }
            }
        }
        XCTAssertGreaterThan(declared.count, 15)
        XCTAssertEqual(declared.subtracting(sampled), [], "public error types without a sample here")
    }
}
