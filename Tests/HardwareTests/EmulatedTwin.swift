import Foundation
import NFCEmulator
import NFCTagKit
import Testing

/// An emulated reader of the same kind as the real one under test, with emulated tags, so
/// that an assumption scenario runs one step against both and compares: the emulator's
/// claim next to what the hardware does.
///
/// libnfc's tools reach it as child processes: a PN532 on a pseudo-terminal directly, an
/// ACR122U or PN533 through the USB stand-in (``environment`` holds its `LD_PRELOAD`).
final class EmulatedTwin: Sendable {
    let kind: ReaderKind
    let connectionString: String
    /// What a child process needs to see the reader (empty for the PN532 on a UART).
    let environment: [String: String]
    private let serial: PN532Emulator?
    private let usb: USBReaderEmulator?

    /// A twin of `kind` (the PN532 on a UART for every kind that is not one of the two USB
    /// readers the emulator models) with the named tags in its field, each with its UID
    /// from `uids` where given, else the emulator's default.
    convenience init(of kind: ReaderKind, tags: [String] = ["ntag215"], uids: [[UInt8]] = []) throws {
        var models: [any EmulatedTag] = []
        for (index, name) in tags.enumerated() {
            models.append(
                try EmulatedTagFactory.make(name: name, uid: index < uids.count ? uids[index] : nil, index: index))
        }
        try self.init(of: kind, models: models)
    }

    /// A twin of `kind` whose one tag is the real tag's twin: `image`, read off the real tag.
    convenience init(of kind: ReaderKind, copying image: TagSnapshot) throws {
        try self.init(of: kind, models: [try image.makeTag()])
    }

    private init(of kind: ReaderKind, models: [any EmulatedTag]) throws {
        switch kind {
        case .acr122USB, .pn53xUSB:
            let executable =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
            guard let library = USBReaderEmulator.libraryPath(besideExecutable: executable) else {
                try Test.cancel(
                    "the USB stand-in \(USBReaderEmulator.libraryName) is not built (swift build --product nfctag-usb-emulation)"
                )
            }
            let reader = try USBReaderEmulator(kind: kind == .acr122USB ? .acr122u : .pn533, tags: models)
            reader.start()
            self.kind = kind
            usb = reader
            serial = nil
            connectionString = reader.connectionString
            environment = reader.environment(library: library)
        default:
            let emulator = try PN532Emulator(tags: models)
            try emulator.start()
            self.kind = .pn532UART
            serial = emulator
            usb = nil
            connectionString = emulator.connectionString
            environment = [:]
        }
    }

    deinit {
        serial?.stop()
        usb?.stop()
    }

    /// The emulated USB reader's descriptors (nil for the PN532 on a UART).
    var descriptor: NFCEmulator.USBDeviceDescriptor? { usb?.descriptor }

    /// `commands` through `pn53x-tamashell` on this reader.
    func tamaShell(_ commands: [String], logLevel: Int = 0) throws -> TamaShellRun {
        let run = try TamaShellRun(commands, device: connectionString, environment: environment, logLevel: logLevel)
        try requireTamaShell(run)
        return run
    }
}

/// The real reader under test, for the scenarios that compare it with an ``EmulatedTwin``.
struct RealReader: Sendable {
    let connectionString: String
    var kind: ReaderKind { ReaderKind(connectionString: connectionString) }

    /// The reader `NFC_TEST_DEVICE` names; cancels the scenario (a skip, not a failure)
    /// without one, naming the assumption it would settle. With `kinds`, only a reader of
    /// those kinds (by libnfc driver, from the connection string) runs it.
    static func required(for id: String, kinds: Set<ReaderKind>? = nil) throws -> RealReader {
        guard let device = HardwareBench.realDevice else {
            try Test.cancel(
                "\(id) compares a real reader with the emulator: set NFC_TEST_DEVICE to a reader's connection string")
        }
        let reader = RealReader(connectionString: device)
        if let kinds, !kinds.contains(reader.kind) {
            try Test.cancel(
                "\(id) is about \(kinds.map(\.rawValue).sorted().joined(separator: " / ")) readers, not \(reader.kind.rawValue)"
            )
        }
        return reader
    }

    /// `commands` through `pn53x-tamashell` on the real reader.
    func tamaShell(_ commands: [String], logLevel: Int = 0) throws -> TamaShellRun {
        let run = try TamaShellRun(commands, device: connectionString, logLevel: logLevel)
        try requireTamaShell(run)
        return run
    }
}

/// Cancels when `pn53x-tamashell` is missing; records an issue when the reader did not open.
private func requireTamaShell(_ run: TamaShellRun) throws {
    guard run.run.launched else {
        try Test.cancel("pn53x-tamashell is not installed (Debian libnfc-pn53x-examples; scripts/setup)")
    }
    try #require(
        !run.readerName.isEmpty, "pn53x-tamashell did not open the reader: \(run.run.output) \(run.run.standardError)")
}

extension HardwareBench {
    /// The kind of reader the assumption scenarios compare with: the real one's, or the
    /// PN532 on a UART without a real reader.
    static var kindUnderTest: ReaderKind { realDevice.map(ReaderKind.init(connectionString:)) ?? .pn532UART }

    /// A person set up what a scenario needs and said so in the environment (`NAME=1`).
    static func personSetUp(_ name: String) -> Bool { environment[name] == "1" }
}

extension EmulatedTwin {
    /// A twin of `kind` whose one tag is the twin of the tag on the real reader
    /// (``TagSnapshot/ofRealTag(on:)``): a difference between the two is then the reader's,
    /// not the test's. Without a real reader, or for a tag the emulator has no model of,
    /// the twin holds `fallback`.
    static func ofRealTag(kind: ReaderKind, fallback: String = "ntag215") async throws -> EmulatedTwin {
        if let device = HardwareBench.realDevice, let image = try await TagSnapshot.ofRealTag(on: device) {
            return try EmulatedTwin(of: kind, copying: image)
        }
        return try EmulatedTwin(of: kind, tags: [fallback])
    }
}

extension TagSnapshot {
    /// The image of the tag on the real reader, for its twin: chip and UID (the emulator's
    /// default where the real UID has another length, as a random ID has), and the state a
    /// host can read —
    /// - Type 2: every readable page (configuration, and so the counter's setting) and the
    ///   NFC counter; PWD / PACK and the Ultralight C key stay the factory ones, since they
    ///   read as zeros;
    /// - MIFARE Classic: the blocks the well-known keys open, and the trailers' access bits
    ///   (the keys stay the factory ones: the sector opened with them);
    /// - Type 4: the NDEF message, read through the library, in the NDEF file (the CC stays the emulator's);
    /// - NTAG 424 DNA: every file's settings, and the files a plain read reaches (CC, NDEF).
    ///
    /// Nil for a tag the emulator has no model of.
    static func ofRealTag(on connectionString: String) async throws -> TagSnapshot? {
        let device = NFCDevice()
        var configuration = ConnectionConfiguration()
        configuration.lastReaderStore = nil
        try await device.connect(toConnectionString: connectionString, configuration: configuration)
        do {
            let image = try await readImage(on: device)
            await device.close()
            return image
        } catch {
            await device.close()
            throw error
        }
    }

    private static func readImage(on device: NFCDevice) async throws -> TagSnapshot? {
        let session = try await TagSession.connect(on: device, timeout: .seconds(10))
        guard let chip = session.chip,
            let fresh = (try? EmulatedTagFactory.make(name: chip.rawValue, uid: session.uid))
                ?? (try? EmulatedTagFactory.make(name: chip.rawValue)),
            var snapshot = TagSnapshot(of: fresh)
        else { return nil }
        let spec = ChipTables.spec(for: chip)
        switch session.tag {
        case .type2(let tag):
            guard let pages = try await tag.dump().pages, var memory = snapshot.memory.flatMap(HexBytes.decode) else {
                return snapshot
            }
            // Pages that read as zeros whatever they hold: PWD, PACK, the Ultralight C key.
            var secret = Set<Int>()
            if let password = spec.memory?.configuration?.password {
                secret.formUnion([password.pwdPage, password.packPage])
            }
            if let key = spec.ultralightCAuthentication { secret.formUnion(key.firstKeyPage...key.lastKeyPage) }
            for (page, bytes) in pages.enumerated()
            where !secret.contains(page) && page * 4 + bytes.count <= memory.count {
                memory.replaceSubrange(page * 4..<page * 4 + bytes.count, with: bytes)
            }
            snapshot.memory = memory.hexString()
            if case .type2(let ntag) = session.tag, (try? await ntag.readConfiguration())?.isNFCCounterEnabled == true {
                snapshot.nfcCounter = try await ntag.readNFCCounter()
            }
        case .miFareClassic(let classic):
            guard let geometry = spec.classicGeometry, let blocks = try await classic.dump().blocks,
                var memory = snapshot.memory.flatMap(HexBytes.decode)
            else { return snapshot }
            let size = geometry.blockSize
            for (block, bytes) in blocks.enumerated() {
                guard let bytes, bytes.count == size, (block + 1) * size <= memory.count else { continue }
                // A trailer reads key A as zeros: only its access bits and general-purpose byte.
                let range = geometry.isTrailer(block: block) ? 6..<10 : 0..<size
                memory.replaceSubrange(
                    block * size + range.lowerBound..<block * size + range.upperBound, with: bytes[range])
            }
            snapshot.memory = memory.hexString()
        case .isoDEP(let iso):
            if chip == .ntag424dna {
                var files = snapshot.files ?? [:]
                var settings = snapshot.fileSettings ?? [:]
                for (number, content) in files {
                    guard let file = UInt8(number), let size = HexBytes.decode(content)?.count else { continue }
                    // GetFileSettings answers without a session (SDM, access rights, CommMode).
                    if let read = try? await iso.ntag424().fileSettings(file) {
                        settings[number] = read.changeFileSettingsData.hexString()
                    }
                    if let read = try? await iso.ntag424().readData(file: file, length: size, mode: .plain),
                        read.count == size
                    {
                        files[number] = read.hexString()
                    }
                }
                snapshot.files = files
                snapshot.fileSettings = settings
            } else if let message = try? await iso.readNDEF(), let encoded = try? message.encoded(),
                var file = snapshot.ndefFile.flatMap(HexBytes.decode), encoded.count + 2 <= file.count
            {
                // The NDEF file as the Type 4 mapping holds it: NLEN, then the message.
                file.replaceSubrange(
                    0..<encoded.count + 2, with: [UInt8(encoded.count >> 8), UInt8(encoded.count & 0xFF)] + encoded)
                snapshot.ndefFile = file.hexString()
            }
        default:
            break
        }
        return snapshot
    }
}
