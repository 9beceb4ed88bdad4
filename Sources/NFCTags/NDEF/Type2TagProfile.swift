import NFCChips

/// What the Type 2 NDEF driver needs to know about one chip: its memory map, lock
/// layout, password configuration and commands, taken from the chip tables.
struct Type2TagProfile: Sendable, Equatable {
    /// The chip's product name, for messages.
    var product: String
    /// Bytes per page (4).
    var pageSize: Int
    /// Pages in the chip.
    var pageCount: Int
    /// The first and last user page (the NDEF data area lies inside them).
    var firstUserPage: Int
    var lastUserPage: Int
    /// The capability container page (3).
    var capabilityContainerPage: Int
    /// The static lock bytes: page and first byte (page 2, bytes 2–3).
    var staticLockPage: Int
    var staticLockByte: Int
    /// The dynamic lock bytes, when the chip has them.
    var dynamicLock: DynamicLock?
    /// Pages whose write the chip protects against tearing (old or new, never a mix).
    var tearingProtectedPages: Set<Int>
    /// Password or key protection (AUTH0), when the chip has it.
    var protection: Protection?
    /// The CC a format writes when the chip ships without one (`E1 10 size 00`).
    var factoryCapabilityContainer: [UInt8]
    /// Factory content of the data-area pages (e.g. NTAG213's Lock Control TLV), by page.
    var factoryDataPages: [Int: [UInt8]]
    /// Command codes and timeouts.
    var read: Command
    var fastRead: Command?
    var write: Command

    /// One command: its code and how long the chip may take.
    struct Command: Sendable, Equatable {
        var code: UInt8
        var timeout: Duration
    }

    /// Dynamic lock bits: `lockBitCount` bits from bit 0 of the first byte, each locking
    /// `pagesPerLockBit` pages from `firstLockedPage`.
    struct DynamicLock: Sendable, Equatable {
        var page: Int
        var byteCount: Int
        var firstLockedPage: Int
        var lastLockedPage: Int
        var pagesPerLockBit: Int
        var lockBitCount: Int
        var lockAllValue: [UInt8]
        /// The block-lock bits among the lock bytes (set bits), as far as the tables know them.
        var blockLockBits: [UInt8]

        /// The (byte, mask) of the lock bit covering `page`, or `nil`.
        func lockBit(forPage page: Int) -> (byte: Int, mask: UInt8)? {
            guard page >= firstLockedPage, page <= lastLockedPage, pagesPerLockBit > 0 else { return nil }
            let bit = (page - firstLockedPage) / pagesPerLockBit
            guard bit < lockBitCount else { return nil }
            return (bit / 8, UInt8(1) << UInt8(bit % 8))
        }
    }

    /// AUTH0 and the field that says whether reads are protected too.
    struct Protection: Sendable, Equatable {
        /// Where AUTH0 is (the first protected page).
        var auth0Page: Int
        var auth0Byte: Int
        /// The read-protection field (NTAG / EV1 PROT, UL-C AUTH1).
        var readProtectionPage: Int
        var readProtectionByte: Int
        var readProtectionMask: UInt8
        /// Whether reads are protected when the field is set (PROT) or when it is clear (AUTH1).
        var readsProtectedWhenSet: Bool

        /// Whether the field value in `byte` means reads need the password too.
        func readsProtected(_ byte: UInt8) -> Bool {
            ((byte & readProtectionMask) != 0) == readsProtectedWhenSet
        }
    }

    /// The pages the driver reads after the header: the dynamic lock page and the
    /// configuration pages.
    var configurationPages: [Int] {
        var pages: [Int] = []
        if let dynamicLock { pages.append(dynamicLock.page) }
        if let protection { pages += [protection.auth0Page, protection.readProtectionPage] }
        return Array(Set(pages)).sorted()
    }
}

extension Type2TagProfile {
    /// The profile of a Type 2 chip from its table, or `nil` for other families.
    init?(spec: ChipSpec, mapping: Type2Mapping) {
        guard spec.family.isType2, let memory = spec.memory,
            let readSpec = spec.command(.read), let writeSpec = spec.command(.write)
        else { return nil }
        let slowest = spec.commands.compactMap(\.timeoutMs).max() ?? 0
        func command(_ command: CommandSpec, fallback: Double?) -> Command {
            Command(code: command.code, timeout: .microseconds(Int((command.timeoutMs ?? fallback ?? slowest) * 1000)))
        }
        var protection: Protection?
        if let configuration = memory.configuration, let auth0Page = configuration.auth0Page,
            let auth0Byte = configuration.auth0Byte
        {
            let prot = configuration.field(.prot)
            let auth1 = configuration.field(.auth1)
            if let field = prot ?? auth1 {
                protection = Protection(
                    auth0Page: auth0Page, auth0Byte: auth0Byte,
                    readProtectionPage: field.page, readProtectionByte: field.byte, readProtectionMask: field.mask,
                    readsProtectedWhenSet: prot != nil)
            }
        }
        let factoryCC = memory.capabilityContainer.factoryValue
        self.init(
            product: spec.product,
            pageSize: memory.pageSize,
            pageCount: memory.pageCount,
            firstUserPage: memory.firstUserPage,
            lastUserPage: memory.lastUserPage,
            capabilityContainerPage: memory.capabilityContainer.page,
            staticLockPage: memory.staticLock.page,
            staticLockByte: memory.staticLock.byte,
            dynamicLock: memory.dynamicLock.map { spec in
                var blockLockBits = [UInt8](repeating: 0, count: spec.byteCount)
                for lockBit in 0..<spec.lockBitCount {
                    if let (byte, mask) = spec.blockLockBit(freezingLockBit: lockBit), byte < blockLockBits.count {
                        blockLockBits[byte] |= mask
                    }
                }
                return DynamicLock(
                    page: spec.page, byteCount: spec.byteCount, firstLockedPage: spec.firstLockedPage,
                    lastLockedPage: spec.lastLockedPage, pagesPerLockBit: spec.pagesPerLockBit,
                    lockBitCount: spec.lockBitCount, lockAllValue: spec.lockAllValue, blockLockBits: blockLockBits)
            },
            tearingProtectedPages: Set((memory.tearingProtectedPages ?? []).map(Int.init)),
            protection: protection,
            factoryCapabilityContainer: factoryCC.first == mapping.magic
                ? factoryCC : mapping.formattedCapabilityContainer(memory.userBytes),
            factoryDataPages: Dictionary(
                memory.factoryPages.filter { memory.userPages.contains($0.page) }.map { ($0.page, $0.bytes) },
                uniquingKeysWith: { first, _ in first }),
            read: command(readSpec, fallback: nil),
            fastRead: spec.command(.fastRead).map { command($0, fallback: readSpec.timeoutMs) },
            write: command(writeSpec, fallback: nil)
        )
    }
}
