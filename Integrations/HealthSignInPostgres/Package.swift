// swift-tools-version:6.0
import PackageDescription

/// A `CredentialStore` on PostgreSQL, which the instances of a backend share.
let package = Package(
    name: "HealthSignInPostgres",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "HealthSignInPostgres", targets: ["HealthSignInPostgres"])
    ],
    dependencies: [
        .package(name: "HealthSignInSDK", path: "../.."),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "HealthSignInPostgres",
            dependencies: [
                .product(name: "HealthSignInCredentials", package: "HealthSignInSDK"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // One instance of a backend in the fleet proofs: a process that calls a FHIR server through a SMART grant
        // kept in the shared store.
        .executableTarget(
            name: "HealthSignInFleetWorker",
            dependencies: [
                "HealthSignInPostgres",
                .product(name: "HealthSignInSMART", package: "HealthSignInSDK"),
                .product(name: "HealthSignInTesting", package: "HealthSignInSDK"),
            ],
            path: "Tests/FleetWorker",
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "HealthSignInPostgresTests",
            dependencies: [
                "HealthSignInPostgres",
                .product(name: "HealthSignInSMART", package: "HealthSignInSDK"),
                .product(name: "HealthSignInTesting", package: "HealthSignInSDK"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
