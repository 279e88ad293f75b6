/// What a web view showing a Shell page should do with a URL, as
/// ``HealthVaultConnection/shellNavigation(to:)`` decides it.
public enum ShellNavigation: Sendable {
    /// Load the page: the user is still in Shell.
    case `continue`
    /// The Shell task completed and the connection has taken its result: close the web view.
    case completed(ShellCompletion)
    /// The Shell task failed (declined, a completion from an untrusted host, an insecure page): close the web view.
    case failed(any Error)

    /// Whether the web view should load the URL.
    public var allowsLoading: Bool {
        if case .continue = self { return true }
        return false
    }

    /// How the Shell task ended, once it has.
    public var outcome: Result<ShellCompletion, any Error>? {
        switch self {
        case .continue: return nil
        case .completed(let completion): return .success(completion)
        case .failed(let error): return .failure(error)
        }
    }
}
