import Testing
@testable import nfctag_bench

/// The whole benchmark on the emulated reader, as `make bench` runs it (fewer tags). Its
/// figures are modelled, so they are the same on every machine: the read targets and the
/// page counts of writes are checked here; the CPU column is not.
@Suite("The benchmark suite end to end")
struct BenchSuiteTests {
    /// The wait for a tag, a hang guard: these tests start with a thousand others side by side
    /// on two cores, and a CI run's poll once waited past the bench's own 5 s.
    static let tagWait: Duration = .seconds(60)

    @Test(
        "every operation runs; reads meet 1.1×, dumps sit on the floor, writes send only changed pages and the tear-safety writes"
    )
    func suite() async throws {
        let results = try await BenchSuite(provisioningTags: 3, tagWait: Self.tagWait).run()
        let byName = Dictionary(uniqueKeysWithValues: results.map { ($0.name, $0) })
        #expect(
            results.map(\.name) == [
                "identify", "write_ndef_100_fresh", "read_ndef_100", "write_ndef_100_small_change",
                "write_ndef_100_change_new_connection", "write_ndef_800_fresh", "read_ndef_800",
                "write_ndef_800_small_change",
                "dump_ntag216", "dump_classic1k", "protect", "provision_3_tags", "desfire_read_2k_plain",
                "desfire_read_2k_mac", "desfire_read_2k_full", "felica_ndef_write_208", "felica_ndef_read_208",
                "topaz_ndef_write_90", "topaz_ndef_read_90", "st25tb_dump_17",
            ])
        // An ST25TB512-AC: 16 blocks and the system block, one Read_Block each.
        #expect(try #require(byName["st25tb_dump_17"]).sample.tagFramesByCode[0x08] == 17)
        // A Topaz's area: one RALL to read; written a byte a WRITE-E (NMN 00, TLV type and
        // length, 90 bytes, NMN E1).
        let topazRead = try #require(byName["topaz_ndef_read_90"])
        #expect(topazRead.ratio < 1.05, "topaz read: \(topazRead.ratio)")
        let topazWrite = try #require(byName["topaz_ndef_write_90"])
        #expect(topazWrite.sample.tagFramesByCode[0x53] == 94, "topaz write")
        // A FeliCa Lite-S's area: read on its floor (the attribute block, then four blocks a
        // command); written in 15 single-block writes (WriteFlag on, 13 blocks, Ln).
        let feliCaRead = try #require(byName["felica_ndef_read_208"])
        #expect(feliCaRead.ratio < 1.05, "felica read: \(feliCaRead.ratio)")
        let feliCaWrite = try #require(byName["felica_ndef_write_208"])
        #expect(feliCaWrite.sample.tagFramesByCode[0x20] == 15, "felica write")
        // A 2 KB DESFire file comes in 35 frames of 59 bytes whatever the mode: on its floor.
        for mode in ["plain", "mac", "full"] {
            let read = try #require(byName["desfire_read_2k_\(mode)"])
            #expect(read.ratio < 1.05, "desfire \(mode): \(read.ratio)")
            #expect(read.sample.commandsByCode[0x40] == 35, "desfire \(mode)")
        }
        for name in ["read_ndef_100", "read_ndef_800"] {
            let read = try #require(byName[name])
            #expect(read.ratio <= 1.1, "\(name): \(read.ratio)")
        }
        for name in ["dump_ntag216", "dump_classic1k"] {
            #expect(try #require(byName[name]).ratio < 1.01, "\(name)")
        }
        for size in [100, 800] {
            // A fresh tag reads as empty: no clear is needed, each changed page once and the
            // length page once more — with length 0 first, so the commit changes the length alone.
            let fresh = try #require(byName["write_ndef_\(size)_fresh"])
            #expect(fresh.sample.tagFramesByCode[0xA2] == fresh.changedPages.map { $0 + 1 }, "fresh \(size)")
            // One payload byte: the clear, that page and the commit.
            let change = try #require(byName["write_ndef_\(size)_small_change"])
            #expect(change.changedPages == 1, "small change \(size)")
            #expect(change.sample.tagFramesByCode[0xA2] == 3, "small change \(size)")
            // The connect's poll is still the tag's alone check (the tag stayed selected):
            // no reader command asks again.
            #expect(change.sample.commandsByCode[0x60] == nil, "small change \(size)")
        }
        // The same change on a new connection: the configuration read (FAST_READ) and the CRC
        // register pair come back, and nothing else.
        let warm = try #require(byName["write_ndef_100_small_change"])
        let cold = try #require(byName["write_ndef_100_change_new_connection"])
        #expect(cold.target == nil && cold.changedPages == 1 && cold.sample.tagFramesByCode[0xA2] == 3)
        #expect(cold.sample.tagFramesByCode[0x3A] == warm.sample.tagFramesByCode[0x3A].map { $0 + 1 })
        #expect(cold.sample.commandsByCode[0x06] == 1 && cold.sample.commandsByCode[0x08] == 1)
        #expect(cold.sample.commands == warm.sample.commands + 3)
        // Provisioning: per tag one InAutoPoll finds the tag, counts the field and stands as
        // its alone check for the connect and the write (no listing, no select, no second
        // poll); the CRC bits go back off once after it (ReadRegister, WriteRegister); then
        // GET_VERSION and the tag's work, all InCommunicateThru. SetParameters (the ISO
        // 14443-4A slot off) is sent once for the whole run, by the station's first look at the
        // empty field, before any tag: no tag pays for it.
        let provision = try #require(byName["provision_3_tags"])
        #expect(provision.sample.commandsByCode[0x60] == 3)
        #expect(provision.sample.commandsByCode[0x4A] == nil, "no InListPassiveTarget")
        #expect(provision.sample.commandsByCode[0x44] == nil, "no InDeselect")
        #expect(provision.sample.commandsByCode[0x32] == nil, "no field reset")
        #expect(provision.sample.commandsByCode[0x06] == 3 && provision.sample.commandsByCode[0x08] == 3)
        #expect(provision.sample.commandsByCode[0x12] == nil)
        #expect(provision.sample.tagFramesByCode[0x60] == 3, "GET_VERSION once per tag")
        // Its tear-safe floor and its safety bound are reported beside the plain one; the target
        // is 1.3× the tear-safe floor, as 1.3× the plain floor is below the bound.
        let safeProvision = try #require(provision.safeFloor)
        #expect(safeProvision.milliseconds > provision.floor.milliseconds)
        #expect(provision.target == .safeFloorRatio(1.3))
        let bound = try #require(provision.safetyBound)
        #expect(
            bound.milliseconds > safeProvision.milliseconds
                && provision.sample.modelledMilliseconds > bound.milliseconds)
        #expect(provision.floorsByLink.allSatisfy { $0.safetyBound != nil })
        #expect(provision.floorsByLink.allSatisfy { $0.safeFloor != nil })
        #expect(results.allSatisfy { $0.ratio.isFinite && $0.ratio >= 0.999 }, "nothing beats its floor")
        #expect(results.allSatisfy { ($0.safeRatio ?? 1) >= 0.999 }, "no write beats its tear-safe floor")
    }

    @Test(
        "at 460 800 baud the reader is switched up, an 800-byte message reads in 100 ms, and no write beats its tear-safe floor"
    )
    func fastLink() async throws {
        let results = try await BenchSuite(baud: 460_800, tagWait: Self.tagWait).ndefReadWrite()
        let byName = Dictionary(uniqueKeysWithValues: results.map { ($0.name, $0) })
        let read = try #require(byName["read_ndef_800"])
        #expect(read.target == .milliseconds(100))
        #expect(read.meetsTarget == true, "\(read.sample.modelledMilliseconds) ms")
        for result in results {
            #expect(result.ratio >= 0.999 && (result.safeRatio ?? 1) >= 0.999, "\(result.name)")
            #expect(result.floorsByLink.count == BenchSuite.floorLinks.count)
        }
    }
}
