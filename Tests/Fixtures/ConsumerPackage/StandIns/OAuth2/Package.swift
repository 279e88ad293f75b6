// swift-tools-version:5.9
// Stands in for the widely used OAuth 2 library: its package, product and module are all `OAuth2`, and the SMART on
// FHIR client depends on it. Declares the top-level names an app reaches for, so the consumer app proves that this
// SDK's modules live beside them.
import PackageDescription

let package = Package(
    name: "OAuth2",
    products: [.library(name: "OAuth2", targets: ["OAuth2"])],
    targets: [.target(name: "OAuth2")]
)
