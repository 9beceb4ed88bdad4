/// Everything the tables say about one chip.
///
/// ```swift
/// let spec = ChipTables.spec(for: .ntag215)
/// spec.activation.sak                   // 0x00
/// spec.getVersion?.response             // [00 04 04 02 01 00 11 03]
/// spec.memory?.userPages                // 4...129
/// spec.command(.passwordAuthenticate)?.code // 0x1B
/// ```
package struct ChipSpec: DatasheetValue {
    /// Which chip this is.
    package var chip: Chip
    /// The product name, e.g. `NTAG215`.
    package var product: String
    /// The NXP ordering or type name, e.g. `NT2H1511`.
    package var typeName: String
    /// The protocol family.
    package var family: ChipFamily
    /// The product data sheet this file follows.
    package var datasheet: DatasheetSource
    /// ATQA, SAK and UID length.
    package var activation: ActivationSpec
    /// The GET_VERSION answer, for chips that support it.
    package var getVersion: GetVersionSpec?
    /// The page memory (Type 2 chips).
    package var memory: MemoryMap?
    /// The sectors and blocks (MIFARE Classic).
    package var classicGeometry: ClassicGeometry?
    /// The commands the chip understands (a command not listed is not supported).
    package var commands: [CommandSpec]
    /// The one-way counters.
    package var counters: [CounterSpec]
    /// The name of the originality-signature key in ``ChipTables/originalitySignatures``.
    package var originalitySignatureKey: OriginalitySignatureKeyName?
    /// The 3DES authentication (Ultralight C).
    package var ultralightCAuthentication: UltralightCAuthenticationSpec?
    /// Write timing.
    package var timing: ChipTimingSpec?
    /// The files of an NFC Forum Type 4 tag as shipped.
    package var type4Files: Type4FilesSpec?
    /// NTAG 424 DNA: commands, files, keys, status words, SDM layout, secure-messaging
    /// constants and the originality-signature key.
    package var ntag424: NTAG424Spec?
    /// MIFARE DESFire: GetVersion, storage, secure messaging, the originality key (the
    /// family's tables are ``ChipTables/desfire``).
    package var desfire: DESFireChipSpec?

    /// The command called `name`, or `nil` when the chip does not support it.
    package func command(_ name: CommandName) -> CommandSpec? {
        commands.first { $0.name == name }
    }

    /// Whether the chip supports `name`.
    package func supports(_ name: CommandName) -> Bool { command(name) != nil }

    /// The command with code `code` (the first byte of a frame).
    package func command(code: UInt8) -> CommandSpec? {
        commands.first { $0.code == code }
    }
}
