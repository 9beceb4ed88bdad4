import Foundation
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

/// Where the hardware-in-the-loop suite runs, from the environment:
///
/// | variable | effect |
/// |---|---|
/// | `NFC_TEST_DEVICE` | a libnfc connection string (`pn532_uart:/dev/ttyUSB0`, `acr122_usb`): run against that reader and the one tag on it. Unset: an emulated PN532 with emulated tags, every scenario runs. |
/// | `NFC_TEST_ALLOW_WRITE=1` | on a real reader, run the scenarios that write to the tag (they put its message back afterwards) |
/// | `NFC_TEST_ALLOW_LOCK=1` | on a real reader, run the scenario that locks the tag for good (with `NFC_TEST_ALLOW_WRITE=1`) |
/// | `NFC_TEST_PUBLIC_KEY=HEX` | the key the tag's originality signature verifies with (default: NXP's key for the chip); `nfctag emulate --print-signing-key` prints the emulator's |
/// | `NFC_TEST_JUST_POWERED=1` | the reader was plugged in (powered on) right before the run: P1 also compares the power-up register values |
/// | `NFC_TEST_TWO_TAGS=1` | two Type 2 tags lie on the reader: runs P6 |
/// | `NFC_TEST_TEAR_RIG=1` | a person or rig takes the tag out of the field mid-write: runs T3, and N424-13 on an NTAG 424 DNA (with `NFC_TEST_ALLOW_WRITE=1`; `NFC_TEST_TEAR_SECONDS`, default 60) |
/// | `NFC_TEST_NTAG424=1` | the tag on the real reader is an NTAG 424 DNA: runs the real half of the N424 scenarios (`NTAG424Assumptions`; their emulated half runs always) |
/// | `NFC_TEST_NTAG424_KEY0`…`KEY4=HEX` | that tag's keys 0…4, 32 hex digits each (default: the factory key, all zero) |
/// | `NFC_TEST_NTAG424_RANDOM_ID=1` | with `NFC_TEST_ALLOW_WRITE=1`: N424-9 (and N424-15 on a tag without it) turns the NTAG 424 DNA's random ID on FOR GOOD — use a tag to spare |
/// | `NFC_TEST_NTAG424_WRONG_AUTHS=N` | N424-12's wrong authentications (default 3) |
/// | `NFC_TEST_REPLUG=1` | a person plugs the USB reader out and back into the same socket when asked: runs U10 |
/// | `NFC_TEST_RANDOM_ID_TAG=1` | a tag with a random ID (UID 08…: a bank card, a phone, an NTAG 424 DNA with it on) lies on the USB reader: runs U12 |
/// | `NFC_TEST_TRANSCRIPT=FILE` | the transcript scenario writes the exchanges it recorded to FILE |
///
/// ```sh
/// swift test --filter HardwareTests                                     # emulated reader
/// NFC_TEST_DEVICE=pn532_uart:/dev/ttyUSB0 swift test --filter HardwareTests
/// NFC_TEST_DEVICE=acr122_usb NFC_TEST_ALLOW_WRITE=1 swift test --filter HardwareTests
/// NFC_TEST_DEVICE=pn53x_usb swift test --filter HardwareTests           # SCL3711 / PN533
/// ```
///
/// A USB reader — the ACR122U (`072f:2200`, libnfc driver `acr122_usb`) or a PN533 stick
/// such as the SCL3711 (`04e6:5591`; an NXP PN533 board is `04cc:2533`; driver `pn53x_usb`),
/// USB IDs as in libnfc's driver tables (`acr122_usb.c`, `pn53x_usb.c`) — needs three things
/// before libnfc can claim it (the README's "Reader setup" and the DocC article "Hardware
/// setup" say more):
///
/// ```sh
/// # 1. a udev rule for its USB ID (Debian's libnfc6 ships one), then plug it in again
/// sudo tee /etc/udev/rules.d/93-nfc-readers.rules <<'EOF'
/// SUBSYSTEM!="usb|usb_device", GOTO="nfc_readers_end"
/// ACTION!="add", GOTO="nfc_readers_end"
/// ATTRS{idVendor}=="072f", ATTRS{idProduct}=="2200", MODE="0664", GROUP="plugdev"
/// ATTRS{idVendor}=="04e6", ATTRS{idProduct}=="5591", MODE="0664", GROUP="plugdev"
/// ATTRS{idVendor}=="04cc", ATTRS{idProduct}=="2533", MODE="0664", GROUP="plugdev"
/// LABEL="nfc_readers_end"
/// EOF
/// sudo udevadm control --reload-rules && sudo udevadm trigger
/// # 2. the kernel's NFC modules out of the way
/// sudo modprobe -r pn533_usb pn533 nfc
/// printf 'blacklist pn533_usb\nblacklist pn533\nblacklist nfc\n' | sudo tee /etc/modprobe.d/blacklist-libnfc.conf
/// # 3. pcscd, which claims the ACR122U as a CCID reader, stopped
/// sudo systemctl stop pcscd.socket pcscd
/// ```
///
/// The connection string is the driver alone (`acr122_usb`, `pn53x_usb`: the first such
/// reader) or with the bus and device number `nfc-scan-device` lists (`acr122_usb:001:004`).
/// The scenarios about one reader kind (`USBReaderAssumptions`, U1–U12) run only when the
/// connection string names that driver; the others run on any reader.
enum HardwareBench {
    static let environment = ProcessInfo.processInfo.environment

    /// The real reader's connection string, or nil for the emulated reader.
    static let realDevice: String? = environment["NFC_TEST_DEVICE"].flatMap { $0.isEmpty ? nil : $0 }

    static var isRealHardware: Bool { realDevice != nil }

    /// Writing is allowed: always on the emulator, with `NFC_TEST_ALLOW_WRITE=1` on a real reader.
    static var allowsWrite: Bool { !isRealHardware || environment["NFC_TEST_ALLOW_WRITE"] == "1" }

    /// Locking for good is allowed: always on the emulator, with `NFC_TEST_ALLOW_LOCK=1`
    /// (and writing) on a real reader.
    static var allowsLock: Bool { !isRealHardware || (environment["NFC_TEST_ALLOW_LOCK"] == "1" && allowsWrite) }

    static let writeSkipMessage: Comment = "writes to the tag: set NFC_TEST_ALLOW_WRITE=1 to run it on the real reader"
    static let lockSkipMessage: Comment =
        "locks the tag FOR GOOD: set NFC_TEST_ALLOW_LOCK=1 and NFC_TEST_ALLOW_WRITE=1 to run it on the real reader"

    /// The tags a scenario runs on: the one on the real reader, or emulated chips of each
    /// family (NTAG, Ultralight EV1, MIFARE Classic) so that every "skip what the chip
    /// cannot do" path runs too.
    static var tags: [String] {
        isRealHardware ? ["the tag on the reader"] : ["ntag215", "ultralight-ev1-mf0ul21", "classic1k"]
    }
}

/// The hardware-in-the-loop suite: its scenarios run one at a time (one real reader, one
/// tag), the read-only ones first.
@Suite("Hardware in the loop", .serialized, .blockingCalls)
struct HardwareInTheLoop {}

/// The reader for one test: the real one, or a fresh emulated PN532 (behind a stable link,
/// so that it can be unplugged and plugged back) with the named tag.
final class HardwareReader: Sendable {
    let connectionString: String
    /// The emulator, nil on real hardware.
    let emulator: PN532Emulator?
    private let directory: URL?

    init(tag: String = "ntag215") throws {
        if let device = HardwareBench.realDevice {
            connectionString = device
            emulator = nil
            directory = nil
            return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfctag-hil-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let emulator = try PN532Emulator(
            tags: [try EmulatedTagFactory.make(name: tag)],
            link: directory.appendingPathComponent("reader").path)
        try emulator.start()
        self.emulator = emulator
        self.directory = directory
        connectionString = emulator.connectionString
    }

    deinit {
        emulator?.stop()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// A connected device (automatic reconnection on, as an app would have it).
    func connect(_ configuration: ConnectionConfiguration = ConnectionConfiguration()) async throws -> NFCDevice {
        var configuration = configuration
        configuration.lastReaderStore = nil
        let device = NFCDevice()
        try await device.connect(toConnectionString: connectionString, configuration: configuration)
        return device
    }

    /// Runs `body` on a connected device and closes it afterwards, whatever happens (one
    /// real reader serves one test at a time).
    func withDevice<Result>(_ body: (NFCDevice) async throws -> Result) async throws -> Result {
        let device = try await connect()
        do {
            let result = try await body(device)
            await device.close()
            return result
        } catch {
            await device.close()
            throw error
        }
    }

    /// The public key the tag's signature verifies with: the emulator's own key, on real
    /// hardware `NFC_TEST_PUBLIC_KEY`, or nil (the chip's NXP key from the tables).
    var signingKey: [UInt8]? {
        if emulator != nil { return EmulatorSigningKey.publicKey }
        return HardwareBench.environment["NFC_TEST_PUBLIC_KEY"].flatMap(bytes(fromHex:))
    }
}

/// Bytes from hex digits, nil when the text is not hex.
func bytes(fromHex text: String) -> [UInt8]? {
    let digits = Array(text.utf8)
    guard !digits.isEmpty, digits.count % 2 == 0 else { return nil }
    var result: [UInt8] = []
    for index in stride(from: 0, to: digits.count, by: 2) {
        guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
            return nil
        }
        result.append(byte)
    }
    return result
}
