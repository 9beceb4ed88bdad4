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
