/// The SDK's entry point.
public final class VitalClient: @unchecked Sendable {
    public static let shared = VitalClient()
    public private(set) var environment: Environment?

    /// Configures the client, as an app does at launch.
    public func configure(environment: Environment) { self.environment = environment }
}

/// Where the SDK talks to.
public enum Environment: Equatable {
    case sandbox(Region)
    case production(Region)

    public enum Region: String { case eu, us }
}

/// A provider the user connected.
public struct Provider: Equatable {
    public let slug: String
    public init(slug: String) { self.slug = slug }
}
