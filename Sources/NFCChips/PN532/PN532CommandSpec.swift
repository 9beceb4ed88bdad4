/// One PN532 command: its name, code and where the manual describes it.
package struct PN532CommandSpec: NamedEntry {
    /// The command's UM0701 name.
    package var name: PN532CommandName
    /// The command code (the byte after the TFI `D4`); the answer carries `code + 1`.
    @Hex package var code: UInt8
    /// Which part of the command set it belongs to.
    package var role: PN532CommandRole
    /// What the command does, in one line.
    package var summary: String
    /// The UM0701 section that describes it.
    package var section: String

    /// The code of the answer frame (`code + 1`).
    package var answerCode: UInt8 { code &+ 1 }
}

/// The parts of the PN532 command set (UM0701 §7.1, Table 11).
package enum PN532CommandRole: String, Codable, CaseIterable, Sendable {
    /// Miscellaneous commands (diagnosis, registers, GPIO, SAM, power).
    case miscellaneous
    /// RF configuration and regulation.
    case rfCommunication
    /// The chip acting as an initiator (reader): the emulator's job.
    case initiator
    /// The chip acting as a target (card): not needed by a reader emulator.
    case target
}
