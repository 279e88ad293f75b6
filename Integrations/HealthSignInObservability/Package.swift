// swift-tools-version:6.0
import PackageDescription

/// Spans (swift-distributed-tracing) and metrics (swift-metrics) for every request the SDK sends and every call to
/// its credential store, in whatever backends the app bootstraps.
let package = Package(
    name: "HealthSignInObservability",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "HealthSignInObservability", targets: ["HealthSignInObservability"])
    ],
    dependencies: [
        .package(name: "HealthSignInSDK", path: "../.."),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "HealthSignInObservability",
            dependencies: [
                .product(name: "HealthSignInHTTP", package: "HealthSignInSDK"),
                .product(name: "HealthSignInCredentials", package: "HealthSignInSDK"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Metrics", package: "swift-metrics"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "HealthSignInObservabilityTests",
            dependencies: [
                "HealthSignInObservability",
                .product(name: "HealthSignInVital", package: "HealthSignInSDK"),
                .product(name: "HealthSignInTesting", package: "HealthSignInSDK"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
