// swift-tools-version:6.0
import PackageDescription

/// The server entry points' configurations read with swift-configuration: from environment variables, files or any
/// provider the app chooses.
let package = Package(
    name: "HealthSignInConfiguration",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HealthSignInConfiguration", targets: ["HealthSignInConfiguration"])
    ],
    dependencies: [
        .package(name: "HealthSignInSDK", path: "../.."),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
    ],
    targets: [
        .target(
            name: "HealthSignInConfiguration",
            dependencies: [
                .product(name: "HealthSignInSMART", package: "HealthSignInSDK"),
                .product(name: "HealthSignInVital", package: "HealthSignInSDK"),
                .product(name: "HealthSignInKoppeltaal2", package: "HealthSignInSDK"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "HealthSignInConfigurationTests",
            dependencies: [
                "HealthSignInConfiguration",
                .product(name: "HealthSignInTesting", package: "HealthSignInSDK"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
