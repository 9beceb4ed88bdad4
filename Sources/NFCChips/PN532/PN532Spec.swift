/// Everything the tables say about the PN532: frames, commands, status codes,
/// registers, command options and the timing model.
///
/// ```swift
/// let pn532 = ChipTables.pn532
/// pn532.code(.inDataExchange)                 // 0x40
/// pn532.command(code: 0x4A)?.name             // .inListPassiveTarget
/// pn532.statuses[.timeout].code               // 0x01
/// pn532.registers[.txMode].address            // 0x6302
/// pn532.parameterFlags[.automaticRATS].code   // 0x10
/// ```
package struct PN532Spec: Codable, Equatable, Sendable {
    /// Frame constants.
    package var frame: PN532FrameSpec
    /// The GetFirmwareVersion answer data: IC `32`, version 1.6, support `07`.
    @Hex package var firmwareVersion: [UInt8]
    /// The command set (UM0701 §7.1, Table 11).
    package var commands: NamedTable<PN532CommandSpec>
    /// The status codes (UM0701 §7.1, Table 12) and the libnfc errors they become.
    package var statuses: NamedTable<PN532StatusSpec>
    /// CIU registers whose bits change behaviour.
    package var registers: NamedTable<PN532RegisterSpec>
    /// Where the registers' firmware values (``PN532RegisterSpec/powerUp``,
    /// ``PN532RegisterSpec/afterTypeAActivation``) and the cleared TxAuto bit come from.
    package var registerValuesSource: DatasheetSource
    /// The register range libnfc caches (0x6301–0x633E).
    package var registerCache: PN532RegisterRange
    /// BrTy values of InListPassiveTarget.
    package var listPassiveTargetModulations: NamedTable<PN532Option<PN532ModulationName>>
    /// Items of RFConfiguration.
    package var rfConfigurationItems: NamedTable<PN532Option<PN532RFConfigurationItemName>>
    /// Modes of SAMConfiguration.
    package var samModes: NamedTable<PN532Option<PN532SAMModeName>>
    /// Flags of SetParameters.
    package var parameterFlags: NamedTable<PN532Option<PN532ParameterFlagName>>
    /// Tests of Diagnose.
    package var diagnoseTests: NamedTable<PN532Option<PN532DiagnoseTestName>>
    /// Target types of InAutoPoll (UM0701 §7.3.13).
    package var autoPollTargetTypes: [PN532AutoPollType]
    /// Speed codes of SetSerialBaudRate (UM0701 §7.2.8).
    package var serialBaudRates: [PN532BaudRate]
    /// The bits of the RFConfiguration item `rfField` (ConfigurationData byte 0).
    package var rfFieldBits: NamedTable<PN532RegisterBit<PN532RFFieldBitName>>
    /// The bit of each WriteGPIO byte that says the port is to be written (UM0701 §7.2.7).
    @Hex package var gpioWriteValidateMask: UInt8
    /// The timing model.
    package var timing: PN532TimingSpec
    /// Where the table comes from.
    package var source: DatasheetSource

    /// The code of command `name` (`commands[name].code`).
    package func code(_ name: PN532CommandName) -> UInt8 { commands[name].code }

    /// The command with code `code`, or `nil` for an unknown code.
    package func command(code: UInt8) -> PN532CommandSpec? {
        commands.first { $0.code == code }
    }

    /// The status with code `code`.
    package func status(code: UInt8) -> PN532StatusSpec? {
        statuses.first { $0.code == code }
    }

    /// The register at `address`, if the table describes it.
    package func register(address: UInt16) -> PN532RegisterSpec? {
        registers.first { $0.address == address }
    }
}
