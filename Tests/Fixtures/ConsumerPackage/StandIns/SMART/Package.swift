// swift-tools-version:5.9
// Stands in for the SMART on FHIR Swift client: package, product and module `SMART`, depending on `OAuth2` and
// re-exporting it and the FHIR models, whose top-level names it declares here.
import PackageDescription

let package = Package(
    name: "SMART",
    products: [.library(name: "SMART", targets: ["SMART"])],
    dependencies: [.package(path: "../OAuth2")],
    targets: [.target(name: "SMART", dependencies: [.product(name: "OAuth2", package: "OAuth2")])]
)
