// swift-tools-version:5.9
// Stands in for Junction's iOS SDK, whose module `VitalCore` an app imports beside this SDK.
import PackageDescription

let package = Package(
    name: "VitalCore",
    products: [.library(name: "VitalCore", targets: ["VitalCore"])],
    targets: [.target(name: "VitalCore")]
)
