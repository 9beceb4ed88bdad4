/// The files an NFC Forum Type 4 tag ships with: the CC file and an empty NDEF file.
///
/// ```swift
/// let files = ChipTables.spec(for: .type4).type4Files!
/// files.capabilityContainer   // 00 0F 20 00 FF 00 FF 04 06 E1 04 …
/// files.ndefFileSize          // bytes of the NDEF file, NLEN included
/// ```
package struct Type4FilesSpec: Codable, Equatable, Sendable {
    /// The CC file content (CCLEN, mapping version, MLe, MLc, NDEF File Control TLV).
    @Hex package var capabilityContainer: [UInt8]
    /// The size of the NDEF file in bytes, NLEN included (the CC's maximum NDEF file size).
    package var ndefFileSize: Int
    /// The NDEF file's first bytes as shipped (NLEN `00 00`: an empty tag).
    @Hex package var ndefFileFactoryContent: [UInt8]
    /// Where the values come from.
    package var source: DatasheetSource
}
