import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Locking
import Testing
import TestSupport

/// Counters, the originality signature, MIFARE Classic keys, values and trailers, and
/// memory images, through libnfc to the emulated tags.
@Suite("TagSession counters, signatures, Classic and dumps", .tags(.reader), .serialized, .timeLimit(.minutes(2)))
struct TagSessionMemoryTests {
    static let uid: [UInt8] = [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80]
    static let classicUID: [UInt8] = [0x3E, 0xE0, 0x5A, 0x11]
    static let transportKey = ClassicKey.factoryDefault

    @Test("NTAG NFC counter: refused while disabled, counts reads once enabled")
    func nfcCounter() async throws {
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, fixture in
            let ntag = try session.type2Tag()
            let disabled = await sessionError { () throws(TagSessionError) in _ = try await ntag.readNFCCounter() }
            #expect(disabled?.nakCode != nil, "\(String(describing: disabled))")
            let configuration = try await ntag.setNFCCounter(enabled: true)
            #expect(configuration.isNFCCounterEnabled == true)
            #expect(try await ntag.readConfiguration().isNFCCounterEnabled == true)
            let emulated = try #require(fixture.emulator.tags.first as? Type2Tag)
            #expect(try await ntag.readNFCCounter() == emulated.nfcCounter)
            #expect(ntag.counterAddresses.count == 1)
        }
    }

    @Test("Ultralight EV1 counters: INCR_CNT adds, READ_CNT reads all three, tearing flags valid")
    func ev1Counters() async throws {
        try await withTagSession([try Type2Tag(chip: .ultralightEV1MF0UL11, uid: Self.uid)]) { session, _ in
            let ntag = try session.type2Tag()
            #expect(try await ntag.readCounters() == [0, 0, 0])
            try await ntag.incrementCounter(0, by: 5)
            try await ntag.incrementCounter(2, by: 7)
            try await ntag.incrementCounter(2, by: 1)
            #expect(try await ntag.readCounters() == [5, 0, 8])
            for address in ntag.counterAddresses {
                #expect(try await ntag.checkTearingEvent(address))
            }
        }
    }

    @Test("the emulator's signature verifies with its key, not with NXP's; a chip without key says so")
    func signatures() async throws {
        try await withTagSession([try Type2Tag(chip: .ntag215, uid: Self.uid)]) { session, _ in
            let ntag = try session.type2Tag()
            let own = try await ntag.verifyOriginality(publicKey: EmulatorSigningKey.publicKey)
            #expect(own.verification.isValid)
            #expect(own.uid == Self.uid)
            #expect(own.signature.count == ChipTables.originalitySignatures.signatureLength)
            let nxp = try await ntag.verifyOriginality()
            #expect(nxp.verification == .invalid)
            #expect(ntag.originalityKeyName != nil)
        }
        try await withTagSession([try Type2Tag(chip: .ultralight, uid: Self.uid)]) { session, _ in
            let ntag = try session.type2Tag()
            let error = await sessionError { () throws(TagSessionError) in _ = try await ntag.verifyOriginality() }
            guard case .notSupported(.readSignature, .ultralight, _)? = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
        }
    }

    @Test(
        "Classic: keys open sectors, wrong keys are refused, values count, trailers change keys and unusable ones are refused"
    )
    func classic() async throws {
        try await withTagSession([try ClassicTag(chip: .classic1k, uid: Self.classicUID)]) { session, fixture in
            let classic = try session.miFareClassicTag()
            let wrong = await sessionError { () throws(TagSessionError) in
                try await classic.authenticate(sector: 1, keyType: .a, key: ClassicKey(bytes: [1, 2, 3, 4, 5, 6])!)
            }
            guard case .command(.classicAuthenticate, .authenticationFailed)? = wrong else {
                Issue.record("got \(String(describing: wrong))")
                return
            }

            try await classic.authenticate(sector: 1, keyType: .a, key: Self.transportKey)
            let data = (0..<16).map { UInt8($0 + 0x40) }
            try await classic.writeBlock(4, bytes: data)
            #expect(try await classic.readBlock(4) == data)
            try await classic.writeValue(5, value: 100)
            try await classic.increment(5, by: 20)
            try await classic.transfer(to: 5)
            try await classic.decrement(5, by: 5)
            try await classic.transfer(to: 5)
            #expect(try await classic.readValue(5).value == 115)

            var trailer = try ClassicSectorTrailer(bytes: ChipTables.classic.factoryTrailer)
            let never = AccessBits(c1: true, c2: true, c3: true)
            let unusable = ClassicSectorTrailer(
                keyA: Self.transportKey,
                access: AccessConditions(groups: [never, never, never], trailer: never),
                generalPurposeByte: 0x69, keyB: Self.transportKey)
            let refused = await sessionError { () throws(TagSessionError) in
                try await classic.writeSectorTrailer(unusable, sector: 1)
            }
            guard case .command(.writeSectorTrailer, .unusableTrailer)? = refused else {
                Issue.record("got \(String(describing: refused))")
                return
            }
            let emulated = try #require(fixture.emulator.tags.first as? ClassicTag)
            #expect(emulated.block(7) == ChipTables.classic.factoryTrailer, "a refused trailer reached the card")

            let newKey = ClassicKey.madKeyA
            trailer.keyA = newKey
            try await classic.writeSectorTrailer(trailer, sector: 1)
            try await session.reselect()
            let old = await sessionError { () throws(TagSessionError) in
                try await classic.authenticate(sector: 1, keyType: .a, key: Self.transportKey)
            }
            #expect(old != nil)
            try await classic.authenticate(sector: 1, keyType: .a, key: newKey)
            #expect(try await classic.readBlock(4) == data)
        }
    }

    @Test("dump then restore: user pages come back; UID, lock, OTP and configuration are left alone unless asked")
    func dumpRestoreType2() async throws {
        let memory = try #require(ChipTables.spec(for: .ntag213).memory)
        try await withTagSession([try Type2Tag(chip: .ntag213, uid: Self.uid)]) { session, fixture in
            let ntag = try session.type2Tag()
            for page in memory.firstUserPage..<(memory.firstUserPage + 8) {
                try await ntag.write(page: page, bytes: [UInt8(page), 0xA5, 0x5A, UInt8(page)])
            }
            let seen = ProgressLog()
            let dump = try await ntag.dump(progress: { seen.add($0) })
            #expect(dump.chip == .ntag213)
            #expect(dump.pages?.count == memory.lastReadablePage + 1)
            #expect(seen.last?.isFinished == true)
            #expect(try TagMemoryDump(jsonBytes: try dump.jsonBytes()) == dump)

            for page in memory.firstUserPage..<(memory.firstUserPage + 8) {
                try await ntag.write(page: page, bytes: [0, 0, 0, 0])
            }
            var altered = dump
            altered.pages?[memory.staticLock.page] = [0xFF, 0xFF, 0xFF, 0xFF]  // would lock the tag
            let written = try await ntag.restore(altered)
            #expect(written == Array(memory.firstUserPage..<(memory.firstUserPage + 8)))
            #expect(
                try await ntag.readPages(memory.firstUserPage...(memory.firstUserPage + 7))
                    == (memory.firstUserPage..<(memory.firstUserPage + 8)).flatMap {
                        [UInt8($0), 0xA5, 0x5A, UInt8($0)]
                    })
            let emulated = try #require(fixture.emulator.tags.first as? Type2Tag)
            #expect(
                emulated.page(memory.staticLock.page) == dump.pages?[memory.staticLock.page], "lock bytes were written")

            let locks = await sessionError { () throws(TagSessionError) in
                _ = try await ntag.restore(altered, options: [.lockPages])
            }
            guard case .command(.restore, .irreversibleNotConsented)? = locks else {
                Issue.record("got \(String(describing: locks))")
                return
            }
        }
    }

    @Test("Classic dump with the transport key, then restore of changed data blocks")
    func dumpRestoreClassic() async throws {
        try await withTagSession([try ClassicTag(chip: .classic1k, uid: Self.classicUID)], seconds: 60) { session, _ in
            let classic = try session.miFareClassicTag()
            try await classic.authenticate(sector: 2, keyType: .a, key: Self.transportKey)
            let data = (0..<16).map { UInt8(0xF0 ^ $0) }
            try await classic.writeBlock(8, bytes: data)
            let dump = try await classic.dump(keys: [Self.transportKey])
            #expect(dump.blocks?[8] == data)
            #expect(dump.sectorKeys?.count == 16)
            try await session.reselect()
            try await classic.authenticate(sector: 2, keyType: .a, key: Self.transportKey)
            try await classic.writeBlock(8, bytes: [UInt8](repeating: 0, count: 16))
            let written = try await classic.restore(dump)
            #expect(!written.contains(0))
            #expect(
                written.allSatisfy { block in !ChipTables.spec(for: .classic1k).classicGeometry!.isTrailer(block: block)
                })
            try await session.reselect()
            try await classic.authenticate(sector: 2, keyType: .a, key: Self.transportKey)
            #expect(try await classic.readBlock(8) == data)
        }
    }
}

/// Collects progress reports.
final class ProgressLog: Sendable {
    private let values = Locked<[TagSessionProgress]>([])
    func add(_ progress: TagSessionProgress) { values.withLock { $0.append(progress) } }
    var last: TagSessionProgress? { values.withLock { $0.last } }
}
