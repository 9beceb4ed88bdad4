import NFCChips
import Testing

@testable import NFCEmulator

/// Backup data, value and record files change only at CommitTransaction: a field reset at
/// any point before it, AbortTransaction, a new selection or a refused command leave the
/// committed contents.
@Suite("Emulated DESFire: transactions survive tears")
struct DESFireTagTransactionTests {
    /// Application 01 with a backup data file 01 (16 bytes), a value file 02 (0…1000, 100,
    /// limited credit on), a linear record file 03 (4-byte records, at most 3) and a cyclic
    /// record file 04 (2-byte records, 2: it keeps 1), all free; one record committed in each.
    static func prepared() throws -> DESFireLink {
        var link = try DESFireLink()
        _ = link.command(0xCA, bytes("01 00 00 0F 01"))
        _ = link.command(0x5A, bytes("01 00 00"))
        #expect(link.command(0xCB, bytes("01 00 EE EE 10 00 00")) == bytes("91 00"))
        #expect(link.command(0xCC, bytes("02 00 EE EE 00 00 00 00 E8 03 00 00 64 00 00 00 01")) == bytes("91 00"))
        #expect(link.command(0xC1, bytes("03 00 EE EE 04 00 00 03 00 00")) == bytes("91 00"))
        #expect(link.command(0xC0, bytes("04 00 EE EE 02 00 00 02 00 00")) == bytes("91 00"))
        #expect(link.command(0x3B, bytes("03 00 00 00 04 00 00 31 31 31 31")) == bytes("91 00"))
        #expect(link.command(0x3B, bytes("04 00 00 00 02 00 00 41 41")) == bytes("91 00"))
        #expect(link.command(0xC7) == bytes("91 00"))
        return link
    }

    /// What the four files read: backup data, value, linear records, cyclic records.
    static func contents(_ link: inout DESFireLink) -> [[UInt8]] {
        [
            link.command(0xBD, bytes("01 00 00 00 00 00 00")), link.command(0x6C, [0x02]),
            link.command(0xBB, bytes("03 00 00 00 00 00 00")), link.command(0xBB, bytes("04 00 00 00 00 00 00")),
        ]
    }

    /// One transaction's commands: data written twice, credit and debit, a record written in
    /// two parts, a cyclic record (it evicts the committed one).
    static let operations: [(UInt8, [UInt8])] = [
        (0x3D, bytes("01 00 00 00 04 00 00 AA AA AA AA")),
        (0x0C, bytes("02 32 00 00 00")),
        (0x3B, bytes("03 00 00 00 02 00 00 32 32")),
        (0xDC, bytes("02 14 00 00 00")),
        (0x3B, bytes("03 02 00 00 02 00 00 33 33")),
        (0x3D, bytes("01 0C 00 00 02 00 00 BB BB")),
        (0x3B, bytes("04 00 00 00 02 00 00 42 42")),
    ]

    @Test("A field reset after any number of the transaction's commands leaves every file as committed")
    func tearMatrix() throws {
        var reference = try Self.prepared()
        let before = Self.contents(&reference)
        #expect(before[1] == bytes("64 00 00 00 91 00"))
        #expect(before[2] == bytes("31 31 31 31 91 00") && before[3] == bytes("41 41 91 00"))
        for cut in 0...Self.operations.count {
            var link = try Self.prepared()
            for (code, data) in Self.operations.prefix(cut) {
                #expect(link.command(code, data) == bytes("91 00"), "operation \(code) before the tear")
            }
            link.tag.fieldReset()
            link.block = 0
            #expect(link.command(0x5A, bytes("01 00 00")) == bytes("91 00"))
            #expect(Self.contents(&link) == before, "torn after \(cut) commands")
        }
    }

    @Test("CommitTransaction makes every change permanent; records come oldest first, the cyclic file keeps one")
    func commit() throws {
        var link = try Self.prepared()
        for (code, data) in Self.operations { #expect(link.command(code, data) == bytes("91 00")) }
        #expect(link.command(0xC7) == bytes("91 00"))
        let after = Self.contents(&link)
        #expect(after[0] == bytes("AA AA AA AA 00 00 00 00 00 00 00 00 BB BB 00 00 91 00"))
        #expect(after[1] == bytes("82 00 00 00 91 00"), "100 + 50 − 20")
        #expect(after[2] == bytes("31 31 31 31 32 32 33 33 91 00"), "two WriteRecords fill one new record")
        #expect(after[3] == bytes("42 42 91 00"), "the new record evicted the committed one")
        #expect(
            link.command(0xBB, bytes("03 00 00 00 01 00 00")) == bytes("32 32 33 33 91 00"), "offset 0 is the newest")
        // The settings report the committed records and the last transaction's debit as limited credit.
        #expect(link.command(0xF5, [0x03]) == bytes("03 00 EE EE 04 00 00 03 00 00 02 00 00 91 00"))
        #expect(link.command(0xF5, [0x02]) == bytes("02 00 EE EE 00 00 00 00 E8 03 00 00 14 00 00 00 01 91 00"))
        #expect(link.command(0x1C, bytes("02 15 00 00 00")) == bytes("91 BE"), "at most the 20 debited")
        #expect(link.command(0x1C, bytes("02 14 00 00 00")) == bytes("91 00"))
        #expect(link.command(0x1C, bytes("02 01 00 00 00")) == bytes("91 9D"), "only once per transaction")
    }

    @Test("AbortTransaction, a new selection and a refused command drop the pending changes")
    func abortPaths() throws {
        var reference = try Self.prepared()
        let before = Self.contents(&reference)
        var aborted = try Self.prepared()
        for (code, data) in Self.operations { _ = aborted.command(code, data) }
        #expect(aborted.command(0xA7) == bytes("91 00"))
        #expect(aborted.command(0xC7) == bytes("91 00"))
        #expect(Self.contents(&aborted) == before)

        var reselected = try Self.prepared()
        for (code, data) in Self.operations { _ = reselected.command(code, data) }
        _ = reselected.command(0x5A, bytes("00 00 00"))
        _ = reselected.command(0x5A, bytes("01 00 00"))
        #expect(reselected.command(0xC7) == bytes("91 00"))
        #expect(Self.contents(&reselected) == before)

        var refused = try Self.prepared()
        for (code, data) in Self.operations { _ = refused.command(code, data) }
        #expect(refused.command(0xDC, bytes("02 E8 03 00 00")) == bytes("91 BE"), "below the lower limit")
        #expect(refused.command(0xC7) == bytes("91 00"))
        #expect(Self.contents(&refused) == before)
    }

    @Test("Record files: a full linear file refuses a record (BE); ClearRecordFile blocks WriteRecord until the commit")
    func recordLimits() throws {
        var link = try Self.prepared()
        for index in 0..<2 {
            #expect(link.command(0x3B, [0x03, 0, 0, 0, 1, 0, 0, UInt8(index)]) == bytes("91 00"))
            #expect(link.command(0xC7) == bytes("91 00"))
        }
        #expect(link.command(0x3B, bytes("03 00 00 00 01 00 00 09")) == bytes("91 BE"))
        #expect(link.command(0x3B, bytes("03 03 00 00 02 00 00 09 09")) == bytes("91 BE"), "past the record's end")
        #expect(link.command(0xEB, [0x03]) == bytes("91 00"))
        #expect(link.command(0x3B, bytes("03 00 00 00 01 00 00 09")) == bytes("91 9D"))
        #expect(link.command(0xEB, [0x03]) == bytes("91 00"), "the refusal dropped the transaction: clear again")
        #expect(link.command(0xC7) == bytes("91 00"))
        #expect(link.command(0xBB, bytes("03 00 00 00 00 00 00")) == bytes("91 BE"), "an empty file has no record 0")
        #expect(link.command(0x3B, bytes("03 00 00 00 01 00 00 07")) == bytes("91 00"))
        #expect(link.command(0xC7) == bytes("91 00"))
        #expect(link.command(0xBB, bytes("03 00 00 00 00 00 00")) == bytes("07 00 00 00 91 00"))
    }
}
