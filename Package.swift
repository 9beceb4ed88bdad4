// swift-tools-version:6.0
// NFCTagKit — NFC readers and tags on Linux, through libnfc.
//
// Targets follow the rooms of the architecture note: pure-Swift rooms (NDEF, NFCChips)
// at the bottom, system-library wrappers (CLibNFC) beside them, tools on top.
import PackageDescription

let package = Package(
    name: "NFCTagKit",
    products: [
        .library(name: "NDEF", targets: ["NDEF"]),
        .library(name: "NFCChips", targets: ["NFCChips"]),
        .library(name: "NFCEmulator", targets: ["NFCEmulator"]),
        .library(name: "NFCTagKit", targets: ["NFCTagKit"]),
        .executable(name: "nfctag", targets: ["nfctag"]),
        .executable(name: "nfctag-bench", targets: ["nfctag-bench"]),
    ],
    targets: [
        // libnfc, as Debian's libnfc-dev ships it.
        .systemLibrary(
            name: "CLibNFC",
            pkgConfig: "libnfc",
            providers: [.apt(["libnfc-dev"])]
        ),

        // libusb-1.0, for reader hot-plug.
        .systemLibrary(
            name: "CLibUSB",
            pkgConfig: "libusb-1.0",
            providers: [.apt(["libusb-1.0-0-dev"])]
        ),

        // OpenSSL libcrypto, for originality signatures and Ultralight C.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),

        // NDEF messages and records: pure Swift, Foundation only.
        .target(name: "NDEF"),

        // The datasheet tables as Swift values (generated from datasheets/ by nfcchips-gen).
        .target(name: "NFCChips", exclude: ["Generated/README.md"]),

        // A PN532 on a pseudo-terminal with tag models built from the NFCChips tables.
        // Only the files under Sources/NFCEmulator/Crypto import CLibCrypto (test signing key, UL-C 3DES).
        .target(name: "NFCEmulator", dependencies: ["NFCChips", "CLibCrypto"]),

        // Tag protocols over a TagTransport (Type 2, NTAG21x, Ultralight, Classic, Type 4).
        .target(name: "NFCTags", dependencies: ["NDEF", "NFCChips", "CLibCrypto"]),

        // The public face: the NFCDevice actor, discovery, reconnection, sessions.
        .target(name: "NFCTagKit", dependencies: ["NFCTags", "NDEF", "NFCChips", "CLibNFC", "CLibUSB"]),

        // Regenerates Sources/NFCChips/Generated from datasheets/ (`make tables`).
        .executableTarget(name: "nfcchips-gen", dependencies: ["NFCChips"]),

        // The command-line tool.
        .executableTarget(name: "nfctag", dependencies: ["NFCTagKit", "NDEF", "NFCChips", "NFCEmulator"]),

        // Operations on the emulated reader next to their physical floor; the soak run (`make bench`).
        .executableTarget(name: "nfctag-bench", dependencies: ["NFCTagKit", "NDEF", "NFCChips", "NFCEmulator"]),

        // What several test targets share (the seeded PRNG of the property tests).
        .target(name: "TestSupport", path: "Tests/TestSupport"),

        .testTarget(name: "CLibNFCTests", dependencies: ["CLibNFC"]),
        .testTarget(name: "NDEFTests", dependencies: ["NDEF", "TestSupport"]),
        .testTarget(name: "NFCChipsTests", dependencies: ["NFCChips", "NDEF", "TestSupport"]),
        .testTarget(name: "NFCEmulatorTests", dependencies: ["NFCEmulator", "NFCChips", "CLibNFC", "CLibCrypto", "TestSupport"]),
        .testTarget(name: "NFCTagsTests", dependencies: ["NFCTags", "NFCChips", "NDEF", "NFCEmulator", "TestSupport"]),
        .testTarget(name: "NFCTagKitTests", dependencies: ["NFCTagKit", "NFCEmulator", "NFCChips", "TestSupport"]),
        .testTarget(name: "NFCTagCLITests", dependencies: ["nfctag", "NFCEmulator", "NFCChips"]),

        // Examples: small programs, one task each (Examples/<Name>/README.md says how to run it).
        .executableTarget(name: "ReaderLifecycle", dependencies: ["NFCTagKit"], path: "Examples/ReaderLifecycle", exclude: ["README.md"]),
        .executableTarget(name: "WriteAndLockURL", dependencies: ["NFCTagKit", "NDEF"], path: "Examples/WriteAndLockURL", exclude: ["README.md"]),
        .executableTarget(name: "PasswordProtectNTAG", dependencies: ["NFCTagKit", "NFCChips"], path: "Examples/PasswordProtectNTAG", exclude: ["README.md"]),
        .executableTarget(name: "CountersAndSignature", dependencies: ["NFCTagKit"], path: "Examples/CountersAndSignature", exclude: ["README.md"]),
        .executableTarget(name: "ClassicNDEF", dependencies: ["NFCTagKit", "NDEF"], path: "Examples/ClassicNDEF", exclude: ["README.md"]),
        // Runs the built examples against an in-process emulated PN532.
        .testTarget(name: "ExamplesTests", dependencies: ["ReaderLifecycle", "WriteAndLockURL", "PasswordProtectNTAG",
                                                          "CountersAndSignature", "ClassicNDEF", "NFCEmulator", "NFCChips"]),
        // Hardware in the loop: a real reader when NFC_TEST_DEVICE names one, the emulated reader otherwise.
        .testTarget(name: "HardwareTests", dependencies: ["NFCTagKit", "NFCTags", "NFCEmulator", "NFCChips", "NDEF"]),
        .testTarget(name: "NFCTagBenchTests", dependencies: ["nfctag-bench", "NFCEmulator", "NFCChips", "NDEF"]),
    ],
    swiftLanguageModes: [.v6]
)
