// swift-tools-version:6.0
// An app that uses NFCTagKit as any app would: a dependency by path, one product, one
// import, and a release build (`make release` builds and runs it; so does CI).
// Sources/Consumer is the README's "library in ten lines", byte for byte (scripts/release checks).
import PackageDescription

let package = Package(
    name: "Consumer",
    dependencies: [
        .package(name: "NFCTagKit", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "Consumer",
            dependencies: [.product(name: "NFCTagKit", package: "NFCTagKit")]
        ),
        // A web server that only verifies SUN URLs: the NTAG424Crypto product, nothing else.
        .executableTarget(
            name: "SUNCheck",
            dependencies: [.product(name: "NTAG424Crypto", package: "NFCTagKit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
