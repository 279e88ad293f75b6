// swift-tools-version:6.0
import PackageDescription

/// An example Koppeltaal 2.0 module on Hummingbird 2: it serves its JWKS, receives HTI launches and signs the user in
/// with SHOF to show their task, and receives the rest-hook notifications of its Subscription.
let package = Package(
    name: "KoppeltaalModule",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "KoppeltaalModuleServer", targets: ["KoppeltaalModuleServer"])
    ],
    dependencies: [
        .package(name: "HealthSignInSDK", path: "../../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
    ],
    targets: [
        .target(
            name: "KoppeltaalModule",
            dependencies: [
                .product(name: "HealthSignInKoppeltaal2", package: "HealthSignInSDK"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .executableTarget(
            name: "KoppeltaalModuleServer", dependencies: ["KoppeltaalModule"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "KoppeltaalModuleTests",
            dependencies: [
                "KoppeltaalModule",
                .product(name: "HealthSignInTesting", package: "HealthSignInSDK"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
