// The unified logging declarations OSLogSink uses, as Apple publishes them in Swift (module os), so that it
// type-checks on Linux. Nothing here runs. Each symbol names its page under https://developer.apple.com/documentation/.
//
// On Apple platforms OSLogMessage's interpolation is checked by the compiler to be a literal with interpolated
// arguments; here it is an ordinary string interpolation with the same methods, so a call that misuses `privacy:` or
// passes a non-String argument still fails to compile.

/// os/logger
public struct Logger: Sendable {
    /// os/logger/init(subsystem:category:)
    public init(subsystem: String, category: String) {}
    /// os/logger/log(level:_:)
    public func log(level: OSLogType, _ message: OSLogMessage) {}
}

/// os/oslogtype
public struct OSLogType: Equatable, RawRepresentable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// os/oslogtype/default
    public static let `default` = OSLogType(rawValue: 0)
    /// os/oslogtype/info
    public static let info = OSLogType(rawValue: 1)
    /// os/oslogtype/debug
    public static let debug = OSLogType(rawValue: 2)
    /// os/oslogtype/error
    public static let error = OSLogType(rawValue: 16)
    /// os/oslogtype/fault
    public static let fault = OSLogType(rawValue: 17)
}

/// os/oslogmessage
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public init(stringInterpolation: OSLogInterpolation) {}
    public init(stringLiteral value: String) {}
}

/// os/osloginterpolation
public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {}
    public mutating func appendLiteral(_ literal: String) {}
    /// os/osloginterpolation/appendinterpolation(_:align:privacy:)-1ck3d (the String overload)
    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String, align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) {}
}

/// os/oslogprivacy
public struct OSLogPrivacy: Sendable {
    /// os/oslogprivacy/auto
    public static let auto = OSLogPrivacy()
    /// os/oslogprivacy/public
    public static let `public` = OSLogPrivacy()
    /// os/oslogprivacy/private
    public static let `private` = OSLogPrivacy()
    /// os/oslogprivacy/sensitive
    public static let sensitive = OSLogPrivacy()
}

/// os/oslogstringalignment
public struct OSLogStringAlignment: Sendable {
    /// os/oslogstringalignment/none
    public static let none = OSLogStringAlignment()
}
