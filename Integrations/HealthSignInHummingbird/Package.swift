// swift-tools-version:6.0
import PackageDescription

/// The SDK in a Hummingbird 2 server: a router middleware that gives SDK log lines the request's logger and turns SDK
/// errors into responses.
let package = Package(
    name: "HealthSignInHummingbird",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "HealthSignInHummingbird", targets: ["HealthSignInHummingbird"])
    ],
    dependencies: [
        .package(name: "HealthSignInSDK", path: "../.."),
        .package(name: "HealthSignInLogging", path: "../HealthSignInLogging"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .target(
            name: "HealthSignInHummingbird",
            dependencies: [
                .product(name: "HealthSignInHTTP", package: "HealthSignInSDK"),
                .product(name: "HealthSignInLogging", package: "HealthSignInLogging"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "HealthSignInHummingbirdTests",
            dependencies: [
                "HealthSignInHummingbird",
                .product(name: "HealthSignInVital", package: "HealthSignInSDK"),
                .product(name: "HealthSignInTesting", package: "HealthSignInSDK"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
