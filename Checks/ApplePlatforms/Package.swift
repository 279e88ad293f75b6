// swift-tools-version:6.0
import PackageDescription

/// A check, never a dependency of the SDK: compiles the runtime's and the credential layer's Apple-only code on Linux. `CryptoKit` is
/// swift-crypto under CryptoKit's name (the same API); `Security`, `os` and `AuthenticationServices` declare the Apple
/// API the runtime uses, with where Apple documents each symbol. With those modules importable,
/// `canImport(CryptoKit)`, `canImport(Security)`, `canImport(os)` and `canImport(AuthenticationServices)` hold, so the
/// runtime's Apple branches are the ones compiled.
let package = Package(
    name: "HealthSignInApplePlatformsCheck",
    dependencies: [.package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3")],
    targets: [
        .target(name: "CryptoKit", dependencies: [.product(name: "Crypto", package: "swift-crypto")]),
        .target(name: "Security"),
        .target(name: "os"),
        .target(name: "AuthenticationServices"),
        .systemLibrary(name: "HealthSignInLibcrypto", pkgConfig: "openssl"),
        .target(name: "HealthSignInSchemaSemantics"),
        .target(
            name: "HealthSignInHTTP", dependencies: ["Security"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .target(
            name: "HealthSignInCore",
            dependencies: ["HealthSignInHTTP", "HealthSignInSchemaSemantics", "CryptoKit", "Security", "os", "AuthenticationServices", "HealthSignInLibcrypto"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
        .target(
            name: "HealthSignInCredentials", dependencies: ["HealthSignInCore", "Security"],
            swiftSettings: [.enableUpcomingFeature("ExistentialAny")]
        ),
    ]
)
