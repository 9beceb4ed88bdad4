import NFCChips

/// Configuration, lock bits and the access rules of the NTAG21x / Ultralight data sheets.
extension Type2Tag {
    /// Bits of the 16-bit static lock value (lock byte 0 | lock byte 1 << 8): bit p locks
    /// page p for p = 3…15; bits 0–2 are the block-lock bits (BL-CC, BL 9-4, BL 15-10).
    var staticLockBits: Int {
        let address = memoryMap.staticLock.byteAddress(pageSize: memoryMap.pageSize)
        return Int(memory[address]) | Int(memory[address + 1]) << 8
    }

    /// The value of configuration field `name`, or `nil` when the chip has none.
    func configuration(_ name: ConfigurationFieldName) -> UInt8? {
        guard let field = memoryMap.configuration?.field(name) else { return nil }
        return field.value(in: page(field.page))
    }

    /// The first page the password protects (AUTH0), or `nil` when the chip has no password.
    var auth0: Int? { configuration(.auth0).map(Int.init) }

    /// Whether reads at or past AUTH0 need the password too (PROT = 1).
    var protectsReads: Bool { configuration(.prot) == 1 }

    /// Whether the page lies in the password-protected area and no PWD_AUTH was done.
    func isProtected(_ page: Int) -> Bool {
        guard let auth0, !isAuthenticated else { return false }
        return page >= auth0
    }

    /// Whether READ of `page` is refused: past the readable end, or protected with PROT = 1.
    func isReadDenied(_ page: Int) -> Bool {
        page > memoryMap.lastReadablePage || (protectsReads && isProtected(page))
    }

    /// Whether a READ / FAST_READ shows `page` as zeros (PWD, PACK).
    func readsAsZero(_ page: Int) -> Bool {
        guard let password = memoryMap.configuration?.password, password.readsAsZero else { return false }
        return page == password.pwdPage || page == password.packPage
    }

    /// Whether a lock bit makes `page` read-only.
    func isLocked(_ page: Int) -> Bool {
        if page >= memoryMap.capabilityContainer.page, page < 16, page < Int.bitWidth,
           staticLockBits & (1 << page) != 0 { return true }
        if let dynamic = memoryMap.dynamicLock, let bit = dynamic.lockBit(forPage: page) {
            return memory[dynamic.page * memoryMap.pageSize + bit.byte] & bit.mask != 0
        }
        return false
    }

    /// Whether CFGLCK freezes `page` (CFG0 / CFG1; PWD and PACK stay writable).
    func isConfigurationLocked(_ page: Int) -> Bool {
        guard let configuration = memoryMap.configuration, self.configuration(.cfgLock) == 1 else { return false }
        return page == configuration.cfg0Page || page == configuration.cfg1Page
    }

    /// The NAK code a WRITE or COMPATIBILITY_WRITE of `page` gets, or `nil` when allowed.
    func writeRefusal(_ page: Int) -> UInt8? {
        guard page >= memoryMap.firstWritablePage, page <= memoryMap.lastPage else { return Type2Acknowledgement.invalidArgument }
        if isLocked(page) || isConfigurationLocked(page) || isProtected(page) { return Type2Acknowledgement.invalidArgument }
        return nil
    }

    /// Stores `data` in `page`, ORing where the data sheet says so (lock bytes, CC, dynamic
    /// lock), and honours the block-lock bits that freeze static lock bits.
    mutating func program(_ data: [UInt8], page: Int) {
        var bytes = Array(data.prefix(memoryMap.pageSize))
        let old = self.page(page)
        if memoryMap.isORWritePage(page) {
            bytes = zip(old, bytes).map { $0 | $1 }
            let lock = memoryMap.staticLock
            if page == lock.page {
                // Only the lock bytes change; UID check bytes stay. Block-lock bits freeze lock bits.
                var merged = old
                let frozen = frozenStaticLockBits
                let current = staticLockBits
                let wanted = Int(bytes[lock.byte]) | Int(bytes[lock.byte + 1]) << 8
                let result = current | (wanted & ~frozen)
                merged[lock.byte] = UInt8(result & 0xFF)
                merged[lock.byte + 1] = UInt8(result >> 8)
                bytes = merged
            }
        }
        setPage(page, to: bytes)
    }

    /// Static lock bits that block-lock bits have frozen: BL-CC (bit 0) freezes L-CC (bit 3),
    /// BL 9-4 (bit 1) freezes L4–L9, BL 15-10 (bit 2) freezes L10–L15.
    var frozenStaticLockBits: Int {
        let bits = staticLockBits
        var frozen = 0
        if bits & 0b001 != 0 { frozen |= 1 << 3 }
        if bits & 0b010 != 0 { frozen |= (4...9).reduce(0) { $0 | 1 << $1 } }
        if bits & 0b100 != 0 { frozen |= (10...15).reduce(0) { $0 | 1 << $1 } }
        return frozen
    }

    /// EEPROM time for `pages` pages, from the chip's timing table.
    func programmingTime(pages: Int) -> Duration {
        guard let timing = spec.timing else { return .zero }
        return .microseconds(Int(timing.eepromWriteMsPerPage * 1000) * pages)
    }
}
