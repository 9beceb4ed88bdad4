/// Everything the tables say about one chip.
///
/// ```swift
/// let spec = ChipTables.spec(for: .ntag215)
/// spec.activation.sak                   // 0x00
/// spec.getVersion?.response             // [00 04 04 02 01 00 11 03]
/// spec.memory?.userPages                // 4...129
/// spec.command(.passwordAuthenticate)?.code // 0x1B
/// ```
public struct ChipSpec: DatasheetValue {
    /// Which chip this is.
    public var chip: Chip
    /// The product name, e.g. `NTAG215`.
    public var product: String
    /// The NXP ordering or type name, e.g. `NT2H1511`.
    public var typeName: String
    /// The protocol family.
    public var family: ChipFamily
    /// The product data sheet this file follows.
    public var datasheet: DatasheetSource
    /// ATQA, SAK and UID length.
    public var activation: ActivationSpec
    /// The GET_VERSION answer, for chips that support it.
    public var getVersion: GetVersionSpec?
    /// The page memory (Type 2 chips).
    public var memory: MemoryMap?
    /// The sectors and blocks (MIFARE Classic).
    public var classicGeometry: ClassicGeometry?
    /// The commands the chip understands (a command not listed is not supported).
    public var commands: [CommandSpec]
    /// The one-way counters.
    public var counters: [CounterSpec]
    /// The name of the originality-signature key in ``ChipTables/originalitySignatures``.
    public var originalitySignatureKey: OriginalitySignatureKeyName?
    /// The 3DES authentication (Ultralight C).
    public var ultralightCAuthentication: UltralightCAuthenticationSpec?
    /// Write timing.
    public var timing: ChipTimingSpec?
    /// The files of an NFC Forum Type 4 tag as shipped.
    public var type4Files: Type4FilesSpec?
    /// NTAG 424 DNA: commands, files, keys, status words, SDM layout, secure-messaging
    /// constants and the originality-signature key.
    public var ntag424: NTAG424Spec?

    /// The command called `name`, or `nil` when the chip does not support it.
    public func command(_ name: CommandName) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// Whether the chip supports `name`.
    public func supports(_ name: CommandName) -> Bool { command(name) != nil }

    /// The command with code `code` (the first byte of a frame).
    public func command(code: UInt8) -> CommandSpec? {
        commands.first { $0.code == code }
    }
}
