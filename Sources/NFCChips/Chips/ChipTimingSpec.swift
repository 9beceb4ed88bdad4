/// Timings of a chip that are not tied to one command.
public struct ChipTimingSpec: Codable, Equatable, Sendable {
    /// Typical EEPROM programming time per page or block, in milliseconds.
    public var eepromWriteMsPerPage: Double
    /// Write endurance in cycles, when known.
    public var writeEnduranceCycles: Int?
    /// Present when a value is less certain than its source.
    public var caveat: DatasheetCaveat?
    /// Where it comes from.
    public var source: DatasheetSource
}
