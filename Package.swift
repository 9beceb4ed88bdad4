// swift-tools-version:6.0
// NFCTagKit — NFC readers and tags on Linux, through libnfc.
//
// Targets follow the rooms of the architecture note: pure-Swift rooms (NDEF, NFCChips)
// at the bottom, system-library wrappers (CLibNFC) beside them, tools on top.
import PackageDescription

let package = Package(
    name: "NFCTagKit",
    products: [
        // What an app depends on: `import NFCTagKit` brings NDEF, the chip tables and the
        // tag-level types with it (Sources/NFCTagKit/Exports.swift).
        .library(name: "NFCTagKit", targets: ["NFCTagKit"]),
        // The NDEF codec alone (pure Swift, no libnfc), for programs that never touch a reader.
        .library(name: "NDEF", targets: ["NDEF"]),
        // NTAG 424 DNA cryptography alone (libcrypto only, no libnfc or libusb): AES and CMAC, EV2
        // secure messaging, SDM session keys and the SUN verifier, for a web server that checks
        // tapped URLs without a reader.
        .library(name: "NTAG424Crypto", targets: ["NTAG424Crypto"]),
        // The emulated PN532 and tags, for an app's own tests without hardware.
        .library(name: "NFCEmulator", targets: ["NFCEmulator"]),
        .executable(name: "nfctag", targets: ["nfctag"]),
        .executable(name: "nfctag-bench", targets: ["nfctag-bench"]),
        // The USB stand-in for libusb-0.1, loaded with LD_PRELOAD into a process that should
        // see the emulator's USB readers (tests and `nfctag emulate --reader acr122u|pn533`).
        .library(name: "nfctag-usb-emulation", type: .dynamic, targets: ["CUSBEmulation"]),
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

        // OpenSSL libcrypto, for originality signatures, Ultralight C and NTAG 424 DNA.
        .systemLibrary(
            name: "CLibCrypto",
            pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]
        ),

        // The 14 libusb-0.1 functions libnfc calls, carried over a Unix socket to an emulated
        // USB reader (C, libc only; no logic of a reader lives here).
        //
        // SwiftPM links every product with swiftc, which adds the Swift runtime's start-up
        // object (it calls into libswiftCore) and -lswiftCore. Without the start-up object
        // (-nostartfiles) and with the standard library linked statically (-static-stdlib:
        // nothing of it is pulled in, since nothing here uses it), the stand-in needs no Swift
        // runtime; swiftc still names libstdc++ and libm, which SwiftPM gives no way to drop
        // (--as-needed would have to come before them). scripts/sanitize builds the libc-only
        // copy with cc. unsafeFlags are allowed here: no product an app depends on holds this target.
        .target(name: "CUSBEmulation", linkerSettings: [.unsafeFlags(["-nostartfiles", "-static-stdlib"])]),

        // A value shared between threads behind a POSIX mutex (Locked): what the library, the
        // emulator, the tools and the tests lock with, so that ThreadSanitizer sees every lock.
        .target(name: "Locking"),

        // NDEF messages and records: pure Swift, Foundation only.
        .target(name: "NDEF"),

        // The datasheet tables as Swift values (generated from datasheets/ by nfcchips-gen).
        .target(name: "NFCChips", exclude: ["Generated/README.md"]),

        // NTAG 424 DNA cryptography: AES-128 and CMAC through libcrypto, EV2 secure messaging,
        // SDM / SUN and AN10922 key diversification. It holds the one libcrypto wrapper the library
        // uses (LibCrypto.swift, `package` access), so NFCTags reaches libcrypto through it.
        // The one Swift wrapper over libcrypto (ciphers, CMAC, HMAC, ECDSA), `package` access only.
        .target(name: "CryptoSupport", dependencies: ["CLibCrypto"]),
        .target(name: "NTAG424Crypto", dependencies: ["CryptoSupport"]),

        // A PN532 on a pseudo-terminal with tag models built from the NFCChips tables.
        // The files under Sources/NFCEmulator/Crypto use CryptoSupport (test signing key, UL-C 3DES).
        // The NTAG 424 DNA model runs its own card side of EV2 and SDM (NTAG424/PICCCrypto.swift), apart
        // from the library's reader side; from NTAG424Crypto it takes only the key type and the hex helper.
        .target(name: "NFCEmulator", dependencies: ["NFCChips", "CryptoSupport", "NTAG424Crypto", "Locking"]),

        // Tag protocols over a TagTransport (Type 2, NTAG21x, Ultralight, Classic, Type 4).
        .target(name: "NFCTags", dependencies: ["NDEF", "NFCChips", "CryptoSupport", "NTAG424Crypto"]),

        // The public face: the NFCDevice actor, discovery, reconnection, sessions.
        .target(
            name: "NFCTagKit",
            dependencies: ["NFCTags", "NTAG424Crypto", "NDEF", "NFCChips", "CLibNFC", "CLibUSB", "Locking"]),

        // Regenerates Sources/NFCChips/Generated from datasheets/ (`make tables`).
        .executableTarget(name: "nfcchips-gen", dependencies: ["NFCChips"]),

        // The command-line tool.
        .executableTarget(name: "nfctag", dependencies: ["NFCTagKit", "NFCEmulator", "Locking"]),

        // Operations on the emulated reader next to their physical floor; the soak run (`make bench`).
        .executableTarget(name: "nfctag-bench", dependencies: ["NFCTagKit", "NFCEmulator", "Locking"]),

        // What several test targets share (the seeded PRNG of the property tests, the emulated
        // reader of the process, the trait that takes blocking tests off the cooperative pool).
        .target(name: "TestSupport", dependencies: ["NFCEmulator", "NFCChips", "Locking"], path: "Tests/TestSupport"),

        .testTarget(name: "CLibNFCTests", dependencies: ["CLibNFC"]),
        .testTarget(name: "NDEFTests", dependencies: ["NDEF", "TestSupport"]),
        .testTarget(
            name: "NTAG424CryptoTests", dependencies: ["NTAG424Crypto", "CryptoSupport", "NFCChips", "NFCEmulator"]),
        .testTarget(name: "NFCChipsTests", dependencies: ["NFCChips", "NDEF", "TestSupport"]),
        .testTarget(
            name: "NFCEmulatorTests",
            dependencies: [
                "NFCEmulator", "NFCChips", "CLibNFC", "CLibCrypto", "NTAG424Crypto", "TestSupport", "Locking",
            ]),
        .testTarget(
            name: "NFCTagsTests",
            dependencies: ["NFCTags", "NFCChips", "NDEF", "NFCEmulator", "TestSupport", "Locking", "CryptoSupport"]),
        .testTarget(
            name: "NFCTagKitTests", dependencies: ["NFCTagKit", "NFCEmulator", "NFCChips", "TestSupport", "Locking"]),
        .testTarget(
            name: "NFCTagCLITests",
            dependencies: ["nfctag", "NFCEmulator", "NFCChips", "NTAG424Crypto", "Locking", "TestSupport"]),

        // Examples: small programs, one task each (Examples/<Name>/README.md says how to run it).
        .executableTarget(
            name: "ReaderLifecycle", dependencies: ["NFCTagKit"], path: "Examples/ReaderLifecycle",
            exclude: ["README.md"]),
        .executableTarget(
            name: "WriteAndLockURL", dependencies: ["NFCTagKit"], path: "Examples/WriteAndLockURL",
            exclude: ["README.md"]),
        .executableTarget(
            name: "PasswordProtectNTAG", dependencies: ["NFCTagKit"], path: "Examples/PasswordProtectNTAG",
            exclude: ["README.md"]),
        .executableTarget(
            name: "CountersAndSignature", dependencies: ["NFCTagKit"], path: "Examples/CountersAndSignature",
            exclude: ["README.md"]),
        .executableTarget(
            name: "ClassicNDEF", dependencies: ["NFCTagKit"], path: "Examples/ClassicNDEF", exclude: ["README.md"]),
        .executableTarget(
            name: "PackingLine", dependencies: ["NFCTagKit"], path: "Examples/PackingLine", exclude: ["README.md"]),
        // Runs the built examples against an in-process emulated PN532.
        .testTarget(
            name: "ExamplesTests",
            dependencies: [
                "ReaderLifecycle", "WriteAndLockURL", "PasswordProtectNTAG",
                "CountersAndSignature", "ClassicNDEF", "PackingLine", "NFCTagKit", "NFCEmulator", "NFCChips", "Locking",
                "TestSupport",
            ]),
        // Hardware in the loop: a real reader when NFC_TEST_DEVICE names one, the emulated reader otherwise.
        .testTarget(name: "HardwareTests", dependencies: ["NFCTagKit", "NFCEmulator", "Locking", "TestSupport"]),
        .testTarget(
            name: "NFCTagBenchTests", dependencies: ["nfctag-bench", "NFCEmulator", "NFCChips", "NFCTags", "NDEF"]),
    ],
    swiftLanguageModes: [.v6]
)

// Every module imports what it uses itself: a member (a method, an extension) from a
// module the file does not import is an error, so a hidden transitive import cannot
// stand in for one — and an app's `import NFCTagKit` is known to be enough.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
