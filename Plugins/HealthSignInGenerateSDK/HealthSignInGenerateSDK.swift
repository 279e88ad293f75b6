import Foundation
import PackagePlugin

/// `swift package generate-sdk`: runs `sdkgen` on a package's schemas. Arguments are `sdkgen`'s (see
/// `sdkgen --help`); relative paths are resolved against the package, whose `Schemas` and `Sources` are the defaults.
/// SwiftPM asks for permission to write to the package even with `--check`, which changes nothing.
///
/// ```sh
/// swift package --allow-writing-to-package-directory generate-sdk --schemas MySchemas --output Sources
/// swift package --allow-writing-to-package-directory generate-sdk --schemas MySchemas --output Sources --check
/// ```
@main
struct HealthSignInGenerateSDK: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let sdkgen = try context.tool(named: "HealthSignInSDKGen")
        let process = Process()
        process.executableURL = sdkgen.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            Diagnostics.error("sdkgen exited with status \(process.terminationStatus)")
            throw GenerateSDKFailure(status: process.terminationStatus)
        }
    }
}

/// `sdkgen` failed; its own messages say why.
struct GenerateSDKFailure: Error, CustomStringConvertible {
    let status: Int32
    var description: String { "sdkgen exited with status \(status)" }
}
