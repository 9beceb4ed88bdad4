import NFCChips

/// The configuration pages of an NTAG21x, Ultralight EV1 or Ultralight C decoded into
/// typed fields (MIRROR, STRG_MOD_EN, AUTH0, PROT, CFGLCK, NFC_CNT_EN, NFC_CNT_PWD_PROT,
/// AUTHLIM, VCTID; AUTH1 on Ultralight C), with the pages as read kept so that RFUI bits
/// survive a write-back. Fields and pages come from the chip's table; a field the chip
/// lacks reads as `nil`.
///
/// ```swift
/// var config = try await tag.readConfiguration()
/// config.isNFCCounterEnabled          // false
/// config.isNFCCounterEnabled = true
/// try await tag.writeConfiguration(config)   // writes only CFG1
/// ```
public struct Type2Configuration: Sendable, Hashable {
    /// The chip.
    public let chip: Chip
    /// The configuration pages as read (page → 4 bytes).
    package let pages: [Int: [UInt8]]
    /// Every field's value, shifted down to bit 0.
    package var values: [ConfigurationFieldName: UInt8]

    /// Decodes `pages` (every configuration page of `chip`, 4 bytes each).
    package init(chip: Chip, pages: [Int: [UInt8]]) throws(TagCommandError) {
        let spec = ChipTables.spec(for: chip)
        guard let configuration = spec.memory?.configuration, let pageSize = spec.memory?.pageSize else {
            throw .featureNotSupported(feature: "configuration pages", chip: chip)
        }
        var values: [ConfigurationFieldName: UInt8] = [:]
        for field in configuration.fields {
            guard let bytes = pages[field.page], bytes.count == pageSize, let value = field.value(in: bytes) else {
                throw .invalidArgument(
                    "configuration page \(field.page) (\(field.name.rawValue)) missing or not \(pageSize) bytes")
            }
            values[field.name] = value
        }
        self.chip = chip
        self.pages = pages.filter { configuration.pages.contains($0.key) }
        self.values = values
    }

    /// The configuration as the chip ships it (factory pages and field defaults).
    public static func factoryDefault(for chip: Chip) throws(TagCommandError) -> Type2Configuration {
        let spec = ChipTables.spec(for: chip)
        guard let memory = spec.memory, let configuration = memory.configuration else {
            throw .featureNotSupported(feature: "configuration pages", chip: chip)
        }
        var pages: [Int: [UInt8]] = [:]
        for page in configuration.pages {
            pages[page] = memory.factoryContent(ofPage: page) ?? [UInt8](repeating: 0, count: memory.pageSize)
        }
        for field in configuration.fields {
            pages[field.page] = field.setting(field.defaultValue, in: pages[field.page] ?? [])
        }
        return try Type2Configuration(chip: chip, pages: pages)
    }

    private var spec: ConfigurationSpec? { ChipTables.spec(for: chip).memory?.configuration }

    private func flag(_ name: ConfigurationFieldName) -> Bool? { values[name].map { $0 != 0 } }
    private mutating func setFlag(_ name: ConfigurationFieldName, _ value: Bool?) {
        values[name] = value.map { $0 ? 1 : 0 }
    }

    /// AUTH0: the first protected page (past the last page: no protection).
    public var auth0: Int? {
        get { values[.auth0].map(Int.init) }
        set { values[.auth0] = newValue.flatMap { UInt8(exactly: $0) } }
    }
    /// AUTH1 (Ultralight C): 1 = only writes need authentication, 0 = reads and writes.
    public var auth1: UInt8? {
        get { values[.auth1] }
        set { values[.auth1] = newValue }
    }
    /// PROT: reads at or above AUTH0 need the password too.
    public var isReadProtected: Bool? {
        get { flag(.prot) }
        set { setFlag(.prot, newValue) }
    }
    /// CFGLCK: the configuration pages are permanently write-locked.
    public var isConfigurationLocked: Bool? {
        get { flag(.cfgLock) }
        set { setFlag(.cfgLock, newValue) }
    }
    /// NFC_CNT_EN: the NFC read counter counts.
    public var isNFCCounterEnabled: Bool? {
        get { flag(.nfcCounterEnable) }
        set { setFlag(.nfcCounterEnable, newValue) }
    }
    /// NFC_CNT_PWD_PROT: READ_CNT needs PWD_AUTH.
    public var isNFCCounterPasswordProtected: Bool? {
        get { flag(.nfcCounterPasswordProtect) }
        set { setFlag(.nfcCounterPasswordProtect, newValue) }
    }
    /// AUTHLIM: wrong passwords allowed before a permanent lock (0 = unlimited).
    public var authenticationLimit: Int? {
        get { values[.authLimit].map(Int.init) }
        set { values[.authLimit] = newValue.flatMap { UInt8(exactly: $0) } }
    }
    /// STRG_MOD_EN: strong modulation.
    public var isStrongModulationEnabled: Bool? {
        get { flag(.strongModulation) }
        set { setFlag(.strongModulation, newValue) }
    }
    /// MIRROR_CONF: 0 no mirror, 1 UID, 2 NFC counter, 3 both (NTAG21x).
    public var mirrorConfiguration: UInt8? {
        get { values[.mirrorConf] }
        set { values[.mirrorConf] = newValue }
    }
    /// MIRROR_BYTE: start byte inside MIRROR_PAGE (NTAG21x).
    public var mirrorByte: UInt8? {
        get { values[.mirrorByte] }
        set { values[.mirrorByte] = newValue }
    }
    /// MIRROR_PAGE: page where the ASCII mirror starts (NTAG21x).
    public var mirrorPage: Int? {
        get { values[.mirrorPage].map(Int.init) }
        set { values[.mirrorPage] = newValue.flatMap { UInt8(exactly: $0) } }
    }
    /// VCTID (Ultralight EV1): the VCSL answer.
    public var vctid: UInt8? {
        get { values[.vctid] }
        set { values[.vctid] = newValue }
    }

    /// Whether AUTH0 lies inside the memory, i.e. some pages need the password.
    public var isProtectionActive: Bool {
        guard let auth0, let memory = ChipTables.spec(for: chip).memory else { return false }
        return auth0 <= memory.lastPage
    }

    /// Every configuration page with the current ``values`` encoded into the bytes as read.
    package func encodedPages() throws(TagCommandError) -> [Int: [UInt8]] {
        guard let spec else { throw .featureNotSupported(feature: "configuration pages", chip: chip) }
        var result = pages
        for (name, value) in values {
            guard let field = spec.field(name) else {
                throw .featureNotSupported(feature: name.rawValue, chip: chip)
            }
            let shift = UInt8(field.mask.trailingZeroBitCount)
            guard (value << shift) >> shift == value, (value << shift) & ~field.mask == 0 else {
                throw .invalidArgument("\(name.rawValue) = \(value) does not fit its field (mask \(field.mask))")
            }
            result[field.page] = field.setting(value, in: result[field.page] ?? [])
        }
        return result
    }

    /// The fields whose values differ from `other` (`other`'s value first).
    package func changes(from other: Type2Configuration) -> [ConfigurationChange] {
        values.keys.sorted { $0.rawValue < $1.rawValue }.compactMap { name in
            guard let new = values[name], let old = other.values[name], new != old else { return nil }
            return ConfigurationChange(field: name, from: old, to: new)
        }
    }

    /// The irreversible changes going from `current` to this configuration: CFGLCK turned
    /// on, or a finite AUTHLIM set.
    package func irreversibleChanges(from current: Type2Configuration) -> [IrreversibleChange] {
        var result: [IrreversibleChange] = []
        if isConfigurationLocked == true, current.isConfigurationLocked != true { result.append(.configurationLock) }
        if let limit = authenticationLimit, limit != 0, limit != current.authenticationLimit {
            result.append(.authenticationLimit(limit))
        }
        return result
    }
}

/// One configuration field that changes.
public struct ConfigurationChange: Sendable, CustomStringConvertible {
    /// The field.
    package var field: ConfigurationFieldName
    /// Its value now.
    public var from: UInt8
    /// Its value after the change.
    public var to: UInt8

    /// A change of `field` from one value to another.
    package init(field: ConfigurationFieldName, from: UInt8, to: UInt8) {
        self.field = field
        self.from = from
        self.to = to
    }

    /// `AUTH0: 255 → 4`.
    /// The field's name in the datasheet (`AUTH0`, `PROT`, …).
    public var name: String { field.rawValue }

    public var description: String { "\(field.rawValue): \(from) → \(to)" }
}
