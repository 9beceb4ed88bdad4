import NFCChips
import NTAG424Crypto

/// Secure Dynamic Messaging on read (NT4H2421Gx §9.3): the UID and SDMReadCtr mirrors, the
/// encrypted PICC data, the encrypted file data and the SDMMAC, written as uppercase ASCII
/// hex into a copy of the file at the offsets of its settings.
extension NTAG424DNATag {
    /// The bytes a read of file `index` returns: the stored content, or for an SDM file read
    /// without authentication the mirrored copy of this read session — made (and SDMReadCtr
    /// incremented) at the first read of the session (N424-2). `nil` when SDMReadCtrLimit is
    /// reached (N424-6).
    mutating func readableContent(index: Int) -> [UInt8]? {
        let file = files[index]
        guard let sdm = file.settings.sdm, session == nil else { return file.content }
        if let content = dynamicContent[file.number] { return content }
        let counter = readCounters[file.number, default: 0]
        if let limit = sdm.readCounterLimit, sdm.options & NTAG424Facts.sdmReadCounterLimitBit != 0, counter >= limit {
            return nil
        }
        guard counter < NTAG424Facts.readCounterMaximum else { return nil }
        readCounters[file.number] = counter + 1
        let content = mirrored(file.content, sdm: sdm, counter: counter + 1)
        dynamicContent[file.number] = content
        return content
    }

    private mutating func mirrored(_ stored: [UInt8], sdm: EmulatedNTAG424SDMSettings, counter: UInt32) -> [UInt8] {
        var content = stored
        func put(_ bytes: [UInt8], at offset: Int?) {
            guard let offset, offset + bytes.count <= content.count else { return }
            content.replaceSubrange(offset..<(offset + bytes.count), with: bytes)
        }
        let mirrorsUID = sdm.options & NTAG424Facts.sdmUIDBit != 0
        let mirrorsCounter = sdm.options & NTAG424Facts.sdmReadCounterBit != 0
        let uidValue = mirrorsUID ? uid : nil
        let counterValue = mirrorsCounter ? counter : nil
        switch sdm.metaRead {
        case NTAG424Facts.free:
            if mirrorsUID { put(Self.ascii(uid), at: sdm.uidOffset) }
            if mirrorsCounter {
                put(Self.ascii(Array(PICCSDM.counterBytes(counter).reversed())), at: sdm.readCounterOffset)
            }
        case NTAG424Facts.never:
            break
        default:
            let padding = (0..<16).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if uidValue != nil || counterValue != nil {
                let encrypted = PICCSDM.encryptPICCData(
                    uid: uidValue, counter: counterValue, metaReadKey: keys[Int(sdm.metaRead)].bytes, padding: padding)
                put(Self.ascii(encrypted), at: sdm.piccDataOffset)
            }
        }
        guard sdm.fileRead != NTAG424Facts.never, let macOffset = sdm.macOffset, let inputOffset = sdm.macInputOffset
        else {
            return content
        }
        let fileReadKey = keys[Int(sdm.fileRead)].bytes
        if sdm.options & NTAG424Facts.sdmEncryptedFileDataBit != 0, let offset = sdm.encryptedDataOffset,
            let length = sdm.encryptedDataLength, offset + length <= content.count
        {
            let plain = Array(content[offset..<(offset + length / 2)])
            if let encrypted = PICCSDM.encryptFileData(plain, fileReadKey: fileReadKey, uid: uidValue, counter: counter)
            {
                put(Self.ascii(encrypted), at: offset)
            }
        }
        if inputOffset <= macOffset, macOffset <= content.count {
            let mac = PICCSDM.mac(
                fileReadKey: fileReadKey, uid: uidValue, counter: counterValue,
                input: Array(content[inputOffset..<macOffset]))
            put(Self.ascii(mac), at: macOffset)
        }
        return content
    }

    /// Bytes as uppercase ASCII hex, two characters a byte.
    static func ascii(_ bytes: [UInt8]) -> [UInt8] {
        Array(HexBytes.encode(bytes, uppercase: true).utf8)
    }
}
