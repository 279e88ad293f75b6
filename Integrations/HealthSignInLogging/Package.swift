// swift-tools-version:6.0
import PackageDescription

/// A `LogSink` that writes the SDK's log entries to swift-log.
let package = Package(
    name: "HealthSignInLogging",
    platforms: [.macOS(.v11), .iOS(.v14), .tvOS(.v14), .watchOS(.v7), .visionOS(.v1)],
    products: [
        .library(name: "HealthSignInLogging", targets: ["HealthSignInLogging"])
    ],
    dependencies: [
        .package(name: "HealthSignInSDK", path: "../.."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "HealthSignInLogging",
            dependencies: [
                .product(name: "HealthSignInCore", package: "HealthSignInSDK"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "HealthSignInLoggingTests",
            dependencies: [
                "HealthSignInLogging",
                .product(name: "HealthSignInVital", package: "HealthSignInSDK"),
                .product(name: "HealthSignInTesting", package: "HealthSignInSDK"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
