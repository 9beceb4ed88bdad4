import NFCTagKit

/// The physical floor of each benchmarked operation: the fewest commands the chip allows,
/// priced by ``PhysicalFloor``. Pure: inputs are sizes and page counts, never our library.
///
/// ```swift
/// let floors = try OperationFloors(chip: .ntag216)
/// floors.readNDEF(messageBytes: 100).commands   // 2: READ of the CC page, one FAST_READ
/// ```
struct OperationFloors: Sendable {
    /// A chip without the tables an operation needs.
    struct MissingTable: Error, CustomStringConvertible {
        var description: String
    }

    let floor: PhysicalFloor
    let spec: ChipSpec
    let memory: MemoryMap
    let eepromMsPerPage: Double

    init(chip: Chip, floor: PhysicalFloor = PhysicalFloor()) throws(MissingTable) {
        self.floor = floor
        spec = ChipTables.spec(for: chip)
        guard let memory = spec.memory else { throw MissingTable(description: "\(chip.rawValue) has no page map") }
        guard let timing = spec.timing else { throw MissingTable(description: "\(chip.rawValue) has no EEPROM timing") }
        self.memory = memory
        eepromMsPerPage = timing.eepromWriteMsPerPage
    }

    private var pageSize: Int { memory.pageSize }
    private var ccPage: Int { memory.capabilityContainer.page }
    private var fastReadPages: Int { floor.maximumFastReadPages(pageSize: pageSize) }

    /// Bytes of the NDEF TLV holding a message of `messageBytes` (1- or 3-byte length).
    static func tlvBytes(messageBytes: Int) -> Int {
        messageBytes + (messageBytes < 0xFF ? 2 : 4)
    }

    /// READ (2 bytes) → 4 pages.
    var read: FloorCost { floor.tagCommand(request: 2, answer: .bytes(4 * pageSize)) }

    /// FAST_READ of `pages` pages, split at the frame limit.
    func fastRead(pages: Int) -> FloorCost {
        var cost = FloorCost.zero
        var left = pages
        while left > 0 {
            let chunk = min(left, fastReadPages)
            cost += floor.tagCommand(request: 3, answer: .bytes(chunk * pageSize))
            left -= chunk
        }
        return cost
    }

    /// WRITE of `pages` pages, one ACK and one EEPROM cycle each.
    func write(pages: Int) -> FloorCost {
        floor.tagCommand(
            request: 2 + pageSize, answer: .acknowledgement, programmedPages: 1,
            eepromMsPerPage: eepromMsPerPage
        ).times(pages)
    }

    /// Reading the TLV area from the CC on: one READ at the CC page (the CC and the first
    /// three data pages), then FAST_READ of the rest of `tlvBytes`.
    func readFromCapabilityContainer(tlvBytes: Int) -> FloorCost {
        let firstData = 3 * pageSize
        let rest = max(0, tlvBytes - firstData)
        return read + fastRead(pages: (rest + pageSize - 1) / pageSize)
    }

    /// Activation and GET_VERSION (the ATQA / SAK of a Type 2 tag do not tell NTAG216 from
    /// NTAG213).
    func identify() -> FloorCost {
        floor.activation(uidLength: spec.activation.uidLength) + getVersion
    }

    /// GET_VERSION (1 byte) → 8 bytes.
    var getVersion: FloorCost { floor.tagCommand(request: 1, answer: .bytes(8)) }

    /// Reading a message of `messageBytes`: the CC and the TLV, nothing else.
    func readNDEF(messageBytes: Int) -> FloorCost {
        readFromCapabilityContainer(tlvBytes: Self.tlvBytes(messageBytes: messageBytes))
    }

    /// Writing when the tag holds `oldTLVBytes` of TLV and `changedPages` pages of the new
    /// image differ from the old one: the CC and the old TLV are read (to skip the pages
    /// that stay), then each changed page is written once. No tear safety, no verification:
    /// those are what the 1.2× target pays for.
    func writeNDEF(oldTLVBytes: Int, changedPages: Int) -> FloorCost {
        readFromCapabilityContainer(tlvBytes: oldTLVBytes) + write(pages: changedPages)
    }

    /// The tear-safe floor of the same write: the plain floor, plus the writes that keep a
    /// torn write from leaving a half-new message (the length cleared before the message
    /// pages and committed alone after them: 2 WRITEs, or 1 on a tag that already reads
    /// empty, `lengthAlreadyZero`), plus a read-back of the pages written: priced as one
    /// FAST_READ run, or, given the page numbers (`pagesWritten`), as the cheapest FAST_READs
    /// that cover them (``readBack(pages:)``: pages far apart take a command each). A
    /// one-page change: 3 WRITEs and a 2-page read-back where the plain floor has one WRITE.
    func safeWriteNDEF(
        oldTLVBytes: Int, changedPages: Int, lengthAlreadyZero: Bool, lengthPageChanged: Bool,
        pagesWritten: [Int]? = nil
    ) -> FloorCost {
        let tearSafetyWrites = lengthAlreadyZero ? 1 : 2
        let readBack = pagesWritten.map(readBack(pages:)) ?? fastRead(pages: changedPages + (lengthPageChanged ? 0 : 1))
        return writeNDEF(oldTLVBytes: oldTLVBytes, changedPages: changedPages) + write(pages: tearSafetyWrites)
            + readBack
    }

    /// The cheapest FAST_READs that return every page of `pages`: one command per run of
    /// pages, or one across a gap when reading the gap costs less than another command.
    func readBack(pages: [Int]) -> FloorCost {
        let sorted = Array(Set(pages)).sorted()
        guard !sorted.isEmpty else { return .zero }
        // best[i]: the cheapest cover of the first i pages; the last command reads sorted[j]…sorted[i - 1].
        var best = [FloorCost.zero]
        for end in 1...sorted.count {
            best.append(
                (0..<end).map { start in best[start] + fastRead(pages: sorted[end - 1] - sorted[start] + 1) }
                    .min { $0.seconds < $1.seconds }!)
        }
        return best[sorted.count]
    }

    /// Every readable page, by FAST_READ.
    func dump() -> FloorCost {
        fastRead(pages: memory.lastReadablePage + 1)
    }

    /// Password protection from a page, PROT and AUTHLIM left at 0: one READ of CFG0…PACK
    /// (CFG0's other bytes must be kept), WRITE of PWD, PACK and CFG0 (AUTH0 last).
    func protect() -> FloorCost {
        read + write(pages: 3)
    }

    /// Provisioning `tags` tags: each is activated and written fresh (as ``writeNDEF(oldTLVBytes:changedPages:)``).
    func provision(tags: Int, oldTLVBytes: Int, changedPages: Int) -> FloorCost {
        (floor.activation(uidLength: spec.activation.uidLength)
            + writeNDEF(oldTLVBytes: oldTLVBytes, changedPages: changedPages)).times(tags)
    }

    /// The tear-safe floor of the same provisioning: per tag the activation and the
    /// tear-safe fresh write (``safeWriteNDEF(oldTLVBytes:changedPages:lengthAlreadyZero:lengthPageChanged:pagesWritten:)``:
    /// a factory tag reads empty, so the length is committed alone once, and the length page
    /// is among the pages written), with its read-back of the pages written.
    func safeProvision(tags: Int, oldTLVBytes: Int, changedPages: Int) -> FloorCost {
        (floor.activation(uidLength: spec.activation.uidLength)
            + safeWriteNDEF(
                oldTLVBytes: oldTLVBytes, changedPages: changedPages,
                lengthAlreadyZero: true, lengthPageChanged: true)).times(tags)
    }

    /// The least any provisioning can cost that keeps the promises a write makes here: the
    /// tear-safe floor (``safeProvision(tags:oldTLVBytes:changedPages:)``) plus, per tag,
    /// - the search that proves the tag alone in the field (``PhysicalFloor/secondTagSearch(uidLength:)``:
    ///   the session refuses to write when two tags are present);
    /// - GET_VERSION: the session reports each tag's chip, and only the chip's map says where
    ///   its configuration is;
    /// - a FAST_READ of the one configuration page holding AUTH0: a password-protected tag is
    ///   refused before anything is written.
    ///
    /// Nothing else: no CRC switching, no ANTICOLLISION in the search, the rest of the
    /// configuration unread.
    func provisionSafetyBound(tags: Int, oldTLVBytes: Int, changedPages: Int) -> FloorCost {
        safeProvision(tags: tags, oldTLVBytes: oldTLVBytes, changedPages: changedPages)
            + (floor.secondTagSearch(uidLength: spec.activation.uidLength) + getVersion + fastRead(pages: 1)).times(
                tags)
    }
}

/// The floor of dumping a MIFARE Classic card: per sector one authentication and a READ
/// (InDataExchange `Tg 30 block`, 16 bytes back) of every block.
struct ClassicDumpFloor: Sendable {
    static func cost(chip: Chip, floor: PhysicalFloor = PhysicalFloor()) -> FloorCost? {
        guard let geometry = ChipTables.spec(for: chip).classicGeometry else { return nil }
        let readBlock = floor.command(
            dataOut: 3, dataIn: 1 + geometry.blockSize,
            airSeconds: floor.airFrameWithCRC(2) + floor.timing.frameDelayTimeSeconds
                + floor.airFrameWithCRC(geometry.blockSize))
        var cost = FloorCost.zero
        for group in geometry.sectorGroups {
            cost += (floor.classicAuthentication() + readBlock.times(group.blocksPerSector)).times(group.sectorCount)
        }
        return cost
    }
}
