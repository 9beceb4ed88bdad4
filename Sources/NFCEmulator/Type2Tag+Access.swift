import NFCChips

/// Configuration, lock bits and the access rules of the NTAG21x / Ultralight data sheets.
extension Type2Tag {
    /// The static lock layout shared by the family (``NFCChips/Type2Spec/staticLock``).
    var staticLockLayout: StaticLockLayout { ChipTables.type2.staticLock }

    /// The 16-bit static lock value: lock byte 0 | lock byte 1 << 8.
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

    /// Whether reads at or past AUTH0 need authentication too: PROT = 1 on NTAG21x / EV1,
    /// AUTH1 = 0 on Ultralight C.
    var protectsReads: Bool {
        if let prot = configuration(.prot) { return prot == 1 }
        if let auth1 = configuration(.auth1) { return auth1 == 0 }
        return false
    }

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
        if let bit = staticLockLayout.lockBit(forPage: page), staticLockBits & (1 << bit) != 0 { return true }
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
        guard page >= memoryMap.firstWritablePage, page <= memoryMap.lastPage else {
            return Type2Acknowledgement.invalidArgument
        }
        if isLocked(page) || isConfigurationLocked(page) || isProtected(page) {
            return Type2Acknowledgement.invalidArgument
        }
        return nil
    }

    /// The bytes a WRITE of `data` to `page` leaves in memory: OR-written pages (lock bytes,
    /// CC, dynamic lock) keep their set bits, and lock bits frozen by block-lock bits stay.
    func programmedBytes(_ data: [UInt8], page: Int) -> [UInt8] {
        var bytes = Array(data.prefix(memoryMap.pageSize))
        let old = self.page(page)
        guard memoryMap.isORWritePage(page) else { return bytes }
        bytes = zip(old, bytes).map { $0 | $1 }
        let lock = memoryMap.staticLock
        if page == lock.page {
            // Only the lock bytes change; UID check bytes stay.
            var merged = old
            let current = staticLockBits
            let wanted = Int(bytes[lock.byte]) | Int(bytes[lock.byte + 1]) << 8
            let result = current | (wanted & ~frozenStaticLockBits)
            merged[lock.byte] = UInt8(result & 0xFF)
            merged[lock.byte + 1] = UInt8(result >> 8)
            return merged
        }
        if let dynamic = memoryMap.dynamicLock, page == dynamic.page {
            // Lock bits whose block-lock bit is set do not change.
            for lockBit in 0..<dynamic.lockBitCount {
                guard let freezer = dynamic.blockLockBit(freezingLockBit: lockBit),
                    old[freezer.byte] & freezer.mask != 0
                else { continue }
                let byte = lockBit / 8
                let mask = UInt8(1) << UInt8(lockBit % 8)
                bytes[byte] = (bytes[byte] & ~mask) | (old[byte] & mask)
            }
        }
        return bytes
    }

    /// Stores `data` in `page` with the rules of ``programmedBytes(_:page:)``.
    mutating func program(_ data: [UInt8], page: Int) {
        setPage(page, to: programmedBytes(data, page: page))
    }

    /// Static lock bits that block-lock bits have frozen (BL-CC, BL 9-4, BL 15-10).
    var frozenStaticLockBits: Int {
        let bits = staticLockBits
        var frozen = 0
        for blockLock in staticLockLayout.blockLockBits where bits & (1 << blockLock.bit) != 0 {
            for page in blockLock.firstPage...blockLock.lastPage {
                if let bit = staticLockLayout.lockBit(forPage: page) { frozen |= 1 << bit }
            }
        }
        return frozen
    }

    /// EEPROM time for `pages` pages, from the chip's timing table.
    func programmingTime(pages: Int) -> Duration {
        guard let timing = spec.timing else { return .zero }
        return .microseconds(Int(timing.eepromWriteMsPerPage * 1000) * pages)
    }
}
