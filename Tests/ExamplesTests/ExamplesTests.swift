import Foundation
import NFCChips
import NFCEmulator
import NFCTagKit
import Testing
import TestSupport

/// Starts an emulated PN532 with `tags`; with `link`, behind a stable path in a fresh
/// directory (so that it can be unplugged and plugged back at the same connection string).
func startEmulator(_ tags: [any EmulatedTag], link: Bool = false) throws -> PN532Emulator {
    var path: String?
    if link {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nfctag-example-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        path = directory.appendingPathComponent("reader").path
    }
    let emulator = try PN532Emulator(tags: tags, link: path)
    try emulator.start()
    return emulator
}

func hex(_ bytes: [UInt8]) -> String { bytes.hexString() }

let ntag215UID: [UInt8] = [0x04, 0x51, 0x62, 0x73, 0x84, 0x95, 0xA6]

/// Each example program, built, run against the emulated PN532 through libnfc.
@Suite("Examples against the emulator", .serialized, .timeLimit(.minutes(3)), .blockingCalls)
struct ExamplesTests {
    static let ntag215 = ChipTables.spec(for: .ntag215).memory!

    @Test("ReaderLifecycle: connected, a tag, then unplugged and plugged back: reconnectStarted, reconnectSucceeded")
    func readerLifecycle() async throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: ntag215UID)], link: true)
        defer { emulator.stop() }
        let example = try ExampleProcess("ReaderLifecycle", [emulator.connectionString, "--seconds", "30"])
        #expect(await example.waitForLine(containing: "Unplug the reader"), "\(example.transcript)")
        #expect(
            example.output.contains { $0.hasPrefix("Tag: ") && $0.contains(hex(ntag215UID)) }, "\(example.transcript)")
        emulator.unplug()
        #expect(await example.waitForLine(containing: "event: reconnectStarted"), "\(example.transcript)")
        try await Task.sleep(for: .milliseconds(300))
        try emulator.plug()
        #expect(await example.exitStatus() == 0, "\(example.transcript)")
        let events = example.output.filter { $0.hasPrefix("event: ") }.map { $0.split(separator: " ")[1] }
        #expect(events == ["connected", "reconnectStarted", "reconnectSucceeded"], "\(example.transcript)")
        #expect(example.output.last?.hasPrefix("The reader is back") == true, "\(example.transcript)")
    }

    @Test("WriteAndLockURL: the URL written and verified, the tag locked; a second write is refused; two tags: exit 5")
    func writeAndLockURL() async throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: ntag215UID)])
        defer { emulator.stop() }
        let url = "https://example.com/examples"
        let (status, output) = try await ExampleProcess.run(
            "WriteAndLockURL", [emulator.connectionString, "--url", url, "--lock"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("Read back: \(url) — verified"), "\(output)")
        #expect(output.contains("Locked for good: NDEF is now readOnly"), "\(output)")
        let tag = try #require(emulator.tags.first as? Type2Tag)
        #expect(tag.page(Self.ntag215.capabilityContainer.page)[3] == 0x0F, "the CC does not say read-only")

        let (again, refusal) = try await ExampleProcess.run(
            "WriteAndLockURL", [emulator.connectionString, "--url", "https://other.example"])
        #expect(again == 1, "\(refusal)")
        #expect(refusal.contains("not writable"), "\(refusal)")

        let two = try startEmulator([
            try Type2Tag(chip: .ntag215, uid: ntag215UID),
            try Type2Tag(chip: .ntag213, uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]),
        ])
        defer { two.stop() }
        let (several, message) = try await ExampleProcess.run("WriteAndLockURL", [two.connectionString])
        #expect(several == 5, "\(message)")
        #expect(message.contains("remove all but one"), "\(message)")
    }

    @Test(
        "PasswordProtectNTAG: dry run, protect, refused read, PWD_AUTH with the PACK, removal; --keep leaves AUTH0 set")
    func passwordProtect() async throws {
        let fresh = try Type2Tag(chip: .ntag215, uid: ntag215UID)
        let emulator = try startEmulator([fresh])
        defer { emulator.stop() }
        let configuration = try #require(Self.ntag215.configuration)
        let auth0 = try #require(configuration.field(.auth0))
        let (status, output) = try await ExampleProcess.run("PasswordProtectNTAG", [emulator.connectionString])
        #expect(status == 0, "\(output)")
        for expected in [
            "Dry run (", "Protected: the tag now requires password 12 34 56 78", "Read without the password: refused",
            "PACK abcd as expected", "Protection removed: the tag now requires no password",
        ] {
            #expect(output.contains(expected), "missing '\(expected)' in \(output)")
        }
        var tag = try #require(emulator.tags.first as? Type2Tag)
        #expect(auth0.value(in: tag.page(auth0.page)) == auth0.value(in: fresh.page(auth0.page)))

        let (kept, keptOutput) = try await ExampleProcess.run(
            "PasswordProtectNTAG", [emulator.connectionString, "--password", "0badc0de", "--keep"])
        #expect(kept == 0, "\(keptOutput)")
        tag = try #require(emulator.tags.first as? Type2Tag)
        #expect(auth0.value(in: tag.page(auth0.page)).map(Int.init) == Self.ntag215.firstUserPage)
    }

    @Test(
        "CountersAndSignature: NTAG NFC counter and a valid signature with the emulator's key (invalid with NXP's); EV1 counters"
    )
    func countersAndSignature() async throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: ntag215UID)])
        defer { emulator.stop() }
        let key = hex(EmulatorSigningKey.publicKey)
        let (status, output) = try await ExampleProcess.run(
            "CountersAndSignature", [emulator.connectionString, "--enable-counter", "--public-key", key])
        #expect(status == 0, "\(output)")
        #expect(output.contains("NFC counter enabled"), "\(output)")
        #expect(
            output.split(separator: "\n").contains { $0.hasPrefix("NFC counter: ") && Int($0.dropFirst(13)) != nil },
            "\(output)")
        #expect(output.contains("Originality: valid"), "\(output)")
        let (nxp, nxpOutput) = try await ExampleProcess.run("CountersAndSignature", [emulator.connectionString])
        #expect(nxp == 0, "\(nxpOutput)")
        #expect(
            nxpOutput.contains("Originality: INVALID"), "the emulator's signature verified with NXP's key: \(nxpOutput)"
        )

        let ev1 = try startEmulator([try EmulatedTagFactory.make(name: "ultralight-ev1-mf0ul11")])
        defer { ev1.stop() }
        let (evStatus, evOutput) = try await ExampleProcess.run("CountersAndSignature", [ev1.connectionString])
        #expect(evStatus == 0, "\(evOutput)")
        #expect(evOutput.contains("Counters: 0, 0, 0"), "\(evOutput)")
    }

    @Test(
        "ClassicNDEF: a Classic 1K and a 4K get a text record, read back and verified",
        arguments: ["classic1k", "classic4k"])
    func classicNDEF(name: String) async throws {
        let emulator = try startEmulator([try EmulatedTagFactory.make(name: name)])
        defer { emulator.stop() }
        let text = "Room 4.12 on a \(name)"
        let (status, output) = try await ExampleProcess.run(
            "ClassicNDEF", [emulator.connectionString, "--text", text], limit: .seconds(90))
        #expect(status == 0, "\(output)")
        #expect(output.contains("Read back: \"\(text)\" — verified"), "\(output)")
    }

    @Test(
        "PackingLine: the station writes, verifies and locks the tag, and logs one JSON line a ProvisioningRecord decodes"
    )
    func packingLine() async throws {
        let emulator = try startEmulator([try Type2Tag(chip: .ntag215, uid: ntag215UID)])
        defer { emulator.stop() }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("packing-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: log) }
        let url = "https://example.com/box/17"
        let (status, output) = try await ExampleProcess.run(
            "PackingLine", [emulator.connectionString, "--url", url, "--lock", "--log", log.path])
        #expect(status == 0, "\(output)")
        #expect(output.contains("ok \(ntag215UID.hexString()) write, verify, lock"), "\(output)")
        #expect(output.contains("finished: 1 provisioned, 0 failed"), "\(output)")
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 1)
        let record = try JSONDecoder().decode(ProvisioningRecord.self, from: Data(try #require(lines.first).utf8))
        #expect(record.uid == ntag215UID && record.result == .ok && record.chip == .ntag215)
        let tag = try #require(emulator.tags.first as? Type2Tag)
        #expect(String(decoding: tag.memory, as: UTF8.self).contains("example.com/box/17"))
        #expect(tag.page(Self.ntag215.capabilityContainer.page)[3] == 0x0F, "the CC does not say read-only")
    }
}
