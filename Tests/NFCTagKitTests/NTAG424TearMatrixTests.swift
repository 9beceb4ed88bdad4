import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import NTAG424Crypto
import Testing
import TestSupport

/// Safe key and setting changes on NTAG 424 DNA, cut at every frame through libnfc: the
/// emulator's `tear-after=N` takes the tag out of the field after N frames addressed to it.
/// After each cut the tag comes back as the cut left it, and
/// - a key change: the error names the keys the slot may hold; GetKeyVersion (no key needed)
///   picks one; that key authenticates — never a key nobody knows;
/// - a SUN setup (ChangeKey, WriteData, ChangeFileSettings): GetFileSettings shows exactly
///   the old or the new settings, and the MAC key slot holds the old or the new key, as its
///   version says.
@Suite("NTAG 424 DNA tear matrix through libnfc", .tags(.reader), .serialized, .timeLimit(.minutes(5)))
struct NTAG424TearMatrixTests {
    static let uid: [UInt8] = [0x04, 0x3A, 0x42, 0x10, 0x6C, 0x55, 0x80]
    static let newKey = try! AES128Key([UInt8](repeating: 0x6B, count: 16))
    static let newMaster = try! AES128Key([UInt8](repeating: 0x0D, count: 16))

    enum Operation: String, Sendable, CustomStringConvertible {
        case changeKey1, changeKey0, sunSetup
        var description: String { rawValue }
    }

    /// Runs `operation` on a factory-fresh tag, cut after frame `k` of it (`nil`: never).
    /// Returns the frames the operation sent, and checks what the tag holds afterwards.
    @discardableResult
    static func run(_ operation: Operation, framesBefore: Int?, k: Int?) async throws -> (before: Int, frames: Int) {
        let faults = try FaultPlan(
            parsing: framesBefore.flatMap { before in k.map { ["tear-after=\(before + $0)"] } } ?? [])
        let fixture = try EmulatorFixture(tags: [NTAG424DNATag(uid: uid)], faults: faults)
        defer { fixture.stop() }
        return try await withTimeLimit(seconds: 60) {
            let device = NFCDevice()
            _ = try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(reconnect: false, liveness: nil))
            let session = try await TagSession.connect(on: device, timeout: .seconds(5))
            let ntag = try session.isoDEPTag().ntag424()
            try await ntag.selectApplication()
            let before = fixture.emulator.statistics.framesToTags
            if let framesBefore {
                try #require(before == framesBefore, "the connect sent \(before) frames, the dry run \(framesBefore)")
            }
            let label = "\(operation) cut after frame \(k.map(String.init) ?? "never")"
            var failure: TagSessionError?
            let template = try NTAG424SUNTemplate("https://example.com/t?picc_data={picc}&cmac={cmac}")
            do throws(TagSessionError) {
                switch operation {
                case .changeKey1:
                    try await ntag.changeKeySafely(1, from: .zero, to: newKey, version: 1, appMasterKey: .zero)
                case .changeKey0:
                    try await ntag.changeKeySafely(0, from: .zero, to: newMaster, version: 1, appMasterKey: .zero)
                case .sunSetup:
                    try await ntag.setUpSUN(template, keys: NTAG424SUNKeys(fileReadKey: newKey))
                }
            } catch {
                failure = error
            }
            let frames = fixture.emulator.statistics.framesToTags - before
            if k == nil {
                #expect(failure == nil, "\(label): \(String(describing: failure))")
            } else {
                #expect(failure != nil, "\(label): the operation reported success though the tag left")
            }
            if failure != nil {
                // The tag comes back as the cut left it.
                let left = try #require(fixture.emulator.allTags.first as? NTAG424DNATag, "\(label): no tag")
                if fixture.emulator.tags.isEmpty { fixture.emulator.insert(left) }
            }
            let again = try await TagSession.connect(on: device, timeout: .seconds(5))
            let back = try again.isoDEPTag().ntag424()
            try await check(operation, on: back, failure: failure, label: label)
            await device.close()
            return (before, frames)
        }
    }

    /// What the tag holds must be known: by the error's candidates and the key version.
    static func check(_ operation: Operation, on ntag: NFCNTAG424DNATag, failure: TagSessionError?, label: String)
        async throws
    {
        let slot: UInt8 = operation == .changeKey0 ? 0 : 1
        let new = operation == .changeKey0 ? newMaster : newKey
        let candidates = [
            NTAG424KeyCandidate(role: "new", key: new, version: 1),
            NTAG424KeyCandidate(role: "old", key: .zero, version: 0),
        ]
        if case .command(_, .ntag424(.keyChangeInterrupted(let number, let named, _)))? = failure {
            #expect(number == slot && Set(named) == Set(candidates), "\(label): the error names \(named)")
        }
        let held = try #require(
            try await ntag.keyInSlot(slot, candidates: candidates), "\(label): a key version nobody knows")
        if failure == nil { #expect(held.role == "new", "\(label): a completed change left the old key") }
        // The key the version names opens the slot.
        try await ntag.selectApplication()
        try await ntag.authenticate(keyNumber: slot, key: held.key)
        guard operation == .sunSetup else { return }
        try await ntag.selectApplication()
        let settings = try await ntag.fileSettings(2)
        let template = try NTAG424SUNTemplate("https://example.com/t?picc_data={picc}&cmac={cmac}")
        let factory = NTAG424FileSettings(
            communicationMode: .plain, read: .free, write: .free, readWrite: .free, change: .key(0), size: 256)
        #expect(
            settings == factory || settings == template.fileSettings,
            "\(label): settings neither old nor new: \(settings)")
        if failure == nil { #expect(settings == template.fileSettings, "\(label): completed but settings are old") }
    }

    @Test(
        "ChangeKey of key 1 and of key 0, and a SUN setup, cut at every frame: the tag always holds a key its version names, and old or new settings",
        arguments: [Operation.changeKey1, .changeKey0, .sunSetup])
    func matrix(_ operation: Operation) async throws {
        let dry = try await Self.run(operation, framesBefore: nil, k: nil)
        #expect(dry.frames > 5)
        for k in 0..<dry.frames {
            try await Self.run(operation, framesBefore: dry.before, k: k)
        }
    }
}
