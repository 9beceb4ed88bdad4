import NFCChips

/// A tag of the NTAG21x / MIFARE Ultralight family (NTAG213/215/216, Ultralight,
/// Ultralight EV1), built entirely from its ``NFCChips/ChipSpec``: memory map, factory
/// content, lock bytes, configuration pages, password, counters and command set.
///
/// The model follows the data sheet rules the project reference lists: READ roll-over,
/// FAST_READ range checks, WRITE and COMPATIBILITY_WRITE with static and dynamic lock
/// bits and OR-written pages, the CC as OTP, AUTH0 / PROT / CFGLCK, PWD_AUTH with AUTHLIM
/// counting to a permanent lock-out, and the NFC counter.
///
/// ```swift
/// var tag = try Type2Tag(chip: .ntag215, uid: [0x04, 0x47, 0x5E, 0xD2, 0x9C, 0x39, 0x80])
/// tag.receive([0x30, 0x00])   // .bytes(UID, BCC, internal, lock, CC …)
/// ```
public struct Type2Tag: EmulatedTag {
    /// Why a model could not be built.
    public enum ModelError: Error, Equatable, Sendable {
        /// The chip is not a page-memory chip of this family.
        case notType2(Chip)
        /// The UID does not have the length the chip's activation table asks for.
        case uidLength(expected: Int, got: Int)
    }

    /// The chip's tables.
    package let spec: ChipSpec
    let memoryMap: MemoryMap
    /// The whole page memory, `pageCount × pageSize` bytes.
    public internal(set) var memory: [UInt8]
    /// The 32-byte originality signature READ_SIG returns.
    public var signature: [UInt8]
    /// UID, ATQA and SAK.
    public let identity: TagIdentity
    /// Whether PWD_AUTH succeeded since the tag became ACTIVE.
    public internal(set) var isAuthenticated = false
    /// Failed PWD_AUTH attempts counted against AUTHLIM; survives field resets.
    public internal(set) var failedAuthentications = 0
    /// The NFC read counter (NTAG21x).
    public internal(set) var nfcCounter = 0
    /// The one-way counters of Ultralight EV1 (INCR_CNT / READ_CNT).
    public internal(set) var counters: [Int] = []
    /// Whether the NFC counter already counted a read in this field.
    var countedReadInThisField = false
    /// The page of a COMPATIBILITY_WRITE waiting for its 16-byte second frame.
    var pendingCompatibilityWritePage: Int?
    /// Ultralight C: RndB and ek(RndB) while the second AUTHENTICATE frame is awaited.
    var pendingUltralightCChallenge: (rndB: [UInt8], encrypted: [UInt8])?
    /// Ultralight C: the 3DES key in force (a newly written key counts after the tag leaves ACTIVE).
    var ultralightCKey: [UInt8]?
    /// Ultralight C: increments of the 16-bit counter that take effect at the next RF reset.
    var pendingPageCounterIncrement = 0
    /// Ultralight C: the RndB the next AUTHENTICATE uses; random when `nil` (tests set the
    /// data sheet's example value).
    public var nextUltralightCChallenge: [UInt8]?

    /// A factory-fresh tag of `chip` with `uid` (the chip's UID length, manufacturer first).
    public init(chip: Chip, uid: [UInt8], signature: [UInt8]? = nil) throws(ModelError) {
        let spec = ChipTables.spec(for: chip)
        guard spec.family.isType2, let memoryMap = spec.memory else { throw .notType2(chip) }
        guard uid.count == spec.activation.uidLength else {
            throw .uidLength(expected: spec.activation.uidLength, got: uid.count)
        }
        self.spec = spec
        self.memoryMap = memoryMap
        self.identity = TagIdentity(uid: uid, atqa: spec.activation.atqa, sak: spec.activation.sak)
        self.memory = Self.factoryMemory(memoryMap, uid: uid)
        // READ_SIG answers with the emulator's own test key unless a real signature is replayed.
        self.signature =
            signature
            ?? (spec.supports(.readSignature)
                ? EmulatorSigningKey.sign(uid: uid)
                : [UInt8](repeating: 0, count: ChipTables.originalitySignatures.signatureLength))
        self.counters = spec.counters.filter { $0.kind == .incrementCounters }.flatMap { $0.addresses.map { _ in 0 } }
        self.ultralightCKey = currentUltralightCKey
    }

    /// The factory image: UID and check bytes, CC, factory pages, zeros elsewhere.
    static func factoryMemory(_ map: MemoryMap, uid: [UInt8]) -> [UInt8] {
        var memory = [UInt8](repeating: 0, count: map.totalBytes)
        let cascadeTag = ChipTables.iso14443a.cascadeTag
        let checkBytes = [([cascadeTag] + uid.prefix(3)).reduce(0, ^), uid.dropFirst(3).reduce(0, ^)]
        var uidBytes = uid[...]
        for field in map.identification {
            let address = field.byteAddress(pageSize: map.pageSize)
            switch field.name {
            case "BCC0": memory[address] = checkBytes[0]
            case "BCC1": memory[address] = checkBytes[1]
            case _ where field.factoryValue != nil:
                // A fixed byte the chip ships with (NTAG21x "internal" 48).
                for (offset, byte) in (field.factoryValue ?? []).prefix(field.length).enumerated() {
                    memory[address + offset] = byte
                }
            default:
                for offset in 0..<field.length { memory[address + offset] = uidBytes.popFirst() ?? 0 }
            }
        }
        let ccAddress = map.capabilityContainer.page * map.pageSize
        memory.replaceSubrange(ccAddress..<(ccAddress + map.pageSize), with: map.capabilityContainer.factoryValue)
        for content in map.factoryPages {
            let address = content.page * map.pageSize
            memory.replaceSubrange(address..<(address + map.pageSize), with: content.bytes.prefix(map.pageSize))
        }
        return memory
    }

    /// The four bytes of `page`, as stored (PWD and PACK included).
    public func page(_ page: Int) -> [UInt8] {
        let address = page * memoryMap.pageSize
        return Array(memory[address..<(address + memoryMap.pageSize)])
    }

    /// Overwrites a page directly, bypassing every rule (test set-up and fault injection).
    public mutating func setPage(_ page: Int, to bytes: [UInt8]) {
        let address = page * memoryMap.pageSize
        memory.replaceSubrange(address..<(address + memoryMap.pageSize), with: bytes.prefix(memoryMap.pageSize))
    }

    /// Answers one frame (CRC_A stripped) while ACTIVE.
    public mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        if let page = pendingCompatibilityWritePage {
            pendingCompatibilityWritePage = nil
            return compatibilityWriteData(frame, page: page)
        }
        if let challenge = pendingUltralightCChallenge {
            pendingUltralightCChallenge = nil
            return authenticateResponse(frame, challenge: challenge)
        }
        guard let code = frame.first, let command = spec.command(code: code) else { return .silence }
        guard frame.count == command.requestLength else { return .silence }
        switch command.name {
        case .getVersion: return spec.getVersion.map { .bytes($0.response) } ?? .silence
        case .read: return read(Int(frame[1]))
        case .fastRead: return fastRead(from: Int(frame[1]), to: Int(frame[2]))
        case .write: return write(Array(frame[2...]), page: Int(frame[1]))
        case .compatibilityWrite: return compatibilityWriteStart(page: Int(frame[1]))
        case .readCounter: return readCounter(frame[1])
        case .incrementCounter: return incrementCounter(frame[1], by: Array(frame[2..<5]))
        case .checkTearingEvent: return checkTearingEvent(frame[1])
        case .passwordAuthenticate: return passwordAuthenticate(Array(frame[1...]))
        case .readSignature: return .bytes(signature)
        case .authenticate: return authenticateStart()
        case .halt: return .halt
        default: return .silence
        }
    }

    /// The RF field went off: volatile state is lost.
    public mutating func fieldReset() {
        countedReadInThisField = false
        applyPendingPageCounterIncrement()
        leaveActiveState()
    }

    /// The tag left ACTIVE: authentication and half-done commands are forgotten.
    public mutating func leaveActiveState() {
        isAuthenticated = false
        pendingCompatibilityWritePage = nil
        pendingUltralightCChallenge = nil
        ultralightCKey = currentUltralightCKey
    }
}
