import Foundation
@_spi(Generated) import HealthSignInCore

/// The Shell: `redirect.aspx` shows the user a sign-in page for the target (CREATEAPPLICATION with a single-use
/// creation token, APPAUTH, CREATEACCOUNT, CREATERECORD); the user's answer sends the browser to the completion page
/// of the Shell that showed it, or to the app's action URL.
///
/// A user whose account lives in another instance (``Settings/shellInstance``, or the instance of the application
/// named) is bounced there: the Shell redirects the browser to that instance's `redirect.aspx` with the same query
/// when the page allows it (`aib=true`), and refuses the page otherwise.
extension HealthVaultTestServer {
    private static func page(_ status: Int, _ text: String) -> HTTPResponseMessage {
        .text(status, "<html>\(text)</html>", type: "text/html; charset=utf-8")
    }

    func shell(_ request: ReceivedRequest, instance: String) -> HTTPResponseMessage {
        let target = request.query["target"] ?? ""
        let query = (request.query["targetqs"] ?? "").drop { $0 == "?" }
        var parameters: [String: String] = [:]
        for pair in FormFields(formEncoded: String(query)).pairs where parameters[pair.name] == nil {
            parameters[pair.name] = pair.value
        }
        let prompt = core.token(bytes: 12)
        let snapshot = state.current
        let application: String
        var home = snapshot.settings.shellInstance
        switch target {
        case "CREATEAPPLICATION":
            guard let master = parameters["appid"], snapshot.masters.contains(master) else {
                return Self.page(400, "unknown application")
            }
            guard let child = snapshot.creationTokens[parameters["appCreationToken"] ?? ""] else {
                return Self.page(400, "invalid application creation token")
            }
            application = child
        case "APPAUTH", "CREATEACCOUNT", "CREATERECORD":
            guard let child = parameters["appid"], let known = snapshot.applications[child] else {
                return Self.page(400, "unknown application")
            }
            application = child
            home = known.instance ?? home
        default:
            return Self.page(400, "unknown target")
        }
        guard home == instance else {
            guard parameters["aib"]?.lowercased() == "true" else {
                return Self.page(400, "the account is in instance \(home), and the application does not allow bounce")
            }
            let query = URLComponents(url: request.message.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery
            return .redirect(root(of: request) + "/shell/\(home)/redirect.aspx?" + (query ?? ""))
        }
        state.withValue {
            $0.shellTasks[prompt] = .init(
                target: target, parameters: parameters, application: application, instance: instance)
        }
        let action = URL(string: root(of: request) + "/shell/\(instance)/redirect.aspx/decision?request=" + prompt)
        return SignInPrompt.page(
            action: action ?? shellURL(instance: instance),
            asking: "Sign in to HealthVault and allow the application (\(target))?")
    }

    /// The user's answer: the Shell's outcome, on the completion page or at the action URL.
    func decide(_ request: ReceivedRequest) -> HTTPResponseMessage {
        let root = root(of: request)
        return state.withValue { state in
            guard let id = request.query["request"], let task = state.shellTasks.removeValue(forKey: id),
                let decision = SignInPrompt.decision(in: request)
            else { return Self.page(400, "This page has expired.") }
            let granted = decision == .approve
            let chosen = task.instance
            if task.target == "CREATEAPPLICATION" {
                // The creation token is single-use: spent whatever the user decides.
                guard state.creationTokens.removeValue(forKey: task.parameters["appCreationToken"] ?? "") != nil else {
                    return Self.page(400, "invalid application creation token")
                }
                if granted { state.applications[task.application]?.instance = chosen }
            } else if granted {
                state.applications[task.application]?.revoked = false
            }
            let outcome = granted ? "AppAuthSuccess" : "AppAuthReject"
            var answer = FormFields()
            if task.target == "APPAUTH", granted, state.settings.appAuthReturnsOnlyTheTarget {
                answer.append("target", outcome)
            } else {
                answer.append("appid", task.application)
                answer.append("target", outcome)
                answer.append(state.settings.instanceIDKey, chosen)
            }
            if let action = state.settings.actionURL {
                return .redirect(action + (action.contains("?") ? "&" : "?") + answer.formEncoded)
            }
            return .redirect("\(root)/shell/\(chosen)/application/complete?" + answer.formEncoded)
        }
    }
}
