// MISSING TABLE VALUES — chip constants the NDEF drivers need that NFCChips does not carry
// yet. They live in this one file so they can be moved into datasheets/ and read from
// ChipTables instead; nothing else in NFCTags/NDEF writes a page address, command code,
// size, key, AID, TLV type or status word.

/// Values the NDEF drivers need before the chip tables provide them (to be moved to NFCChips).
enum MissingTableValues {
    /// Static lock bytes (page 2, bytes 2–3, read as a 16-bit little-endian word): bit n
    /// locks page n for n = 3…15; bits 0–2 are block-lock bits (nfc-reference.md §2.2).
    /// Belongs in `MemoryMap.staticLock` (e.g. `firstLockedPage`, `lastLockedPage`, `lockAllValue`).
    static let firstStaticallyLockedPage = 3
    /// The last page the static lock bits cover.
    static let lastStaticallyLockedPage = 15
    /// The static lock value that sets every lock and block-lock bit (nfc-reference.md §4.3
    /// "make read-only", step 2).
    static let staticLockAllValue: [UInt8] = [0xFF, 0xFF]
}

extension MissingTableValues {
    /// How long a Type 4 tag may take to answer one APDU (the tables have no ISO-DEP frame
    /// waiting time; FWI from the ATS would give it per tag).
    static let type4CommandTimeout: Duration = .milliseconds(500)
    /// ENLEN, the NDEF length field of an extended NDEF file (T = `06`), in bytes.
    static let type4ExtendedNLENLength = 4
    /// The largest offset READ / UPDATE BINARY with P1-P2 can address (bit 15 of P1 is the
    /// short-file-ID flag); longer files need the odd-INS form.
    static let type4MaximumBinaryOffset = 0x7FFF
    /// The length byte of a SELECT APPLICATION's Le (`00`: up to 256 bytes of FCI).
    static let type4SelectLe: UInt8 = 0x00
}
