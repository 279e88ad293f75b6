// swift-tools-version:6.0
import PackageDescription

/// An example backend on Hummingbird 2: it mints Junction sign-in tokens for its app's signed-in users and runs a
/// SMART Backend Services job, on AsyncHTTPClient, swift-log and a PostgreSQL credential store.
let package = Package(
    name: "SignInBackend",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "SignInBackendServer", targets: ["SignInBackendServer"])
    ],
    dependencies: [
        .package(name: "HealthSignInSDK", path: "../../.."),
        .package(name: "HealthSignInAsyncHTTPClient", path: "../../HealthSignInAsyncHTTPClient"),
        .package(name: "HealthSignInLogging", path: "../../HealthSignInLogging"),
        .package(name: "HealthSignInPostgres", path: "../../HealthSignInPostgres"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
    ],
    targets: [
        .target(
            name: "SignInBackend",
            dependencies: [
                .product(name: "HealthSignInVital", package: "HealthSignInSDK"),
                .product(name: "HealthSignInSMART", package: "HealthSignInSDK"),
                .product(name: "HealthSignInAsyncHTTPClient", package: "HealthSignInAsyncHTTPClient"),
                .product(name: "HealthSignInLogging", package: "HealthSignInLogging"),
                .product(name: "HealthSignInPostgres", package: "HealthSignInPostgres"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
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
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
