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
public struct PN532Spec: Codable, Equatable, Sendable {
    /// Frame constants.
    public var frame: PN532FrameSpec
    /// The GetFirmwareVersion answer data: IC `32`, version 1.6, support `07`.
    @Hex public var firmwareVersion: [UInt8]
    /// The command set (UM0701 §7.1, Table 11).
    public var commands: NamedTable<PN532CommandSpec>
    /// The status codes (UM0701 §7.1, Table 12) and the libnfc errors they become.
    public var statuses: NamedTable<PN532StatusSpec>
    /// CIU registers whose bits change behaviour.
    public var registers: NamedTable<PN532RegisterSpec>
    /// Where the registers' firmware values (``PN532RegisterSpec/powerUp``,
    /// ``PN532RegisterSpec/afterTypeAActivation``) and the cleared TxAuto bit come from.
    public var registerValuesSource: DatasheetSource
    /// The register range libnfc caches (0x6301–0x633E).
    public var registerCache: PN532RegisterRange
    /// BrTy values of InListPassiveTarget.
    public var listPassiveTargetModulations: NamedTable<PN532Option<PN532ModulationName>>
    /// Items of RFConfiguration.
    public var rfConfigurationItems: NamedTable<PN532Option<PN532RFConfigurationItemName>>
    /// Modes of SAMConfiguration.
    public var samModes: NamedTable<PN532Option<PN532SAMModeName>>
    /// Flags of SetParameters.
    public var parameterFlags: NamedTable<PN532Option<PN532ParameterFlagName>>
    /// Tests of Diagnose.
    public var diagnoseTests: NamedTable<PN532Option<PN532DiagnoseTestName>>
    /// Target types of InAutoPoll (UM0701 §7.3.13).
    public var autoPollTargetTypes: [PN532AutoPollType]
    /// Speed codes of SetSerialBaudRate (UM0701 §7.2.8).
    public var serialBaudRates: [PN532BaudRate]
    /// The bits of the RFConfiguration item `rfField` (ConfigurationData byte 0).
    public var rfFieldBits: NamedTable<PN532RegisterBit<PN532RFFieldBitName>>
    /// The bit of each WriteGPIO byte that says the port is to be written (UM0701 §7.2.7).
    @Hex public var gpioWriteValidateMask: UInt8
    /// The timing model.
    public var timing: PN532TimingSpec
    /// Where the table comes from.
    public var source: DatasheetSource

    /// The code of command `name` (`commands[name].code`).
    public func code(_ name: PN532CommandName) -> UInt8 { commands[name].code }

    /// The command with code `code`, or `nil` for an unknown code.
    public func command(code: UInt8) -> PN532CommandSpec? {
        commands.first { $0.code == code }
    }

    /// The status with code `code`.
    public func status(code: UInt8) -> PN532StatusSpec? {
        statuses.first { $0.code == code }
    }

    /// The register at `address`, if the table describes it.
    public func register(address: UInt16) -> PN532RegisterSpec? {
        registers.first { $0.address == address }
    }
}
