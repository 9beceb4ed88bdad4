import NFCChips

/// Chooses the NDEF driver for an identified chip.
///
/// ```swift
/// let chip = ChipIdentifier.identify(…)              // e.g. .ntag215
/// let driver = try NDEFTagDrivers.driver(for: chip, transport: transport)
/// let status = try await driver.queryStatus()
/// ```
package enum NDEFTagDrivers {
    /// The driver for `chip` over `transport`: ``Type2NDEFDriver`` for NTAG21x and the
    /// Ultralight family, ``ClassicNDEFDriver`` for MIFARE Classic 1K / 4K (MAD and NFC
    /// sectors, opened with the public MAD / NFC Forum keys A and the transport key; a
    /// driver that needs secret keys B is made with
    /// ``ClassicNDEFDriver/init(chip:transport:keys:)`` instead), ``DESFireNDEFDriver`` for MIFARE DESFire, ``Type4NDEFDriver`` for
    /// other Type 4 tags.
    ///
    /// - Throws: ``NDEFTagError/unsupportedTag(reason:)`` when no driver handles the chip.
    ///
    /// - Parameter passwordAuthenticated: the caller ran PWD_AUTH on this connection and
    ///   runs it again after every re-selection, so a password-protected area is writable.
    package static func driver(
        for chip: Chip, transport: any TagTransport,
        passwordAuthenticated: Bool = false
    ) throws(NDEFTagError) -> any NDEFTagDriver {
        let spec = ChipTables.spec(for: chip)
        if let profile = Type2TagProfile(spec: spec, mapping: .standard) {
            return Type2NDEFDriver(
                profile: profile, mapping: .standard, transport: transport,
                passwordAuthenticated: passwordAuthenticated)
        }
        if spec.family == .mifareClassic { return try ClassicNDEFDriver(chip: chip, transport: transport) }
        if spec.desfire != nil { return DESFireNDEFDriver(transport: transport) }
        if spec.family == .type4 {
            return Type4NDEFDriver(transport: transport)
        }
        throw .unsupportedTag(reason: "\(spec.product): no NDEF driver for the \(spec.family.rawValue) family yet")
    }
}
