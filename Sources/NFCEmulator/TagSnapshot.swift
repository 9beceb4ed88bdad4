import NFCChips
import NTAG424Crypto

/// A tag's persistent content (memory, counters, signature) as plain values, to save an
/// emulated tag to a file and load it again (`nfctag emulate --state FILE`).
///
/// ```swift
/// let snapshot = TagSnapshot(of: tag)!                // Codable
/// let again = try snapshot.makeTag()                   // same memory and counters
/// ```
public struct TagSnapshot: Codable, Equatable, Sendable {
    /// The tag name (``EmulatedTagFactory/tagNames``).
    public var tag: String
    /// The UID, lowercase hex.
    public var uid: String
    /// Page or block memory (Type 2, Classic), lowercase hex.
    public var memory: String?
    /// Type 4: the CC file and the NDEF file, lowercase hex.
    public var capabilityContainer: String?
    /// Type 4: the NDEF file, lowercase hex.
    public var ndefFile: String?
    /// NTAG21x NFC counter.
    public var nfcCounter: Int?
    /// Ultralight EV1 counters.
    public var counters: [Int]?
    /// Failed PWD_AUTH attempts counted against AUTHLIM.
    public var failedAuthentications: Int?
    /// The READ_SIG answer, lowercase hex.
    public var signature: String?
    /// NTAG 424 DNA: each file's content (by file number), lowercase hex.
    public var files: [String: String]?
    /// NTAG 424 DNA: each file's settings as ChangeFileSettings data, lowercase hex.
    public var fileSettings: [String: String]?
    /// NTAG 424 DNA: keys 0…4, lowercase hex, and their versions.
    public var keys: [String]?
    public var keyVersions: [Int]?
    /// NTAG 424 DNA: SDMReadCtr by file number.
    public var readCounters: [String: Int]?
    /// NTAG 424 DNA: the random ID is on.
    public var randomID: Bool?
    /// MIFARE DESFire: keys, applications, files and configuration.
    public var desfire: DESFireCardState?
    /// FeliCa: each block by its number (two hex digits; on a FeliCa Standard
    /// `system/service-number/block`, each in hex), lowercase hex.
    public var blocks: [String: String]?

    /// The snapshot of a tag built by ``EmulatedTagFactory``; `nil` for other models.
    public init?(of tag: any EmulatedTag) {
        guard let name = EmulatedTagFactory.name(of: tag) else { return nil }
        self.tag = name
        uid = tag.identity.uid.hexString()
        switch tag {
        case let tag as Type2Tag:
            memory = tag.memory.hexString()
            nfcCounter = tag.nfcCounter
            counters = tag.counters
            failedAuthentications = tag.failedAuthentications
            signature = tag.signature.hexString()
        case let tag as ClassicTag:
            memory = tag.memory.hexString()
        case let tag as Type4Tag:
            capabilityContainer = tag.capabilityContainer.hexString()
            ndefFile = tag.ndefFile.hexString()
        case let tag as NTAG424DNATag:
            signature = tag.signature.hexString()
            files = Dictionary(uniqueKeysWithValues: tag.files.map { (String($0.number), $0.content.hexString()) })
            fileSettings = Dictionary(
                uniqueKeysWithValues: tag.files.map {
                    (String($0.number), NTAG424DNATag.changeData($0.settings, size: $0.content.count).hexString())
                })
            keys = tag.keys.map { $0.bytes.hexString() }
            keyVersions = tag.keyVersions.map(Int.init)
            readCounters = Dictionary(uniqueKeysWithValues: tag.readCounters.map { (String($0.key), Int($0.value)) })
            randomID = tag.usesRandomID
        case let tag as DESFireTag:
            uid = tag.uid.hexString()  // the real UID, also behind a random one
            signature = tag.signature.hexString()
            desfire = DESFireCardState(of: tag)
        case let tag as FeliCaLiteSTag:
            blocks = Dictionary(uniqueKeysWithValues: tag.blocks.map { ([$0.key].hexString(), $0.value.hexString()) })
        case let tag as FeliCaStandardTag:
            blocks = tag.snapshotBlocks
        case let tag as Type1Tag:
            uid = tag.memory.prefix(ChipTables.type1.uidLength).hexString()
            memory = tag.memory.hexString()
        case let tag as ST25TBTag:
            memory = tag.blocks.flatMap { $0 }.hexString()
        default:
            return nil
        }
    }

    /// Rebuilds the tag with this content.
    public func makeTag() throws(EmulatorSetupError) -> any EmulatedTag {
        guard let uid = Self.bytes(uid) else { throw .invalidState("uid is not hex") }
        let made = try EmulatedTagFactory.make(name: tag, uid: uid, signature: signature.flatMap(Self.bytes))
        switch made {
        case var type2 as Type2Tag:
            guard let memory = memory.flatMap(Self.bytes), memory.count == type2.memory.count else {
                throw .invalidState("\(tag) memory must be \(type2.memory.count) bytes")
            }
            type2.memory = memory
            type2.nfcCounter = nfcCounter ?? 0
            if let counters, counters.count == type2.counters.count { type2.counters = counters }
            type2.failedAuthentications = failedAuthentications ?? 0
            type2.ultralightCKey = type2.currentUltralightCKey
            return type2
        case var card as ST25TBTag:
            let size = card.blocks.count * ChipTables.st25tb.blockSize
            guard let memory = memory.flatMap(Self.bytes), memory.count == size else {
                throw .invalidState("\(tag) memory must be \(size) bytes")
            }
            card.blocks = stride(from: 0, to: size, by: ChipTables.st25tb.blockSize).map {
                Array(memory[$0..<($0 + ChipTables.st25tb.blockSize)])
            }
            return card
        case var type1 as Type1Tag:
            guard let memory = memory.flatMap(Self.bytes), memory.count == type1.memory.count else {
                throw .invalidState("\(tag) memory must be \(type1.memory.count) bytes")
            }
            type1.memory = memory
            return type1
        case var classic as ClassicTag:
            guard let memory = memory.flatMap(Self.bytes), memory.count == classic.memory.count else {
                throw .invalidState("\(tag) memory must be \(classic.memory.count) bytes")
            }
            classic.memory = memory
            return classic
        case var type4 as Type4Tag:
            guard let cc = capabilityContainer.flatMap(Self.bytes), cc.count == type4.capabilityContainer.count,
                let ndef = ndefFile.flatMap(Self.bytes), ndef.count == type4.ndefFile.count
            else {
                throw .invalidState("type4 files must keep their sizes")
            }
            type4.capabilityContainer = cc
            type4.ndefFile = ndef
            return type4
        case var ntag as NTAG424DNATag:
            try restore(&ntag)
            return ntag
        case var card as DESFireTag:
            desfire?.restore(&card)
            return card
        case var card as FeliCaStandardTag:
            try card.restore(blocks ?? [:])
            return card
        case var card as FeliCaLiteSTag:
            for (key, text) in blocks ?? [:] {
                guard let number = Self.bytes(key), number.count == 1, card.blocks[number[0]] != nil,
                    let content = Self.bytes(text), content.count == card.blocks[number[0]]?.count
                else {
                    throw .invalidState("\(tag) block \(key) is no block of the card, or not 16 bytes")
                }
                card.blocks[number[0]] = content
            }
            return card
        default:
            return made
        }
    }

    /// Puts the NTAG 424 DNA parts of the snapshot into `tag` (absent parts stay factory-fresh).
    private func restore(_ tag: inout NTAG424DNATag) throws(EmulatorSetupError) {
        for index in tag.files.indices {
            let key = String(tag.files[index].number)
            if let text = files?[key] {
                guard let content = Self.bytes(text), content.count == tag.files[index].content.count else {
                    throw .invalidState("ntag424dna file \(key) must keep its size")
                }
                tag.files[index].content = content
            }
            if let text = fileSettings?[key] {
                guard let data = Self.bytes(text),
                    let settings = NTAG424DNATag.decode(data, size: tag.files[index].content.count)
                else {
                    throw .invalidState("ntag424dna file \(key) has unreadable settings")
                }
                tag.files[index].settings = settings
            }
        }
        if let keys {
            guard keys.count == tag.keys.count else { throw .invalidState("ntag424dna has \(tag.keys.count) keys") }
            for (index, text) in keys.enumerated() {
                guard let bytes = Self.bytes(text), let key = try? AES128Key(bytes) else {
                    throw .invalidState("ntag424dna key \(index) is not 16 bytes of hex")
                }
                tag.keys[index] = key
            }
        }
        if let keyVersions, keyVersions.count == tag.keyVersions.count {
            tag.keyVersions = keyVersions.map { UInt8(truncatingIfNeeded: $0) }
        }
        for (file, counter) in readCounters ?? [:] {
            if let number = UInt8(file) { tag.readCounters[number] = UInt32(truncatingIfNeeded: counter) }
        }
        tag.usesRandomID = randomID ?? false
    }

    static func bytes(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        for index in stride(from: 0, to: characters.count, by: 2) {
            guard let high = nibble(characters[index]), let low = nibble(characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }

    private static func nibble(_ character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): character - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): character - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
