import Foundation
@_spi(Generated) import HealthSignInCore

/// Builds the HealthVault Shell URLs an app opens in a browser: creating the app instance, authorizing records,
/// creating an account or a record.
///
/// Each is `{shell}/redirect.aspx?target=TARGET&targetqs=…`, where the target's parameters are percent-encoded
/// once into `targetqs` and `targetqs` is percent-encoded again as a whole, so a creation token's `/` arrives as
/// `%252F`. Encoding keeps only RFC 3986 unreserved characters, as `Uri.EscapeDataString` does.
public struct HealthVaultShell: Sendable, Hashable {
    /// The Shell's base URL, e.g. `https://account.healthvault-ppe.com`.
    public let url: URL

    /// Creates a builder for the Shell at `url`.
    public init(url: URL) { self.url = url }

    /// CREATEAPPLICATION: the user signs in, creates this app instance under the master application, and picks records.
    ///
    /// - Parameters:
    ///   - masterApplicationID: the master application (not the child instance).
    ///   - applicationCreationToken: the single-use `app-token` from `NewApplicationCreationInfo`.
    ///   - instanceName: how the instance is shown to the user, e.g. the device's name.
    ///   - isMultiRecordApp: whether the user may authorize several records.
    ///   - allowsInstanceBounce: whether Shell may send the user to the instance that holds their account.
    public func createApplication(
        masterApplicationID: UUID, applicationCreationToken: String, instanceName: String,
        isMultiRecordApp: Bool = true, allowsInstanceBounce: Bool = true
    ) -> URL {
        redirect(
            "CREATEAPPLICATION",
            [
                ("appid", masterApplicationID.wireText),
                ("appCreationToken", applicationCreationToken),
                ("instanceName", instanceName),
                ("ismra", isMultiRecordApp.wireText),
                ("mobile", "true"),
            ] + (allowsInstanceBounce ? [("aib", "true")] : []))
    }

    /// APPAUTH: the user authorizes (more) records for an existing app instance.
    ///
    /// - Parameters:
    ///   - applicationID: the child (instance) application.
    ///   - isMultiRecordApp: whether the app may be authorized for more than one record (`ismra`).
    ///   - allowsInstanceBounce: whether Shell may send the user to another HealthVault instance (`aib`).
    public func authorizeApplication(
        applicationID: UUID, isMultiRecordApp: Bool = true, allowsInstanceBounce: Bool = false
    ) -> URL {
        redirect("APPAUTH", childParameters(applicationID, isMultiRecordApp, allowsInstanceBounce))
    }

    /// CREATEACCOUNT: the user creates a HealthVault account and authorizes its records for the instance.
    ///
    /// - Parameters:
    ///   - applicationID: the child (instance) application.
    ///   - isMultiRecordApp: whether the app may be authorized for more than one record (`ismra`).
    ///   - allowsInstanceBounce: whether Shell may send the user to another HealthVault instance (`aib`).
    public func createAccount(applicationID: UUID, isMultiRecordApp: Bool = true, allowsInstanceBounce: Bool = false)
        -> URL
    {
        redirect("CREATEACCOUNT", childParameters(applicationID, isMultiRecordApp, allowsInstanceBounce))
    }

    /// CREATERECORD: the user creates a record and authorizes it for the instance.
    ///
    /// - Parameters:
    ///   - applicationID: the child (instance) application.
    ///   - isMultiRecordApp: whether the app may be authorized for more than one record (`ismra`).
    ///   - allowsInstanceBounce: whether Shell may send the user to another HealthVault instance (`aib`).
    public func createRecord(applicationID: UUID, isMultiRecordApp: Bool = true, allowsInstanceBounce: Bool = false)
        -> URL
    {
        redirect("CREATERECORD", childParameters(applicationID, isMultiRecordApp, allowsInstanceBounce))
    }

    private func childParameters(_ applicationID: UUID, _ isMultiRecordApp: Bool, _ allowsInstanceBounce: Bool) -> [(
        String, String
    )] {
        [("appid", applicationID.wireText), ("ismra", isMultiRecordApp.wireText), ("mobile", "true")]
            + (allowsInstanceBounce ? [("aib", "true")] : [])
    }

    private func redirect(_ target: String, _ parameters: [(String, String)]) -> URL {
        let targetQuery = parameters.map { "\($0.0)=\(PercentEncoding.pathSegment($0.1))" }.joined(separator: "&")
        var base = url.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        let text = base + "/redirect.aspx?target=" + target + "&targetqs=" + PercentEncoding.pathSegment(targetQuery)
        // Every piece is percent-encoded ASCII appended to a valid URL, so the result always parses.
        return URL(string: text) ?? url
    }
}
