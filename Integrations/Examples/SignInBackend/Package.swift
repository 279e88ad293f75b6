// swift-tools-version:6.0
import PackageDescription

/// An example backend on Hummingbird 2: it mints Junction sign-in tokens for its app's signed-in users and runs a
/// SMART Backend Services job, on AsyncHTTPClient, swift-log, swift-configuration, tracing and metrics, and a
/// PostgreSQL credential store on the app's own pool, in one service group.
let package = Package(
    name: "SignInBackend",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "SignInBackendServer", targets: ["SignInBackendServer"])
    ],
    dependencies: [
        .package(name: "HealthSignInSDK", path: "../../.."),
        .package(name: "HealthSignInAsyncHTTPClient", path: "../../HealthSignInAsyncHTTPClient"),
        .package(name: "HealthSignInConfiguration", path: "../../HealthSignInConfiguration"),
        .package(name: "HealthSignInHummingbird", path: "../../HealthSignInHummingbird"),
        .package(name: "HealthSignInLogging", path: "../../HealthSignInLogging"),
        .package(name: "HealthSignInObservability", path: "../../HealthSignInObservability"),
        .package(name: "HealthSignInPostgres", path: "../../HealthSignInPostgres"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "SignInBackend",
            dependencies: [
                .product(name: "HealthSignInVital", package: "HealthSignInSDK"),
                .product(name: "HealthSignInSMART", package: "HealthSignInSDK"),
                .product(name: "HealthSignInAsyncHTTPClient", package: "HealthSignInAsyncHTTPClient"),
                .product(name: "HealthSignInConfiguration", package: "HealthSignInConfiguration"),
                .product(name: "HealthSignInHummingbird", package: "HealthSignInHummingbird"),
                .product(name: "HealthSignInLogging", package: "HealthSignInLogging"),
                .product(name: "HealthSignInObservability", package: "HealthSignInObservability"),
                .product(name: "HealthSignInPostgres", package: "HealthSignInPostgres"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .executableTarget(
            name: "SignInBackendServer", dependencies: ["SignInBackend"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "SignInBackendTests",
            dependencies: [
                "SignInBackend",
                .product(name: "HealthSignInTesting", package: "HealthSignInSDK"),
                .product(name: "HealthSignInConfiguration", package: "HealthSignInConfiguration"),
                .product(name: "HealthSignInObservability", package: "HealthSignInObservability"),
                .product(name: "HealthSignInPostgres", package: "HealthSignInPostgres"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
