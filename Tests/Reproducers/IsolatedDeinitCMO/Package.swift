// swift-tools-version:6.0
// The smallest package that shows Swift 6.3.1's "circular reference" in a release build:
// a public actor with an `isolated deinit`, created in another module. See README.md.
import PackageDescription

let package = Package(
    name: "IsolatedDeinitCMO",
    targets: [
        .target(name: "Library"),
        .executableTarget(name: "Client", dependencies: ["Library"]),
    ],
    swiftLanguageModes: [.v6]
)
