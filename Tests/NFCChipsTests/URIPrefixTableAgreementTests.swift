import NDEF
import NFCChips
import Testing

/// The NDEF room keeps its own URI prefix table (it imports Foundation only); it must be
/// the one in `datasheets/uri-prefixes.json`.
@Suite("URI prefix table agrees with the datasheets")
struct URIPrefixTableAgreementTests {
    @Test("NDEFURIRecord.prefixTable equals ChipTables.uriPrefixes, code for code")
    func sameTable() {
        #expect(NDEFURIRecord.prefixTable.count == 36)
        #expect(NDEFURIRecord.prefixTable == ChipTables.uriPrefixes)
    }
}
