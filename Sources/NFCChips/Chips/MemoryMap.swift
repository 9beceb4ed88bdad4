/// The page memory of a Type 2 chip (NTAG21x, Ultralight family).
///
/// ```swift
/// let memory = ChipTables.spec(for: .ntag213).memory!
/// memory.userPages                       // 4...39
/// memory.capabilityContainer.page        // 3
/// memory.configuration?.auth0Page        // 0x29
/// memory.dynamicLock?.page               // 0x28
/// ```
package struct MemoryMap: Codable, Equatable, Sendable {
    /// Bytes per page (4).
    package var pageSize: Int
    /// Pages in the chip (`lastPage + 1`).
    package var pageCount: Int
    /// The first user (NDEF data area) page.
    @Hex package var firstUserPage: Int
    /// The last user page.
    @Hex package var lastUserPage: Int
    /// The highest page READ accepts (UL-C: keys above it are never readable).
    @Hex package var lastReadablePage: Int
    /// The lowest page WRITE accepts (pages below are read-only UID).
    @Hex package var firstWritablePage: Int
    /// Bytes of the UID, BCCs and internal byte.
    package var identification: [MemoryField]
    /// The two static lock bytes (page 2, bytes 2–3).
    package var staticLock: MemoryField
    /// The capability container page and its factory value.
    package var capabilityContainer: CapabilityContainerSpec
    /// The dynamic lock bytes, if the chip has more than 16 pages of user memory.
    package var dynamicLock: DynamicLockSpec?
    /// Configuration pages (AUTH0, ACCESS, …), if any.
    package var configuration: ConfigurationSpec?
    /// Pages whose WRITE ORs the new bits into the old (one-way bits).
    @Hex package var orWritePages: [UInt8]
    /// Factory content of pages that ship with a known value.
    package var factoryPages: [PageContent]
    /// Pages whose WRITE is tearing-protected: a write cut short by the field, even inside
    /// its EEPROM cycle, leaves the whole old or the whole new content, never a mix
    /// (NTAG21x: pages 2, 3 and the dynamic lock page — NTAG213F/216F data sheet Rev. 3.1
    /// §10.5; `nil`: the chip lists none, so any page may be left with mixed bits).
    @Hex package var tearingProtectedPages: [UInt8]?
    /// Where the map comes from.
    package var source: DatasheetSource

    /// The user pages as a range.
    package var userPages: ClosedRange<Int> { firstUserPage...lastUserPage }
    /// The user memory in bytes.
    package var userBytes: Int { (lastUserPage - firstUserPage + 1) * pageSize }
    /// The last page of the chip.
    package var lastPage: Int { pageCount - 1 }
    /// The total memory in bytes.
    package var totalBytes: Int { pageCount * pageSize }

    /// The factory content of `page`, if the table knows it.
    package func factoryContent(ofPage page: Int) -> [UInt8]? {
        factoryPages.first { $0.page == page }?.bytes
    }

    /// Whether a WRITE to `page` is tearing-protected (old or new content, never a mix).
    package func isTearingProtected(_ page: Int) -> Bool {
        tearingProtectedPages?.contains { Int($0) == page } ?? false
    }

    /// Whether a WRITE to `page` ORs its bits into the stored ones.
    package func isORWritePage(_ page: Int) -> Bool {
        orWritePages.contains { Int($0) == page }
    }
}

/// A run of bytes at a page address.
package struct MemoryField: Codable, Equatable, Sendable {
    /// What the bytes are, e.g. `BCC0`, `LOCK0-1`.
    package var name: String
    /// The page.
    @Hex package var page: Int
    /// The first byte inside the page (0–3).
    package var byte: Int
    /// The number of bytes.
    package var length: Int
    /// The value the chip ships with in these bytes, when the tables know it (the NTAG21x
    /// "internal" byte `48`); `nil` for bytes that are per chip (UID, BCC) or unknown.
    @Hex package var factoryValue: [UInt8]?
    /// Present when the value is less certain than the memory map's source.
    package var caveat: DatasheetCaveat?

    /// The byte offset from the start of memory.
    package func byteAddress(pageSize: Int) -> Int { page * pageSize + byte }
}

/// The factory content of one page.
package struct PageContent: Codable, Equatable, Sendable {
    /// The page.
    @Hex package var page: Int
    /// Its bytes.
    @Hex package var bytes: [UInt8]
    /// What it is.
    package var meaning: String
    /// Present when the value is less certain than the memory map's source.
    package var caveat: DatasheetCaveat?
}

/// The capability container page of a Type 2 chip.
package struct CapabilityContainerSpec: Codable, Equatable, Sendable {
    /// The CC page (3).
    @Hex package var page: Int
    /// The CC as shipped (`E1 10 12 00` on NTAG213); `00 00 00 00` on unformatted chips.
    @Hex package var factoryValue: [UInt8]
    /// The NDEF data-area size CC2 × 8 announces, in bytes (0 when unformatted).
    package var dataAreaBytes: Int
    /// Present when the factory value is less certain than the memory map's source.
    package var caveat: DatasheetCaveat?
}
