// swift-tools-version:6.0
import PackageDescription

/// An `HTTPTransport` over AsyncHTTPClient, for server apps that already run one (Vapor, Hummingbird).
let package = Package(
    name: "HealthSignInAsyncHTTPClient",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "HealthSignInAsyncHTTPClient", targets: ["HealthSignInAsyncHTTPClient"])
    ],
    dependencies: [
        .package(name: "HealthSignInSDK", path: "../.."),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
    ],
    targets: [
        .target(
            name: "HealthSignInAsyncHTTPClient",
            dependencies: [
                .product(name: "HealthSignInHTTP", package: "HealthSignInSDK"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        // The default transport against this one on one HTTPS server, run by `make bench`; not a product.
        .executableTarget(
            name: "HealthSignInTransportBench",
            dependencies: [
                "HealthSignInAsyncHTTPClient",
                .product(name: "HealthSignInHTTP", package: "HealthSignInSDK"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .testTarget(
            name: "HealthSignInAsyncHTTPClientTests",
            dependencies: [
                "HealthSignInAsyncHTTPClient",
                .product(name: "HealthSignInTesting", package: "HealthSignInSDK"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
