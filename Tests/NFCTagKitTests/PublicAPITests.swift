import Foundation
import Testing
import TestSupport

/// What `import NFCTagKit` shows an app, read from the symbol graph of the built modules
/// (`swift-symbolgraph-extract`, as `swift package dump-symbol-graph` runs it) and held
/// against `Tests/PublicAPI/NFCTagKit.txt`, so that a change to the API shows in review.
///
/// After a deliberate change: `NFCTAGKIT_UPDATE_PUBLIC_API=1 swift test --filter PublicAPI`
/// rewrites the list; commit it with the change.
@Suite("Public API", .blockingCalls)
struct PublicAPITests {
    /// The modules `import NFCTagKit` brings in (Sources/NFCTagKit/Exports.swift).
    static let modules = ["NFCTagKit", "NDEF", "NFCChips", "NFCTags", "NTAG424Crypto"]
    static let typeKinds: Set<String> = [
        "swift.struct", "swift.class", "swift.enum", "swift.protocol", "swift.typealias", "swift.actor",
    ]

    @Test("the public symbols are the reviewed list, none added to standard-library types, no internals")
    func reviewedList() throws {
        let surface = try PublicSurface.extract(modules: Self.modules)
        #expect(surface.extendedModules.isEmpty, "members added to other modules' types: \(surface.extendedModules)")

        // Internals that once leaked into autocompletion (issue 23).
        let internals = [
            "PN532RegisterBitName", "ACR122USlotStateName", "USBEndpointSpec", "Type2NDEFDriver",
            "PasswordFlowMachine", "DatasheetCatalog", "swiftLiteral", "absentValue", "hexText",
        ]
        for name in internals {
            #expect(!surface.lines.contains { $0.contains(name) }, "\(name) is public")
        }

        let listURL = PublicSurface.packageRoot.appendingPathComponent("Tests/PublicAPI/NFCTagKit.txt")
        let text = surface.lines.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["NFCTAGKIT_UPDATE_PUBLIC_API"] == "1" {
            try Data(text.utf8).write(to: listURL)
        }
        let reviewed = Set((try String(contentsOf: listURL, encoding: .utf8)).split(separator: "\n").map(String.init))
        let current = Set(surface.lines)
        let added = current.subtracting(reviewed).sorted()
        let removed = reviewed.subtracting(current).sorted()
        #expect(added.isEmpty, "public symbols not in Tests/PublicAPI/NFCTagKit.txt:\n\(added.joined(separator: "\n"))")
        #expect(removed.isEmpty, "listed symbols that are no longer public:\n\(removed.joined(separator: "\n"))")
    }

    /// Enums whose cases a standard or the chip fixes; every other public enum may gain a case
    /// and is `@nonexhaustive`, so an app's `switch` has `@unknown default` (issue 23, part 5).
    static let closedEnums: Set<String> = [
        "NDEFSmartPosterRecord.Action",  // RTD Smart Poster: do, save, open for editing
        "NDEFTextRecord.Encoding",  // RTD Text: one status bit
        "NDEFTypeNameFormat",  // NDEF: three bits, all eight values named
        "ClassicKeyType",  // key A, key B
        "ConnectionStatus",  // not connected, discovering, connecting, connected
        "NDEFSession.State",
        "NDEFAvailability",  // Core NFC's NFCNDEFStatus: not supported, read-only, read-write
        "NDEFTagContentState",  // old, new, partly written, unknown
        "NTAG424Access", "NTAG424CommMode",  // NT4H2421Gx
        "PasswordRequirement",  // NTAG21x PROT bit and AUTH0
        "RawAnswer", "TagFraming",  // bytes or bits
        "RemainingAttempts", "SignatureVerification",
        "SUNVerification.Mode", "SUNVerifier.MACKey",  // AN12196: plain or encrypted PICC data
    ]

    @Test("every public enum that may grow is @nonexhaustive: a new case breaks no app")
    func enumsThatGrow() throws {
        let surface = try PublicSurface.extract(modules: Self.modules)
        var withCases: Set<String> = []
        var exhaustive: Set<String> = []
        for line in surface.lines {
            let fields = line.split(separator: " ", maxSplits: 2).map(String.init)
            guard fields.count == 3 else { continue }
            let path = String(fields[2].prefix { $0 != ":" })
            if fields[1] == "enum.case" {
                withCases.insert(String(path[..<path.lastIndex(of: ".")!]))
            } else if fields[1] == "enum", !line.contains("@nonexhaustive") {
                exhaustive.insert(path)
            }
        }
        let unreviewed = exhaustive.intersection(withCases).subtracting(Self.closedEnums)
        #expect(unreviewed.isEmpty, "public enums a new case would break apps on: \(unreviewed.sorted())")
        #expect(!withCases.intersection(Self.closedEnums).isEmpty)
    }

    @Test("the surface fits the budget: at most 1,200 public symbols and 120 public types")
    func budget() throws {
        let surface = try PublicSurface.extract(modules: Self.modules)
        // Issue 23's budget: 4,198 symbols and 340 types before it, 1,148 and 110 after. A
        // family still to come (DESFire, FeliCa, Type B, Type 1, card emulation) pays for its
        // handle and commands inside the same budget.
        #expect(surface.symbolCount <= 1200, "\(surface.symbolCount) public symbols")
        #expect(surface.typeCount <= 120, "\(surface.typeCount) public types")
    }
}

/// The public symbols of a few built modules.
struct PublicSurface {
    /// `module kind path: declaration`, one per declared symbol (members synthesized by a
    /// conformance, such as `!=` or an option set's algebra, are counted but not listed).
    var lines: [String] = []
    var symbolCount = 0
    var typeCount = 0
    /// Modules whose types got public members from these modules (`NFCChips@Swift`).
    var extendedModules: [String] = []

    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func extract(modules: [String]) throws -> PublicSurface {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("nfctagkit-public-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: output) }
        // The test binary sits in the build directory, beside Modules/.
        let buildDirectory = URL(
            fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        )
        .deletingLastPathComponent()
        let includes = try run("/usr/bin/env", ["pkg-config", "--cflags-only-I", "libnfc", "libusb-1.0", "libcrypto"])
            .split(separator: " ").map(String.init).filter { !$0.isEmpty }
        var common = [
            "-target", "x86_64-unknown-linux-gnu", "-I", buildDirectory.appendingPathComponent("Modules").path,
            "-minimum-access-level", "public", "-output-dir", output.path,
        ]
        for library in ["CLibNFC", "CLibUSB", "CLibCrypto"] {
            common += [
                "-Xcc",
                "-fmodule-map-file=" + packageRoot.appendingPathComponent("Sources/\(library)/module.modulemap").path,
            ]
        }
        common += includes.flatMap { ["-Xcc", $0] }
        #if arch(arm64)
        common[1] = "aarch64-unknown-linux-gnu"
        #endif
        for module in modules {
            _ = try run("/usr/bin/env", ["swift-symbolgraph-extract", "-module-name", module] + common)
        }

        var surface = PublicSurface()
        for file in try FileManager.default.contentsOfDirectory(atPath: output.path).sorted() {
            let name = file.replacingOccurrences(of: ".symbols.json", with: "")
            let parts = name.split(separator: "@").map(String.init)
            if parts.count > 1 { surface.extendedModules.append(name) }
            let data = try Data(contentsOf: output.appendingPathComponent(file))
            let graph = try JSONDecoder().decode(SymbolGraph.self, from: data)
            for symbol in graph.symbols where symbol.accessLevel == "public" {
                surface.symbolCount += 1
                if symbol.pathComponents.count == 1, PublicAPITests.typeKinds.contains(symbol.kind.identifier) {
                    surface.typeCount += 1
                }
                guard !symbol.identifier.precise.contains("::SYNTHESIZED::") else { continue }
                let declaration = symbol.declarationFragments?.map(\.spelling).joined() ?? ""
                let kind = symbol.kind.identifier.replacingOccurrences(of: "swift.", with: "")
                surface.lines.append(
                    "\(parts[0]) \(kind) \(symbol.pathComponents.joined(separator: ".")): "
                        + declaration.split(whereSeparator: \.isNewline).joined(separator: " "))
            }
        }
        surface.lines.sort()
        return surface
    }

    private static func run(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        let errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        let errorData = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ExtractionFailed(
                command: ([executable] + arguments).joined(separator: " "),
                output: String(decoding: errorData, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    struct ExtractionFailed: Error, CustomStringConvertible {
        var command: String
        var output: String
        var description: String { "\(command) failed:\n\(output)" }
    }

    struct SymbolGraph: Decodable {
        var symbols: [Symbol]
    }

    struct Symbol: Decodable {
        struct Kind: Decodable { var identifier: String }
        struct Identifier: Decodable { var precise: String }
        struct Fragment: Decodable { var spelling: String }
        var kind: Kind
        var identifier: Identifier
        var pathComponents: [String]
        var accessLevel: String
        var declarationFragments: [Fragment]?
    }
}
