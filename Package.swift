// swift-tools-version:6.0
import PackageDescription

/// Settings shared by every target: Swift 6 mode (strict concurrency) plus explicit `any` for existentials.
let strict: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// Every product, module and target is named `HealthSignIn…`, so that none collides with a module of another package
/// in an app's graph (SwiftPM requires target and product names to be unique across it).
let package = Package(
    name: "HealthSignInSDK",
    // os.Logger (OSLogSink) is the newest Apple API the code uses; CryptoKit, the Keychain calls and Swift
    // concurrency's back-deployment need less. Linux needs only Swift 6.
    platforms: [
        .macOS(.v11), .iOS(.v14), .tvOS(.v14), .watchOS(.v7), .visionOS(.v1),
    ],
    products: [
        .library(name: "HealthSignInCore", targets: ["HealthSignInCore"]),
        // Credential stores (memory, files, the Keychain, sealed) and the lifecycle every flow keeps its credential in.
        // It re-exports the runtime, and every family product re-exports it.
        .library(name: "HealthSignInCredentials", targets: ["HealthSignInCredentials"]),
        // The HTTP layer alone (messages, transports, middlewares), for code that only sends requests, such as a
        // transport for another HTTP client. The runtime re-exports it.
        .library(name: "HealthSignInHTTP", targets: ["HealthSignInHTTP"]),
        // Test doubles (a recording transport, a manual clock, seeded randomness) and in-process servers of the four
        // families for an app's tests, kept out of the app itself. The servers speak the wire, so the product needs
        // only the runtime: an app's tests import the family products they test beside it.
        .library(name: "HealthSignInTesting", targets: ["HealthSignInTesting"]),
        .library(name: "HealthSignInOAuth", targets: ["HealthSignInOAuth"]),
        .library(name: "HealthSignInHealthVault", targets: ["HealthSignInHealthVault"]),
        .library(name: "HealthSignInKoppeltaal", targets: ["HealthSignInKoppeltaal"]),
        .library(name: "HealthSignInVital", targets: ["HealthSignInVital"]),
        .library(name: "HealthSignInSMART", targets: ["HealthSignInSMART"]),
        .library(name: "HealthSignInKoppeltaal2", targets: ["HealthSignInKoppeltaal2"]),
        // Every FHIR R4 resource and data type, generated from HL7's definitions (Schemas/FHIR), and a client of
        // FHIR's REST interactions over them.
        .library(name: "HealthSignInFHIR", targets: ["HealthSignInFHIR"]),
        .executable(name: "HealthSignInSDKGen", targets: ["HealthSignInSDKGen"]),
        .plugin(name: "HealthSignInGenerateSDK", targets: ["HealthSignInGenerateSDK"]),
        .plugin(name: "HealthSignInBuildPlugin", targets: ["HealthSignInBuildPlugin"]),
    ],
    targets: [
        // Runtime shared by all generated families.
        .systemLibrary(
            name: "HealthSignInLibcrypto",
            path: "Sources/HealthSignInLibcrypto",
            pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"]), .brew(["openssl"])]
        ),
        // libcurl, under the default transport on Linux.
        .systemLibrary(
            name: "HealthSignInLibcurl",
            path: "Sources/HealthSignInLibcurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // What JSON Schema's keywords mean, shared by the runtime (decoding, validate()) and the generator.
        .target(name: "HealthSignInSchemaSemantics", swiftSettings: strict),
        // HTTP: messages, the transports (libcurl on Linux, URLSession), middlewares, and the errors they throw.
        .target(
            name: "HealthSignInHTTP",
            dependencies: [.target(name: "HealthSignInLibcurl", condition: .when(platforms: [.linux]))],
            swiftSettings: strict
        ),
        .target(
            name: "HealthSignInCore",
            dependencies: [
                "HealthSignInHTTP", "HealthSignInSchemaSemantics",
                .target(
                    name: "HealthSignInLibcrypto", condition: .when(platforms: [.linux, .android, .windows, .openbsd])),
            ],
            swiftSettings: strict
        ),

        // The credential layer: stores, their lock, change feed and sealing, and the lifecycle (CredentialSession).
        .target(name: "HealthSignInCredentials", dependencies: ["HealthSignInCore"], swiftSettings: strict),

        .target(name: "HealthSignInTesting", dependencies: ["HealthSignInCore"], swiftSettings: strict),

        // The OAuth 2.0 and OpenID Connect layer: the OAuth2 schemas' generated code, and what every OAuth family
        // does the same way (grants, refresh, discovery, authorization requests, revocation, bearer calls).
        .target(name: "HealthSignInOAuth", dependencies: ["HealthSignInCredentials"], swiftSettings: strict),

        // Protocol families: generated code under Generated/ plus hand-written flows.
        .target(name: "HealthSignInHealthVault", dependencies: ["HealthSignInCredentials"], swiftSettings: strict),
        .target(
            name: "HealthSignInKoppeltaal", dependencies: ["HealthSignInOAuth", "HealthSignInCredentials"],
            swiftSettings: strict),
        .target(
            name: "HealthSignInVital", dependencies: ["HealthSignInOAuth", "HealthSignInCredentials"],
            swiftSettings: strict
        ),
        .target(
            name: "HealthSignInSMART", dependencies: ["HealthSignInOAuth", "HealthSignInCredentials"],
            swiftSettings: strict
        ),
        .target(
            name: "HealthSignInKoppeltaal2", dependencies: ["HealthSignInOAuth", "HealthSignInCredentials"],
            swiftSettings: strict),

        .target(name: "HealthSignInFHIR", dependencies: ["HealthSignInCore"], swiftSettings: strict),

        // The generator: a library of pure stages and a thin command-line shell (sdkgen).
        .target(
            name: "HealthSignInGenerator", dependencies: ["HealthSignInSchemaSemantics"], path: "Generator/Core",
            swiftSettings: strict),
        .executableTarget(
            name: "HealthSignInSDKGen", dependencies: ["HealthSignInGenerator"], path: "Generator/CLI",
            swiftSettings: strict),
        .plugin(
            name: "HealthSignInGenerateSDK",
            capability: .command(
                intent: .custom(
                    verb: "generate-sdk",
                    description: "Generate Swift clients, models and errors from protocol schemas with sdkgen"),
                permissions: [
                    .writeToPackageDirectory(reason: "sdkgen writes the generated Swift into the package's sources")
                ]
            ),
            dependencies: ["HealthSignInSDKGen"]
        ),

        // Generates a target's clients at build time from its Schemas directory (and sdkgen-config.json).
        .plugin(name: "HealthSignInBuildPlugin", capability: .buildTool(), dependencies: ["HealthSignInSDKGen"]),

        // The four journeys against real or emulated servers (make demo).
        .executableTarget(
            name: "HealthSignInDemo",
            dependencies: [
                "HealthSignInHealthVault", "HealthSignInKoppeltaal", "HealthSignInVital", "HealthSignInSMART",
                "HealthSignInKoppeltaal2", "HealthSignInFHIR",
                "HealthSignInOAuth", "HealthSignInCore", "HealthSignInCredentials", "HealthSignInTesting",
            ],
            swiftSettings: strict),

        // A process of the shared-store tests and benchmark: calls through a file store another process also uses.
        .executableTarget(
            name: "HealthSignInLifecycleWorker",
            dependencies: [
                "HealthSignInKoppeltaal", "HealthSignInVital", "HealthSignInOAuth", "HealthSignInCore",
                "HealthSignInCredentials",
            ],
            path: "Tests/LifecycleWorker",
            swiftSettings: strict
        ),

        // Benchmarks of the budgets (make bench), and the synthetic schemas they and the tests share.
        .target(name: "HealthSignInSyntheticSchemas", path: "Benchmarks/SyntheticSchemas", swiftSettings: strict),
        .executableTarget(
            name: "HealthSignInBench",
            dependencies: [
                "HealthSignInHealthVault", "HealthSignInKoppeltaal", "HealthSignInKoppeltaal2", "HealthSignInVital",
                "HealthSignInSMART", "HealthSignInOAuth", "HealthSignInCore", "HealthSignInCredentials",
                "HealthSignInTesting", "HealthSignInSyntheticSchemas", "HealthSignInFHIR",
            ],
            path: "Benchmarks/Suite",
            swiftSettings: strict
        ),

        // Fuzzing (make fuzz): the inputs each parser of outside data is given, and the libFuzzer entry points.
        .target(
            name: "HealthSignInFuzzTargets",
            dependencies: [
                "HealthSignInHealthVault", "HealthSignInKoppeltaal", "HealthSignInVital", "HealthSignInSMART",
                "HealthSignInOAuth", "HealthSignInCore", "HealthSignInCredentials", "HealthSignInGenerator",
            ],
            path: "Fuzz/Targets", swiftSettings: strict
        ),
        .target(name: "HealthSignInFuzzDriver", path: "Fuzz/Driver"),
        .executableTarget(
            name: "HealthSignInFuzz", dependencies: ["HealthSignInFuzzTargets", "HealthSignInFuzzDriver"],
            path: "Fuzz/Runner", swiftSettings: strict),

        // Tests, with shared fixtures and assertions.
        .target(
            name: "HealthSignInTestSupport",
            dependencies: ["HealthSignInCore", "HealthSignInCredentials", "HealthSignInTesting"],
            path: "Tests/HealthSignInTestSupport", swiftSettings: strict),
        .testTarget(
            name: "HealthSignInSchemaSemanticsTests", dependencies: ["HealthSignInSchemaSemantics"],
            swiftSettings: strict),
        .testTarget(
            name: "HealthSignInHTTPTests",
            dependencies: ["HealthSignInHTTP", "HealthSignInTesting", "HealthSignInTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "HealthSignInCoreTests",
            dependencies: [
                "HealthSignInCore", "HealthSignInCredentials", "HealthSignInTesting", "HealthSignInTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HealthSignInCredentialsTests",
            dependencies: ["HealthSignInCredentials", "HealthSignInTesting", "HealthSignInTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "HealthSignInOAuthTests",
            dependencies: [
                "HealthSignInOAuth", "HealthSignInCore", "HealthSignInCredentials", "HealthSignInTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HealthSignInGeneratorTests",
            dependencies: [
                "HealthSignInGenerator", "HealthSignInTestSupport", "HealthSignInFuzzTargets",
                "HealthSignInSyntheticSchemas",
            ],
            exclude: ["InvalidSchemas", "Corpus"], swiftSettings: strict),
        .testTarget(
            name: "HealthSignInHealthVaultTests",
            dependencies: [
                "HealthSignInHealthVault", "HealthSignInCore", "HealthSignInCredentials", "HealthSignInTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HealthSignInKoppeltaalTests",
            dependencies: [
                "HealthSignInKoppeltaal", "HealthSignInOAuth", "HealthSignInCore", "HealthSignInCredentials",
                "HealthSignInTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HealthSignInVitalTests",
            dependencies: [
                "HealthSignInVital", "HealthSignInOAuth", "HealthSignInCore", "HealthSignInCredentials",
                "HealthSignInTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HealthSignInSMARTTests",
            dependencies: [
                "HealthSignInSMART", "HealthSignInOAuth", "HealthSignInCore", "HealthSignInCredentials",
                "HealthSignInTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HealthSignInKoppeltaal2Tests",
            dependencies: [
                "HealthSignInKoppeltaal2", "HealthSignInOAuth", "HealthSignInCore", "HealthSignInCredentials",
                "HealthSignInTesting",
                "HealthSignInTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HealthSignInFHIRTests",
            dependencies: ["HealthSignInFHIR", "HealthSignInCore", "HealthSignInTesting", "HealthSignInTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "HealthSignInDocumentationTests",
            dependencies: [
                "HealthSignInHealthVault", "HealthSignInKoppeltaal", "HealthSignInVital", "HealthSignInSMART",
                "HealthSignInKoppeltaal2", "HealthSignInFHIR",
                "HealthSignInOAuth", "HealthSignInCore", "HealthSignInCredentials", "HealthSignInTesting",
                "HealthSignInTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "HealthSignInFuzzRegressionTests",
            dependencies: ["HealthSignInFuzzTargets", "HealthSignInTestSupport"], swiftSettings: strict),
        .testTarget(
            name: "HealthSignInIntegrationTests",
            dependencies: [
                "HealthSignInHealthVault", "HealthSignInKoppeltaal", "HealthSignInVital", "HealthSignInSMART",
                "HealthSignInKoppeltaal2", "HealthSignInFHIR",
                "HealthSignInOAuth", "HealthSignInCore", "HealthSignInCredentials", "HealthSignInTesting",
                "HealthSignInTestSupport",
            ],
            swiftSettings: strict
        ),
    ]
)
