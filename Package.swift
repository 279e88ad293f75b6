// swift-tools-version:6.0
import PackageDescription

/// Settings shared by every target: Swift 6 mode (strict concurrency) plus explicit `any` for existentials.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "HealthSignInSDK",
    // os.Logger (OSLogSink) is the newest Apple API the code uses; CryptoKit, the Keychain calls and Swift
    // concurrency's back-deployment need less. Linux needs only Swift 6.
    platforms: [
        .macOS(.v11), .iOS(.v14), .tvOS(.v14), .watchOS(.v7), .visionOS(.v1),
    ],
    products: [
        .library(name: "SDKRuntime", targets: ["SDKRuntime"]),
        // Test doubles (a recording transport, a manual clock, seeded randomness) for an app's tests, kept out of
        // the app itself.
        .library(name: "SDKRuntimeTesting", targets: ["SDKRuntimeTesting"]),
        .library(name: "OAuth2", targets: ["OAuth2"]),
        .library(name: "HealthVault", targets: ["HealthVault"]),
        .library(name: "Koppeltaal", targets: ["Koppeltaal"]),
        .library(name: "Vital", targets: ["Vital"]),
        .library(name: "SMART", targets: ["SMART"]),
        .executable(name: "sdkgen", targets: ["sdkgen"]),
        .plugin(name: "GenerateSDK", targets: ["GenerateSDK"]),
        .plugin(name: "SDKGenBuildPlugin", targets: ["SDKGenBuildPlugin"]),
    ],
    targets: [
        // Runtime shared by all generated families.
        .systemLibrary(
            name: "COpenSSL",
            path: "Sources/COpenSSL",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
        ),
        // What JSON Schema's keywords mean, shared by the runtime (decoding, validate()) and the generator.
        .target(name: "SchemaSemantics", swiftSettings: strict),
        .target(
            name: "SDKRuntime",
            dependencies: [
                "SchemaSemantics",
                .target(name: "COpenSSL", condition: .when(platforms: [.linux, .android, .windows, .openbsd])),
            ],
            swiftSettings: strict
        ),

        .target(name: "SDKRuntimeTesting", dependencies: ["SDKRuntime"], swiftSettings: strict),

        // The OAuth 2.0 and OpenID Connect layer: the OAuth2 schemas' generated code, and what every OAuth family
        // does the same way (grants, refresh, discovery, authorization requests, revocation, bearer calls).
        .target(name: "OAuth2", dependencies: ["SDKRuntime"], swiftSettings: strict),

        // Protocol families: generated code under Generated/ plus hand-written flows.
        .target(name: "HealthVault", dependencies: ["SDKRuntime"], swiftSettings: strict),
        .target(name: "Koppeltaal", dependencies: ["OAuth2", "SDKRuntime"], swiftSettings: strict),
        .target(name: "Vital", dependencies: ["OAuth2", "SDKRuntime"], swiftSettings: strict),
        .target(name: "SMART", dependencies: ["OAuth2", "SDKRuntime"], swiftSettings: strict),

        // The generator: a library of pure stages and a thin command-line shell.
        .target(name: "SDKGenerator", dependencies: ["SchemaSemantics"], path: "Generator/Core", swiftSettings: strict),
        .executableTarget(name: "sdkgen", dependencies: ["SDKGenerator"], path: "Generator/CLI", swiftSettings: strict),
        .plugin(
            name: "GenerateSDK",
            capability: .command(
                intent: .custom(
                    verb: "generate-sdk",
                    description: "Generate Swift clients, models and errors from protocol schemas with sdkgen"),
                permissions: [
                    .writeToPackageDirectory(reason: "sdkgen writes the generated Swift into the package's sources")
                ]
            ),
            dependencies: ["sdkgen"]
        ),

        // Generates a target's clients at build time from its Schemas directory (and sdkgen-config.json).
        .plugin(name: "SDKGenBuildPlugin", capability: .buildTool(), dependencies: ["sdkgen"]),

        // The three journeys against real or emulated servers (make demo).
        .executableTarget(
            name: "sdk-demo", dependencies: ["HealthVault", "Koppeltaal", "Vital", "SMART", "OAuth2", "SDKRuntime"],
            swiftSettings: strict),

        // A process of the shared-store tests and benchmark: calls through a file store another process also uses.
        .executableTarget(
            name: "lifecycle-worker", dependencies: ["Koppeltaal", "Vital", "OAuth2", "SDKRuntime"],
            path: "Tests/LifecycleWorker",
            swiftSettings: strict
        ),

        // Benchmarks of the budgets in DESIGN.md (make bench), and the synthetic schemas they and the tests share.
        .target(name: "SyntheticSchemas", path: "Benchmarks/SyntheticSchemas", swiftSettings: strict),
        .executableTarget(
            name: "sdk-bench",
            dependencies: [
                "HealthVault", "Koppeltaal", "Vital", "SMART", "OAuth2", "SDKRuntime", "SDKRuntimeTesting",
                "SyntheticSchemas",
            ],
            path: "Benchmarks/Suite",
            swiftSettings: strict
        ),

        // Fuzzing (make fuzz): the inputs each parser of outside data is given, and the libFuzzer entry points.
        .target(
            name: "FuzzTargets",
            dependencies: ["HealthVault", "Koppeltaal", "Vital", "SMART", "OAuth2", "SDKRuntime", "SDKGenerator"],
            path: "Fuzz/Targets", swiftSettings: strict
        ),
        .target(name: "FuzzDriver", path: "Fuzz/Driver"),
        .executableTarget(
            name: "sdk-fuzz", dependencies: ["FuzzTargets", "FuzzDriver"], path: "Fuzz/Runner", swiftSettings: strict),

        // Tests, with shared fixtures and assertions.
        .target(
            name: "TestSupport", dependencies: ["SDKRuntime", "SDKRuntimeTesting"], path: "Tests/TestSupport",
            swiftSettings: strict),
        .testTarget(name: "SchemaSemanticsTests", dependencies: ["SchemaSemantics"], swiftSettings: strict),
        .testTarget(name: "SDKRuntimeTests", dependencies: ["SDKRuntime", "TestSupport"], swiftSettings: strict),
        .testTarget(name: "OAuth2Tests", dependencies: ["OAuth2", "SDKRuntime", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "SDKGeneratorTests",
            dependencies: ["SDKGenerator", "TestSupport", "FuzzTargets", "SyntheticSchemas"],
            exclude: ["InvalidSchemas", "Corpus"], swiftSettings: strict),
        .testTarget(
            name: "HealthVaultTests", dependencies: ["HealthVault", "SDKRuntime", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "KoppeltaalTests", dependencies: ["Koppeltaal", "OAuth2", "SDKRuntime", "TestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "VitalTests", dependencies: ["Vital", "OAuth2", "SDKRuntime", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "SMARTTests", dependencies: ["SMART", "OAuth2", "SDKRuntime", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "DocumentationTests",
            dependencies: ["HealthVault", "Koppeltaal", "Vital", "SMART", "OAuth2", "SDKRuntime", "TestSupport"],
            swiftSettings: strict),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzTargets", "TestSupport"], swiftSettings: strict),
        .testTarget(
            name: "IntegrationTests",
            dependencies: ["HealthVault", "Koppeltaal", "Vital", "SMART", "OAuth2", "SDKRuntime", "TestSupport"],
            swiftSettings: strict
        ),
    ]
)
