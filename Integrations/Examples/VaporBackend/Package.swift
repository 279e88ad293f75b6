// swift-tools-version:6.0
import PackageDescription

/// An example backend on Vapor 4: it mints Junction sign-in tokens for its app's signed-in users and runs a SMART
/// Backend Services job, on Vapor's AsyncHTTPClient and logger, configured through swift-configuration, traced and
/// measured, with the HealthSignInVapor middleware answering the SDK's errors.
let package = Package(
    name: "VaporBackend",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "VaporBackendServer", targets: ["VaporBackendServer"])
    ],
    dependencies: [
        .package(name: "HealthSignInSDK", path: "../../.."),
        .package(name: "HealthSignInAsyncHTTPClient", path: "../../HealthSignInAsyncHTTPClient"),
        .package(name: "HealthSignInConfiguration", path: "../../HealthSignInConfiguration"),
        .package(name: "HealthSignInLogging", path: "../../HealthSignInLogging"),
        .package(name: "HealthSignInObservability", path: "../../HealthSignInObservability"),
        .package(name: "HealthSignInVapor", path: "../../HealthSignInVapor"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "VaporBackend",
            dependencies: [
                .product(name: "HealthSignInVital", package: "HealthSignInSDK"),
                .product(name: "HealthSignInSMART", package: "HealthSignInSDK"),
                .product(name: "HealthSignInAsyncHTTPClient", package: "HealthSignInAsyncHTTPClient"),
                .product(name: "HealthSignInConfiguration", package: "HealthSignInConfiguration"),
                .product(name: "HealthSignInLogging", package: "HealthSignInLogging"),
                .product(name: "HealthSignInObservability", package: "HealthSignInObservability"),
                .product(name: "HealthSignInVapor", package: "HealthSignInVapor"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .executableTarget(
            name: "VaporBackendServer",
            dependencies: [
                "VaporBackend",
                .product(name: "Vapor", package: "vapor"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "VaporBackendTests",
            dependencies: [
                "VaporBackend",
                .product(name: "HealthSignInVital", package: "HealthSignInSDK"),
                .product(name: "HealthSignInSMART", package: "HealthSignInSDK"),
                .product(name: "HealthSignInTesting", package: "HealthSignInSDK"),
                .product(name: "HealthSignInConfiguration", package: "HealthSignInConfiguration"),
                .product(name: "HealthSignInObservability", package: "HealthSignInObservability"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
