import NFCChips
/// GetFileSettings and ChangeFileSettings byte layouts (NT4H2421Gx §10.7.1 Table 69, §10.7.2
/// Table 73): FileType ‖ FileOption ‖ AccessRights ‖ FileSize ‖ [SDMOptions ‖ SDMAccessRights
/// ‖ offsets], offsets 3 bytes LSB first, present by the options.
extension NTAG424DNATag {
    /// The GetFileSettings answer for `settings` of a file of `size` bytes.
    static func encode(_ settings: EmulatedNTAG424FileSettings, size: Int) -> [UInt8] {
        var bytes: [UInt8] = [0x00, settings.communicationMode | (settings.sdm == nil ? 0 : Facts.sdmEnabledBit)]
        bytes += settings.accessRightsBytes + le3(size)
        guard let sdm = settings.sdm else { return bytes }
        bytes += [sdm.options, 0xF0 | sdm.counterRetrieval, sdm.metaRead << 4 | sdm.fileRead]
        for offset in offsets(of: sdm) { bytes += le3(offset) }
        return bytes
    }

    /// `settings` as ChangeFileSettings data (the GetFileSettings answer without FileType and FileSize).
    static func changeData(_ settings: EmulatedNTAG424FileSettings, size: Int) -> [UInt8] {
        let answer = encode(settings, size: size)
        return Array(answer[1..<4]) + Array(answer.dropFirst(7))
    }

    /// The offsets present, in their order.
    static func offsets(of sdm: EmulatedNTAG424SDMSettings) -> [Int] {
        var list: [Int?] = []
        if sdm.metaRead == Facts.free {
            if sdm.options & Facts.sdmUIDBit != 0 { list.append(sdm.uidOffset) }
            if sdm.options & Facts.sdmReadCounterBit != 0 { list.append(sdm.readCounterOffset) }
        } else if sdm.metaRead != Facts.never {
            list.append(sdm.piccDataOffset)
        }
        if sdm.fileRead != Facts.never {
            list.append(sdm.macInputOffset)
            if sdm.options & Facts.sdmEncryptedFileDataBit != 0 {
                list.append(sdm.encryptedDataOffset)
                list.append(sdm.encryptedDataLength)
            }
            list.append(sdm.macOffset)
        }
        if sdm.options & Facts.sdmReadCounterLimitBit != 0 { list.append(sdm.readCounterLimit.map(Int.init)) }
        return list.map { $0 ?? 0 }
    }

    /// Reads ChangeFileSettings data for a file of `size` bytes; `nil` when it is malformed or
    /// a mirror does not fit the file (the tag answers 919E).
    static func decode(_ data: [UInt8], size: Int) -> EmulatedNTAG424FileSettings? {
        guard data.count >= 3 else { return nil }
        let option = data[0]
        let communicationMode = option & 0x03
        guard [Facts.commPlain, Facts.commMAC, Facts.commFull].contains(communicationMode),
            option & ~(0x03 | Facts.sdmEnabledBit) == 0
        else { return nil }
        var settings = EmulatedNTAG424FileSettings(
            communicationMode: communicationMode, read: data[2] >> 4, write: data[2] & 0x0F,
            readWrite: data[1] >> 4, change: data[1] & 0x0F)
        guard option & Facts.sdmEnabledBit != 0 else { return data.count == 3 ? settings : nil }
        guard data.count >= 6 else { return nil }
        var sdm = EmulatedNTAG424SDMSettings(
            options: data[3], counterRetrieval: data[4] & 0x0F, metaRead: data[5] >> 4, fileRead: data[5] & 0x0F)
        guard sdm.options & Facts.sdmASCIIBit != 0, sdm.options & 0x0E == 0 else { return nil }
        var cursor = 6
        func next() -> Int? {
            guard cursor + 3 <= data.count else { return nil }
            defer { cursor += 3 }
            return Int(data[cursor]) | Int(data[cursor + 1]) << 8 | Int(data[cursor + 2]) << 16
        }
        func fits(_ offset: Int?, _ length: Int) -> Bool { offset.map { $0 + length <= size } ?? false }
        let mirrorsUID = sdm.options & Facts.sdmUIDBit != 0
        let mirrorsCounter = sdm.options & Facts.sdmReadCounterBit != 0
        if sdm.metaRead == Facts.free {
            if mirrorsUID {
                sdm.uidOffset = next()
                guard fits(sdm.uidOffset, Facts.uidMirrorLength) else { return nil }
            }
            if mirrorsCounter {
                sdm.readCounterOffset = next()
                guard fits(sdm.readCounterOffset, Facts.counterMirrorLength) else { return nil }
            }
        } else if sdm.metaRead != Facts.never {
            guard Int(sdm.metaRead) < Facts.keyCount, mirrorsUID || mirrorsCounter else { return nil }
            sdm.piccDataOffset = next()
            guard fits(sdm.piccDataOffset, Facts.piccDataMirrorLength) else { return nil }
        }
        if sdm.fileRead != Facts.never {
            guard Int(sdm.fileRead) < Facts.keyCount else { return nil }
            sdm.macInputOffset = next()
            if sdm.options & Facts.sdmEncryptedFileDataBit != 0 {
                guard mirrorsUID, mirrorsCounter else { return nil }
                sdm.encryptedDataOffset = next()
                sdm.encryptedDataLength = next()
                guard let length = sdm.encryptedDataLength, length > 0, length.isMultiple(of: 32),
                    fits(sdm.encryptedDataOffset, length)
                else { return nil }
            }
            sdm.macOffset = next()
            guard let input = sdm.macInputOffset, let mac = sdm.macOffset, input <= mac,
                fits(mac, Facts.macMirrorLength)
            else { return nil }
            if let offset = sdm.encryptedDataOffset, let length = sdm.encryptedDataLength {
                guard offset >= input, offset + length <= mac else { return nil }
            }
        } else if sdm.options & Facts.sdmEncryptedFileDataBit != 0 {
            return nil
        }
        if sdm.options & Facts.sdmReadCounterLimitBit != 0 {
            guard let limit = next() else { return nil }
            sdm.readCounterLimit = UInt32(limit)
        }
        guard cursor == data.count else { return nil }
        settings.sdm = sdm
        return settings
    }

    static func le3(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)]
    }
}
