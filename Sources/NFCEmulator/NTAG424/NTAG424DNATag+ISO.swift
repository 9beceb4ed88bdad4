import NFCChips
/// The ISO/IEC 7816-4 commands of NTAG 424 DNA (NT4H2421Gx §10.9): ISOSelectFile,
/// ISOReadBinary, ISOUpdateBinary — plain only; what they may touch is assumption N424-3.
extension NTAG424DNATag {
    mutating func iso(_ bytes: [UInt8]) -> [UInt8] {
        guard let apdu = ReceivedAPDU(bytes) else { return NTAG424Facts.isoWrongLength }
        let p1 = apdu.header[2]
        let p2 = apdu.header[3]
        switch NTAG424Facts.ISOCommand(rawValue: apdu.header[1]) {
        case .select: return select(p1: p1, data: apdu.data)
        case .readBinary:
            guard let (index, offset) = binaryTarget(p1: p1, p2: p2) else { return NTAG424Facts.isoFileNotFound }
            return readBinary(index: index, offset: offset, length: apdu.expectedLength ?? 0)
        case .updateBinary:
            guard let (index, offset) = binaryTarget(p1: p1, p2: p2) else { return NTAG424Facts.isoFileNotFound }
            return updateBinary(index: index, offset: offset, data: apdu.data)
        case nil: return NTAG424Facts.isoINSNotSupported
        }
    }

    private mutating func select(p1: UInt8, data: [UInt8]) -> [UInt8] {
        switch p1 {
        case NTAG424Facts.selectByName:
            guard data == NTAG424Facts.applicationName else { return NTAG424Facts.isoFileNotFound }
            selectApplication()
            return NTAG424Facts.isoOK
        case NTAG424Facts.selectByID:
            guard data.count == 2 else { return NTAG424Facts.isoWrongLength }
            let id = UInt16(data[0]) << 8 | UInt16(data[1])
            if id == NTAG424Facts.applicationFileID {
                selectApplication()
                return NTAG424Facts.isoOK
            }
            guard applicationSelected, let file = files.first(where: { $0.isoID == id }) else {
                return NTAG424Facts.isoFileNotFound
            }
            selectedFile = file.number
            // A new selection starts a new SDM read session (N424-2).
            dynamicContent[file.number] = nil
            return NTAG424Facts.isoOK
        default:
            return NTAG424Facts.isoWrongP1P2
        }
    }

    private mutating func selectApplication() {
        applicationSelected = true
        selectedFile = nil
        session = nil
        authenticatedKey = nil
        dynamicContent = [:]
    }

    /// The file and offset of ISOReadBinary / ISOUpdateBinary: the selected file with a
    /// 15-bit offset in P1 P2, or a short file ID (low 5 bits of the ISO ID, N424-4) in P1
    /// with the offset in P2.
    private mutating func binaryTarget(p1: UInt8, p2: UInt8) -> (Int, Int)? {
        guard applicationSelected else { return nil }
        if p1 & NTAG424Facts.shortFileIDBit != 0 {
            guard let index = files.firstIndex(where: { UInt8($0.isoID & 0x1F) == p1 & 0x1F }) else { return nil }
            if selectedFile != files[index].number { dynamicContent[files[index].number] = nil }
            selectedFile = files[index].number
            return (index, Int(p2))
        }
        guard let selectedFile, let index = file(selectedFile) else { return nil }
        return (index, Int(p1) << 8 | Int(p2))
    }

    /// Whether a plain ISO command may use `key` access (free, or the authenticated key on a
    /// plain file — N424-3).
    private func isoAllows(_ conditions: [UInt8], index: Int) -> Bool {
        if conditions.contains(NTAG424Facts.free) { return true }
        guard let authenticatedKey, files[index].settings.communicationMode == NTAG424Facts.commPlain else {
            return false
        }
        return conditions.contains(authenticatedKey)
    }

    private mutating func readBinary(index: Int, offset: Int, length: Int) -> [UInt8] {
        let settings = files[index].settings
        guard isoAllows([settings.read, settings.readWrite], index: index) else {
            return NTAG424Facts.isoSecurityNotSatisfied
        }
        let size = files[index].content.count
        guard offset < size else { return NTAG424Facts.isoWrongOffset }
        guard let content = readableContent(index: index) else { return NTAG424Facts.isoSecurityNotSatisfied }
        let count = min(length == 0 ? size : length, size - offset)
        return Array(content[offset..<(offset + count)]) + NTAG424Facts.isoOK
    }

    private mutating func updateBinary(index: Int, offset: Int, data: [UInt8]) -> [UInt8] {
        let settings = files[index].settings
        guard isoAllows([settings.write, settings.readWrite], index: index) else {
            return NTAG424Facts.isoSecurityNotSatisfied
        }
        guard !data.isEmpty, offset + data.count <= files[index].content.count else {
            return NTAG424Facts.isoWrongLength
        }
        files[index].content.replaceSubrange(offset..<(offset + data.count), with: data)
        dynamicContent[files[index].number] = nil
        return NTAG424Facts.isoOK
    }
}
