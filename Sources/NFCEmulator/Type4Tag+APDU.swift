import NFCChips

/// The NDEF Tag Application's APDUs (NFC Forum T4T §5.4): SELECT by name and by file ID,
/// READ BINARY and UPDATE BINARY, with the mapping's status words.
extension Type4Tag {
    /// The status word called `name`, as SW1 SW2.
    func statusWord(_ name: Type4StatusWordName) -> [UInt8] { type4.statusWords[name].bytes }

    /// The header bytes of APDU `name` from the table.
    func header(_ name: APDUName) -> [UInt8] { type4.commands[name].header }

    /// The big-endian value of CC field `name` (0 when the CC is too short for it).
    func ccValue(_ name: Type4CCFieldName) -> Int {
        type4.ccFields[name].value(in: capabilityContainer) ?? 0
    }

    /// The CC's mapping version as the table names it, e.g. `2.0`.
    var mappingVersion: String {
        let byte = UInt8(ccValue(.mappingVersion))
        return "\(byte >> 4).\(byte & 0x0F)"
    }

    /// Answers one C-APDU with data and a status word. Any command but GET RESPONSE drops
    /// an answer still waiting for it.
    mutating func respond(to bytes: [UInt8]) -> [UInt8] {
        guard let apdu = ReceivedAPDU(bytes) else { return statusWord(.wrongLength) }
        let selectApplication = header(.selectApplication)
        let selectFile = header(.selectFile)
        let readBinary = header(.readBinary)
        let updateBinary = header(.updateBinary)
        let getResponseHeader = ChipTables.iso7816.commands[.getResponse].header
        guard apdu.header[0] == selectApplication[0] else { return statusWord(.claNotSupported) }
        if apdu.header[1] == getResponseHeader[1] { return getResponse(apdu) }
        waitingResponse = []
        switch apdu.header[1] {
        case selectApplication[1] where apdu.header[2] == selectApplication[2]: return selectByName(apdu)
        case selectFile[1]: return selectByFileID(apdu)
        case readBinary[1]: return readBinaryFile(apdu)
        case updateBinary[1]: return updateBinaryFile(apdu)
        default: return statusWord(.insNotSupported)
        }
    }

    mutating func selectByName(_ apdu: ReceivedAPDU) -> [UInt8] {
        let name = apdu.data
        let version = mappingVersion
        guard name == type4.application(version: version)?.aid else {
            applicationSelected = false
            selectedFile = nil
            return statusWord(.fileNotFound)
        }
        applicationSelected = true
        selectedFile = nil
        return statusWord(.success)
    }

    mutating func selectByFileID(_ apdu: ReceivedAPDU) -> [UInt8] {
        let version = mappingVersion
        guard apdu.header[2] == header(.selectFile)[2],
            apdu.header[3] == type4.application(version: version)?.selectFileP2
        else {
            return statusWord(.incorrectP1P2)
        }
        let data = apdu.data
        guard data.count == 2 else { return statusWord(.wrongLength) }
        let id = UInt16(data[0]) << 8 | UInt16(data[1])
        guard applicationSelected, id == type4.ccFileID || id == UInt16(ccValue(.ndefFileID)) else {
            return statusWord(.fileNotFound)
        }
        selectedFile = id
        return statusWord(.success)
    }

    /// The selected file's content, or `nil` when none is selected.
    var selectedContent: [UInt8]? {
        guard let selectedFile else { return nil }
        return selectedFile == type4.ccFileID ? capabilityContainer : ndefFile
    }

    mutating func updateBinaryFile(_ apdu: ReceivedAPDU) -> [UInt8] {
        guard let selectedFile else { return statusWord(.fileNotFound) }
        let data = apdu.data
        guard !data.isEmpty, data.count <= ccValue(.mlc) else { return statusWord(.wrongLength) }
        guard selectedFile != type4.ccFileID, ccValue(.writeAccess) == Int(type4.accessGranted) else {
            return statusWord(.securityStatusNotSatisfied)
        }
        let offset = Int(apdu.header[2]) << 8 | Int(apdu.header[3])
        guard offset + data.count <= ndefFile.count else { return statusWord(.incorrectP1P2) }
        ndefFile.replaceSubrange(offset..<(offset + data.count), with: data)
        return statusWord(.success)
    }
}
