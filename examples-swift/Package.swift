// swift-tools-version:6.0
import PackageDescription

// A Swift host of BlinkEngage, as an app's own package would be: the SDK is a dependency (here by path; a URL
// and a version work the same), and the program imports the module BlinkEngage.
let package = Package(
    name: "BlinkEngageSwiftExample",
    dependencies: [.package(name: "BlinkEngage", path: "..")],
    targets: [
        .executableTarget(name: "offers", dependencies: [.product(name: "BlinkEngage", package: "BlinkEngage")]),
    ]
)
