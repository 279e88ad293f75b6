import Foundation
import SDKRuntime

/// Where the Shell sent the user when a task finished: `{shell}/application/complete?appid=…&target=…&instanceid=…`.
///
/// With instance bounce the page may be on another instance's Shell host, so only the path is matched. Parameter
/// names are matched without regard to case (`instanceId` and `instanceid` both occur).
public struct ShellCompletion: Sendable, Hashable {
    /// How the Shell task ended.
    public let target: ShellTarget
    /// The application the redirect is for (the child instance after CREATEAPPLICATION).
    public let applicationID: UUID
    /// The HealthVault instance the user authorized in, when Shell says.
    public let instanceID: String?

    /// Parses a redirect URL and checks that it is for `expectedApplicationID`.
    ///
    /// - Throws: ``ShellRedirectError`` when the URL is not a completion page, lacks a parameter, or names another
    ///   application.
    public init(redirect url: URL, expectedApplicationID: UUID) throws {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw ShellRedirectError.notACompletionPage(path: "")
        }
        let path = components.path.lowercased()
        guard path.hasSuffix("/application/complete") || path.hasSuffix("/application/complete/") else {
            throw ShellRedirectError.notACompletionPage(path: components.path)
        }
        func parameter(_ name: String) -> String? {
            components.queryItems?.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
        guard let targetText = parameter("target"), !targetText.isEmpty else { throw ShellRedirectError.missingParameter("target") }
        guard let appIDText = parameter("appid"), !appIDText.isEmpty else { throw ShellRedirectError.missingParameter("appid") }
        guard let appID = UUID(uuidString: appIDText) else { throw ShellRedirectError.invalidParameter("appid") }
        guard appID == expectedApplicationID else { throw ShellRedirectError.foreignApplication(appID) }
        let target = ShellTarget(rawValue: targetText)
        let instanceID = parameter("instanceid").flatMap { $0.isEmpty ? nil : $0 }
        if target == .appAuthSuccess, instanceID == nil { throw ShellRedirectError.missingParameter("instanceid") }
        self.target = target
        self.applicationID = appID
        self.instanceID = instanceID
    }
}

/// The `target` a Shell redirect reports. Values this SDK does not list keep their text in ``unknown(_:)``.
public enum ShellTarget: OpenEnum {
    /// The user authorized the application.
    case appAuthSuccess
    /// The user declined (or cancelled).
    case appAuthReject
    /// The record chosen cannot be used by the application.
    case appAuthInvalidRecord
    /// The user picked another record.
    case selectedRecordChanged
    /// The user signed out of Shell.
    case signOut
    /// The user asked for help.
    case help
    /// A target this SDK does not list.
    case unknown(String)

    /// The case for a wire value.
    public init(rawValue: String) {
        switch rawValue.lowercased() {
        case "appauthsuccess": self = .appAuthSuccess
        case "appauthreject": self = .appAuthReject
        case "appauthinvalidrecord": self = .appAuthInvalidRecord
        case "selectedrecordchanged": self = .selectedRecordChanged
        case "signout": self = .signOut
        case "help": self = .help
        default: self = .unknown(rawValue)
        }
    }

    /// The wire value.
    public var rawValue: String {
        switch self {
        case .appAuthSuccess: return "AppAuthSuccess"
        case .appAuthReject: return "AppAuthReject"
        case .appAuthInvalidRecord: return "AppAuthInvalidRecord"
        case .selectedRecordChanged: return "SelectedRecordChanged"
        case .signOut: return "SignOut"
        case .help: return "Help"
        case .unknown(let value): return value
        }
    }
}

/// A Shell redirect could not be used.
public enum ShellRedirectError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The URL is not `…/application/complete`.
    case notACompletionPage(path: String)
    /// A required query parameter is missing.
    case missingParameter(String)
    /// A parameter has a value of the wrong form.
    case invalidParameter(String)
    /// The redirect is for another application than this instance.
    case foreignApplication(UUID)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .notACompletionPage(let path): return "The URL is not a Shell completion page (path '\(path)', expected …/application/complete)"
        case .missingParameter(let name): return "The Shell redirect has no '\(name)' parameter"
        case .invalidParameter(let name): return "The Shell redirect's '\(name)' parameter is not valid"
        case .foreignApplication(let id): return "The Shell redirect is for application \(id.wireText), not this app instance"
        }
    }
}
