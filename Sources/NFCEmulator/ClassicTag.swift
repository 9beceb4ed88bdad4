import NFCChips

/// A MIFARE Classic 1K or 4K as a PN532 sees it, built from its ``NFCChips/ChipSpec``
/// (geometry, commands) and ``NFCChips/ChipTables/classic`` (trailer layout, access
/// conditions, value blocks, factory trailer).
///
/// The PN532 runs Crypto1; this model sees the plain frames after it. Authentication
/// (``authenticate(_:)``) opens one sector with key A or B; every READ, WRITE, INCREMENT,
/// DECREMENT, RESTORE and TRANSFER is then checked against that sector's access
/// conditions (MF1S50 Tables 7 and 8). Key A never reads back; key B only when the
/// trailer conditions say so, and a readable key B cannot open anything. Block 0 is
/// read-only. A refused command is NAKed and the card drops out of ACTIVE, losing its
/// authentication.
///
/// ```swift
/// var card = try ClassicTag(chip: .classic1k, uid: [0x11, 0x22, 0x33, 0x44])
/// card.authenticate(ClassicAuthentication(keyType: .a, block: 4, key: [UInt8](repeating: 0xFF, count: 6),
///                                         uid: [0x11, 0x22, 0x33, 0x44]))   // true
/// card.receive([0x30, 0x04])   // .bytes(16 zero bytes)
/// ```
public struct ClassicTag: EmulatedTag {
    /// Why a model could not be built.
    public enum ModelError: Error, Equatable, Sendable {
        /// The chip is not a MIFARE Classic.
        case notClassic(Chip)
        /// The UID does not have the length the chip's activation table asks for.
        case uidLength(expected: Int, got: Int)
    }

    /// The sector and key of the last successful authentication.
    public struct Session: Equatable, Sendable {
        /// The sector opened.
        public var sector: Int
        /// The key used.
        public var keyType: ClassicKeyType
    }

    /// The chip's tables.
    package let spec: ChipSpec
    let geometry: ClassicGeometry
    let classic: ClassicSpec
    /// The whole memory, `blockCount × 16` bytes, trailers with their real keys.
    public internal(set) var memory: [UInt8]
    /// UID, ATQA and SAK.
    public let identity: TagIdentity
    /// The open sector, or `nil` before authentication (and after any NAK or HLTA).
    public internal(set) var session: Session?
    /// A WRITE whose 16-byte second frame is awaited.
    var pendingWriteBlock: Int?
    /// An INCREMENT / DECREMENT / RESTORE whose 4-byte operand is awaited.
    var pendingValueOperation: (command: CommandName, block: Int)?
    /// The value register (transfer buffer) filled by INCREMENT / DECREMENT / RESTORE,
    /// with the address byte of the block it came from.
    var valueRegister: (value: Int32, address: UInt8)?

    /// A factory-fresh card: block 0 from the UID, transport trailers, zero data blocks.
    public init(chip: Chip, uid: [UInt8]) throws(ModelError) {
        let spec = ChipTables.spec(for: chip)
        guard spec.family == .mifareClassic, let geometry = spec.classicGeometry else { throw .notClassic(chip) }
        guard uid.count == spec.activation.uidLength else {
            throw .uidLength(expected: spec.activation.uidLength, got: uid.count)
        }
        self.spec = spec
        self.geometry = geometry
        self.classic = ChipTables.classic
        self.identity = TagIdentity(uid: uid, atqa: spec.activation.atqa, sak: spec.activation.sak)
        self.memory = Self.factoryMemory(spec: spec, geometry: geometry, classic: ChipTables.classic, uid: uid)
    }

    static func factoryMemory(spec: ChipSpec, geometry: ClassicGeometry, classic: ClassicSpec, uid: [UInt8]) -> [UInt8]
    {
        var memory = [UInt8](repeating: 0, count: geometry.totalBytes)
        var block0 = [UInt8](repeating: 0, count: geometry.blockSize)
        let values: [ClassicManufacturerFieldName: [UInt8]] = [
            .uid: uid, .bcc: [ChipTables.bcc(uid)], .sak: [spec.activation.sak], .atqa: spec.activation.atqaBytes,
        ]
        for field in classic.manufacturerBlock {
            guard let value = values[field.name] else { continue }  // manufacturer data stays zero
            for (offset, byte) in value.prefix(field.length).enumerated() { block0[field.offset + offset] = byte }
        }
        memory.replaceSubrange(0..<geometry.blockSize, with: block0)
        for sector in 0..<geometry.sectorCount {
            guard let trailer = geometry.trailerBlock(ofSector: sector) else { continue }
            let address = trailer * geometry.blockSize
            memory.replaceSubrange(address..<(address + geometry.blockSize), with: classic.factoryTrailer)
        }
        return memory
    }

    /// The 16 bytes of `block` as stored (keys included).
    public func block(_ block: Int) -> [UInt8] {
        let address = block * geometry.blockSize
        return Array(memory[address..<(address + geometry.blockSize)])
    }

    /// Overwrites a block directly, bypassing every rule (test set-up and fault injection).
    public mutating func setBlock(_ block: Int, to bytes: [UInt8]) {
        let address = block * geometry.blockSize
        memory.replaceSubrange(address..<(address + geometry.blockSize), with: bytes.prefix(geometry.blockSize))
    }

    /// Answers one frame (CRC_A stripped) while ACTIVE.
    public mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        if let block = pendingWriteBlock {
            pendingWriteBlock = nil
            return writeData(frame, block: block)
        }
        if let operation = pendingValueOperation {
            pendingValueOperation = nil
            return valueOperand(frame, operation: operation.command, block: operation.block)
        }
        guard let code = frame.first, let command = spec.command(code: code), frame.count == command.requestLength
        else {
            return .silence
        }
        let block = Int(frame[1])
        switch command.name {
        case .read: return read(block)
        case .write: return writeStart(block)
        case .increment, .decrement, .restore: return valueStart(command.name, block: block)
        case .transfer: return transfer(block)
        case .halt: return .halt
        default: return .silence  // AUTH without the PN532's Crypto1 is not modelled on air
        }
    }

    /// The PN532's Crypto1 authentication: the key must match the sector trailer's key A or B.
    public mutating func authenticate(_ request: ClassicAuthentication) -> Bool {
        pendingWriteBlock = nil
        pendingValueOperation = nil
        session = nil
        guard request.block >= 0, request.block < geometry.blockCount,
            request.uid == Array(identity.uid.suffix(request.uid.count)), request.uid.count == 4,
            let sector = geometry.sector(ofBlock: request.block),
            let trailer = geometry.trailerBlock(ofSector: sector),
            classic.trailer[request.keyType == .a ? .keyA : .keyB].bytes(in: block(trailer)) == request.key
        else { return false }
        session = Session(sector: sector, keyType: request.keyType)
        return true
    }

    /// The RF field went off: volatile state is lost.
    public mutating func fieldReset() {
        leaveActiveState()
        valueRegister = nil
    }

    /// The tag left ACTIVE: authentication and half-done commands are forgotten.
    public mutating func leaveActiveState() {
        session = nil
        pendingWriteBlock = nil
        pendingValueOperation = nil
    }
}
