import Foundation
import HealthSignInCore

/// Where the Shell sent the user when a task finished: `{shell}/application/complete?appid=…&target=…&instanceid=…`,
/// or the app's action URL with the same parameters.
///
/// Parameter names are matched without regard to case (`instanceId` and `instanceid` both occur). An APPAUTH
/// return may carry only `target`: it is for the app instance that opened the page.
public struct ShellCompletion: Sendable, Hashable {
    /// How the Shell task ended.
    public let target: ShellTarget
    /// The application the redirect is for (the child instance), when Shell names it.
    public let applicationID: UUID?
    /// The HealthVault instance the user authorized in, when Shell says.
    public let instanceID: String?

    /// Parses a completion URL (any path: ``ShellReturnMatcher`` decides which URLs are completions) and checks that
    /// it is for `expectedApplicationID` when it names an application.
    ///
    /// - Throws: ``ShellRedirectError`` when the URL lacks `target`, or names another or an invalid application.
    public init(redirect url: URL, expectedApplicationID: UUID) throws {
        let items = URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []
        func parameter(_ name: String) -> String? {
            items.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value.flatMap {
                $0.isEmpty ? nil : $0
            }
        }
        guard let targetText = parameter("target") else { throw ShellRedirectError.missingParameter("target") }
        if let appIDText = parameter("appid") {
            guard let appID = UUID(uuidString: appIDText) else { throw ShellRedirectError.invalidParameter("appid") }
            guard appID == expectedApplicationID else { throw ShellRedirectError.foreignApplication(appID) }
            self.applicationID = appID
        } else {
            self.applicationID = nil
        }
        self.target = ShellTarget(rawValue: targetText)
        self.instanceID = parameter("instanceid")
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

    /// Whether the target is one this SDK lists.
    public var isListed: Bool {
        if case .unknown = self { return false }
        return true
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
    /// The URL is neither `…/application/complete` nor the app's action URL.
    case notACompletionPage(path: String)
    /// A completion page on a host that is not a HealthVault Shell of the configuration or the topology.
    case untrustedHost(String?)
    /// A required query parameter is missing.
    case missingParameter(String)
    /// A parameter has a value of the wrong form.
    case invalidParameter(String)
    /// The redirect is for another application than this instance.
    case foreignApplication(UUID)

    /// A one-line explanation.
    public var description: String {
        switch self {
        case .notACompletionPage(let path):
            return
                "The URL is not a Shell completion page (path '\(path)', expected …/application/complete or the action URL)"
        case .untrustedHost(let host):
            return "The Shell completion page is on '\(host ?? "")', which is not a HealthVault Shell host"
        case .missingParameter(let name): return "The Shell redirect has no '\(name)' parameter"
        case .invalidParameter(let name): return "The Shell redirect's '\(name)' parameter is not valid"
        case .foreignApplication(let id):
            return "The Shell redirect is for application \(id.wireText), not this app instance"
        }
    }
}

extension ShellRedirectError: SDKError {
    /// `ErrorRecovery.none`: the redirect is not one to act on; the app shows the Shell page again if it wants.
    public var recovery: ErrorRecovery { .none }
}
