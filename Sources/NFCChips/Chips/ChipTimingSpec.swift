/// Timings of a chip that are not tied to one command.
package struct ChipTimingSpec: Codable, Equatable, Sendable {
    /// Typical EEPROM programming time per page or block, in milliseconds.
    package var eepromWriteMsPerPage: Double
    /// Write endurance in cycles, when known.
    package var writeEnduranceCycles: Int?
    /// Present when a value is less certain than its source.
    package var caveat: DatasheetCaveat?
    /// Where it comes from.
    package var source: DatasheetSource
}
