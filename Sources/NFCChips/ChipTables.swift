/// The single entry point to the datasheet tables.
///
/// The values are generated from `datasheets/` by `nfcchips-gen` (`make tables`) and
/// compiled in; a test fails when the JSON files and the compiled values differ.
///
/// ```swift
/// let pn532 = ChipTables.pn532
/// let firmware = pn532.firmwareVersion // [0x32, 0x01, 0x06, 0x07]
/// ```
public enum ChipTables {
    /// The PN532 reader chip: frames, commands, status codes, registers, timing.
    public static let pn532: PN532Spec = GeneratedTables.pn532
}
