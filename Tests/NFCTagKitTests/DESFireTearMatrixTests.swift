import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Testing
import TestSupport

/// DESFire key changes cut at every frame through libnfc: the emulator's `tear-after=N`
/// takes the card out of the field after N frames addressed to it, and it comes back as
/// the cut left it. After each cut the error names the keys the slot may hold, GetKeyVersion
/// (no key needed) picks one, and that key authenticates — never a key nobody knows.
@Suite("MIFARE DESFire key changes cut at every frame", .tags(.reader), .serialized, .timeLimit(.minutes(5)))
struct DESFireTearMatrixTests {
    static let uid: [UInt8] = [0x04, 0x23, 0x5F, 0x1E, 0xAC, 0xC0, 0x42]
    static let aid: UInt32 = 0x5A0001
    static let appZero = DESFireKey(cipher: .aes, bytes: [UInt8](repeating: 0, count: 16))!
    static let newAES = DESFireKey(cipher: .aes, hex: "F0E1D2C3B4A5968778695A4B3C2D1E0F", version: 1)!
    static let newPICC = DESFireKey(cipher: .aes, hex: "0123456789ABCDEF0123456789ABCDEF", version: 7)!

    enum Operation: String, Sendable, CustomStringConvertible, CaseIterable {
        /// Key 1 of an AES application, in a key-0 session (the old key needed).
        case otherKey
        /// Key 0 of an AES application, the session's own key.
        case ownKey
        /// The PICC master key, from the factory DES key to AES.
        case piccToAES
        var description: String { rawValue }

        var slot: UInt8 { self == .otherKey ? 1 : 0 }
        var application: UInt32 { self == .piccToAES ? 0 : DESFireTearMatrixTests.aid }
        var old: DESFireKey { self == .piccToAES ? .factoryDefault : DESFireTearMatrixTests.appZero }
        var new: DESFireKey { self == .piccToAES ? DESFireTearMatrixTests.newPICC : DESFireTearMatrixTests.newAES }
    }

    static func card() throws -> DESFireTag { try DESFireTag(chip: .desfireEV2, uid: uid) }

    /// Runs `operation`, cut after frame `k` of it (`nil`: never). Returns the frames it sent.
    @discardableResult
    static func run(_ operation: Operation, framesBefore: Int?, k: Int?) async throws -> (before: Int, frames: Int) {
        let faults = try FaultPlan(
            parsing: framesBefore.flatMap { before in k.map { ["tear-after=\(before + $0)"] } } ?? [])
        let fixture = try EmulatorFixture(tags: [try card()], faults: faults)
        defer { fixture.stop() }
        return try await withTimeLimit(seconds: 60) {
            let device = NFCDevice()
            _ = try await device.connect(
                to: fixture.reader, configuration: fixture.configuration(reconnect: false, liveness: nil))
            let session = try await TagSession.connect(on: device, timeout: .seconds(5))
            let desfire = try session.isoDEPTag().desfire()
            try await desfire.authenticate(keyNumber: 0, key: .factoryDefault)
            try await desfire.createApplication(aid, keySettings: 0x0F, keyCount: 2, cipher: .aes)
            try await desfire.selectApplication(operation.application)
            try await desfire.authenticate(keyNumber: 0, key: operation == .piccToAES ? .factoryDefault : appZero)
            let before = fixture.emulator.statistics.framesToTags
            if let framesBefore {
                try #require(before == framesBefore, "the set-up sent \(before) frames, the dry run \(framesBefore)")
            }
            let label = "\(operation) cut after frame \(k.map(String.init) ?? "never")"
            var failure: TagSessionError?
            do throws(TagSessionError) {
                try await desfire.changeKey(
                    operation.slot, to: operation.new, from: operation == .otherKey ? operation.old : nil)
            } catch {
                failure = error
            }
            let frames = fixture.emulator.statistics.framesToTags - before
            if k == nil {
                #expect(failure == nil, "\(label): \(String(describing: failure))")
            } else {
                #expect(failure != nil, "\(label): the change reported success though the card left")
                let left = try #require(fixture.emulator.allTags.first as? DESFireTag, "\(label): no card")
                if fixture.emulator.tags.isEmpty { fixture.emulator.insert(left) }
            }
            if case .command(_, .ntag424(.desfireKeyChangeInterrupted(let number, let keys, _)))? = failure {
                #expect(number == operation.slot && keys == [operation.new, operation.old], "\(label): \(keys)")
            } else if let failure {
                // Cut before ChangeKey went out: a plain failure, and the old key stays.
                switch failure {
                case .tagLost, .tagTimeout: break
                default: Issue.record("\(label): \(failure)")
                }
            }
            // The card back in the field: the key version names the key, and it opens the slot.
            let again = try await TagSession.connect(on: device, timeout: .seconds(5))
            let back = try again.isoDEPTag().desfire()
            try await back.selectApplication(operation.application)
            let version = try await back.keyVersion(operation.slot)
            let held = try #require(
                [operation.new, operation.old].first { $0.version == version }, "\(label): version \(version)")
            if failure == nil { #expect(held == operation.new, "\(label): a completed change left the old key") }
            try await back.authenticate(keyNumber: operation.slot, key: held)
            await device.close()
            return (before, frames)
        }
    }

    @Test(
        "ChangeKey of another key, of the session's own key and of the PICC master key to AES, cut at every frame: the card always holds a key its version names",
        arguments: Operation.allCases)
    func matrix(_ operation: Operation) async throws {
        let dry = try await Self.run(operation, framesBefore: nil, k: nil)
        #expect(dry.frames >= 3)
        for k in 0..<dry.frames {
            try await Self.run(operation, framesBefore: dry.before, k: k)
        }
    }
}
