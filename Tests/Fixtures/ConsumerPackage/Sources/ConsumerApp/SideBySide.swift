import Foundation
import HealthSignInCore
import HealthSignInHealthVault
import HealthSignInKoppeltaal
import HealthSignInOAuth
import HealthSignInSMART
import HealthSignInTesting
import HealthSignInVital
import OAuth2
import SMART
import VitalCore

/// Uses the libraries an app already has beside every module of the SDK, in one file: each library by its
/// module-qualified name, and the names they share with the SDK's domain without qualifying them.
func sideBySide() throws -> [String] {
    VitalCore.VitalClient.shared.configure(environment: .sandbox(.eu))
    VitalClient.shared.configure(environment: Environment.production(.us))
    let smart = SMART.Client(baseURL: URL(string: "https://fhir.example")!)
    let grant = OAuth2.OAuth2CodeGrant(clientConfig: OAuth2ClientConfig(clientId: nil))
    var refused = ""
    do { try grant.validate() } catch let error as OAuth2Error { refused = "\(error)" }
    let outcome = OperationOutcome(issue: [
        OperationOutcomeIssue(severity: IssueSeverity.error, code: IssueType.expired)
    ])
    let concept = CodeableConcept(text: Coding(code: Extension(url: "u").url).code)
    let status: Status = .active
    let provider = Provider(slug: Location(name: "oura").name ?? "")

    // The SDK's own types by their names, in the same file.
    let sdk: [String] = [
        String(describing: OAuthErrorCode.invalidGrant), String(describing: FHIRIssueType.expired),
        String(describing: VitalSession.self), String(describing: HealthVaultRecord.self),
        String(describing: SMARTSession.self), String(describing: KoppeltaalSession.self),
        String(describing: URLSessionHTTPTransport.self), String(describing: ManualClock.self),
    ]
    return [
        "VitalCore: \(VitalClient.shared.environment == .production(.us) ? "configured" : "not configured")",
        "SMART: \(smart.server.baseURL.host!) \(outcome.issue[0].code.rawValue) \(concept.text!) \(status.rawValue)",
        "OAuth2: \(refused)",
        "Provider: \(provider.slug)",
        "SDK: " + sdk.joined(separator: " "),
    ]
}
