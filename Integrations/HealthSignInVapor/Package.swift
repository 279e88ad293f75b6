// swift-tools-version:6.0
import PackageDescription

/// The SDK on Vapor 4: a middleware that sends the SDK's log lines to the logger of the request in progress and answers
/// an SDK error with the status its recovery calls for.
let package = Package(
    name: "HealthSignInVapor",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "HealthSignInVapor", targets: ["HealthSignInVapor"])
    ],
    dependencies: [
        .package(name: "HealthSignInSDK", path: "../.."),
        .package(name: "HealthSignInLogging", path: "../HealthSignInLogging"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "HealthSignInVapor",
            dependencies: [
                .product(name: "HealthSignInHTTP", package: "HealthSignInSDK"),
                .product(name: "HealthSignInLogging", package: "HealthSignInLogging"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "HealthSignInVaporTests",
            dependencies: [
                "HealthSignInVapor",
                .product(name: "HealthSignInHTTP", package: "HealthSignInSDK"),
                .product(name: "HealthSignInVital", package: "HealthSignInSDK"),
                .product(name: "HealthSignInTesting", package: "HealthSignInSDK"),
                .product(name: "HealthSignInLogging", package: "HealthSignInLogging"),
                .product(name: "XCTVapor", package: "vapor"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
