import Foundation
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

/// The twin reads the tag on a reader (``TagSnapshot/ofRealTag(on:)``): here the "real"
/// reader is an emulated one whose tag holds a UID and state of its own, and the twin
/// must come out holding the same.
@Suite("The emulated twin of the tag on the reader", .blockingCalls)
struct EmulatedTwinTests {
    @Test(
        "the twin takes the tag's UID and the state a host can read",
        arguments: ["ntag215", "ultralight-c", "classic1k", "type4", "ntag424dna"])
    func twinCopiesTheTag(name: String) async throws {
        let original = try Self.tagWithState(name)
        let reader = try PN532Emulator(tags: [try original.makeTag()])
        try reader.start()
        defer { reader.stop() }
        let twin = try #require(try await TagSnapshot.ofRealTag(on: reader.connectionString))
        // The tag as it is after the twin's reads (a read counts on the NFC counter).
        let now = try #require(reader.tags.first.flatMap { TagSnapshot(of: $0) })
        #expect(now.memory == original.memory, "reading the tag changed it")
        #expect(twin.tag == original.tag)
        #expect(twin.uid == original.uid)
        #expect(twin.memory == original.memory)
        #expect(twin.nfcCounter == now.nfcCounter)
        #expect(twin.capabilityContainer == original.capabilityContainer)
        #expect(twin.ndefFile == original.ndefFile)
        #expect(twin.files == original.files)
        #expect(twin.fileSettings == original.fileSettings)
        // And the snapshot makes a tag, as the twin reader needs.
        _ = try twin.makeTag()
    }

    /// A tag of `name` that is not factory-fresh: another UID, data in the user memory, and
    /// (NTAG215) the NFC counter on at 7, (Classic) a sector trailer's general-purpose byte set,
    /// (NTAG 424 DNA) the NDEF file written with a key.
    static func tagWithState(_ name: String) throws -> TagSnapshot {
        let uid: [UInt8] = name == "classic1k" ? [0x5E, 0x1A, 0x22, 0x33] : [0x04, 0x5E, 0x1A, 0x22, 0x33, 0x44, 0x80]
        var snapshot = try #require(TagSnapshot(of: try EmulatedTagFactory.make(name: name, uid: uid)))
        func patch(_ text: inout String?, at offset: Int, with bytes: [UInt8]) throws {
            var data = try #require(text.flatMap { HexBytes.decode($0) })
            data.replaceSubrange(offset..<offset + bytes.count, with: bytes)
            text = data.hexString()
        }
        let message: [UInt8] = [0x03, 0x05, 0xD1, 0x01, 0x01, 0x55, 0x00, 0xFE]
        switch name {
        case "ntag215":
            try patch(&snapshot.memory, at: 16, with: message)
            try patch(&snapshot.memory, at: 132 * 4, with: [0x10])  // ACCESS: NFC_CNT_EN
            snapshot.nfcCounter = 7
        case "ultralight-c":
            try patch(&snapshot.memory, at: 16, with: message)
        case "classic1k":
            try patch(&snapshot.memory, at: 4 * 16, with: Array(repeating: 0x5A, count: 16))
            try patch(&snapshot.memory, at: 7 * 16 + 9, with: [0x42])
        case "type4":
            try patch(&snapshot.ndefFile, at: 0, with: [0x00, 0x05, 0xD1, 0x01, 0x01, 0x55, 0x00])
        default:
            var files = try #require(snapshot.files)
            var file = files["2"]
            try patch(&file, at: 0, with: [0x00, 0x05, 0xD1, 0x01, 0x01, 0x55, 0x00])
            files["2"] = file
            snapshot.files = files
            // File 2's access rights: read free, write with key 0 (the factory tag writes free).
            var settings = try #require(snapshot.fileSettings)
            var fileSettings = settings["2"]
            try patch(&fileSettings, at: 2, with: [0xE0])
            settings["2"] = fileSettings
            snapshot.fileSettings = settings
        }
        return snapshot
    }
}
