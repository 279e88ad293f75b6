// swift-tools-version:6.0
import PackageDescription

/// An example backend on Vapor 4: it mints Junction sign-in tokens for its app's signed-in users and runs a SMART
/// Backend Services job, on Vapor's AsyncHTTPClient and logger, with the HealthSignInVapor middleware answering the
/// SDK's errors.
let package = Package(
    name: "VaporBackend",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "VaporBackendServer", targets: ["VaporBackendServer"])
    ],
    dependencies: [
        .package(name: "HealthSignInSDK", path: "../../.."),
        .package(name: "HealthSignInAsyncHTTPClient", path: "../../HealthSignInAsyncHTTPClient"),
        .package(name: "HealthSignInLogging", path: "../../HealthSignInLogging"),
        .package(name: "HealthSignInVapor", path: "../../HealthSignInVapor"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        .target(
            name: "VaporBackend",
            dependencies: [
                .product(name: "HealthSignInVital", package: "HealthSignInSDK"),
                .product(name: "HealthSignInSMART", package: "HealthSignInSDK"),
                .product(name: "HealthSignInAsyncHTTPClient", package: "HealthSignInAsyncHTTPClient"),
                .product(name: "HealthSignInLogging", package: "HealthSignInLogging"),
                .product(name: "HealthSignInVapor", package: "HealthSignInVapor"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
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
                .product(name: "Vapor", package: "vapor"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
