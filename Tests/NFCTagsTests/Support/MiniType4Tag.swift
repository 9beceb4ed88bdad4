import NFCEmulator

/// A tiny in-test NFC Forum Type 4 tag (until NFCEmulator models one): the NDEF Tag
/// Application with a CC file and an NDEF file, SELECT / READ BINARY / UPDATE BINARY with
/// ISO 7816-4 status words. Each UPDATE BINARY is atomic.
struct MiniType4Tag: EmulatedTag {
    var identity = TagIdentity(
        uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06], atqa: 0x0344, sak: 0x20,
        ats: [0x06, 0x75, 0x77, 0x81, 0x02, 0x80])
    /// The AID the tag answers to (mapping 2.0 by default).
    var aid: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    var ccFile: [UInt8]
    var ndefFile: [UInt8]
    var ndefFileID: [UInt8] = [0xE1, 0x04]
    private var applicationSelected = false
    private var selectedFile: Int?  // 0 = CC, 1 = NDEF

    /// A tag with an NDEF file of `size` bytes (NLEN included), MLe / MLc as given.
    init(size: Int = 0x0200, mle: Int = 0x3B, mlc: Int = 0x34, writeAccess: UInt8 = 0x00, extended: Bool = false) {
        if extended {
            ccFile = [
                0x00, 0x11, 0x30, UInt8(mle >> 8), UInt8(mle & 0xFF), UInt8(mlc >> 8), UInt8(mlc & 0xFF),
                0x06, 0x08, 0xE1, 0x04, UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF),
                UInt8(size & 0xFF), 0x00, writeAccess,
            ]
        } else {
            ccFile = [
                0x00, 0x0F, 0x20, UInt8(mle >> 8), UInt8(mle & 0xFF), UInt8(mlc >> 8), UInt8(mlc & 0xFF),
                0x04, 0x06, 0xE1, 0x04, UInt8(size >> 8), UInt8(size & 0xFF), 0x00, writeAccess,
            ]
        }
        ndefFile = [UInt8](repeating: 0, count: size)
    }

    var writeAccess: UInt8 { ccFile[ccFile.count - 1] }

    mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        guard frame.count >= 4 else { return .bytes([0x67, 0x00]) }
        let instruction = frame[1]
        let p1 = frame[2]
        let p2 = frame[3]
        switch (instruction, p1) {
        case (0xA4, 0x04):
            guard frame.count >= 5, frame.count >= 5 + Int(frame[4]) else { return .bytes([0x67, 0x00]) }
            applicationSelected = Array(frame[5..<(5 + Int(frame[4]))]) == aid
            selectedFile = nil
            return .bytes(applicationSelected ? [0x90, 0x00] : [0x6A, 0x82])
        case (0xA4, 0x00):
            guard applicationSelected, frame.count == 7 else { return .bytes([0x6A, 0x82]) }
            let id = Array(frame[5...6])
            if id == [0xE1, 0x03] {
                selectedFile = 0
            } else if id == ndefFileID {
                selectedFile = 1
            } else {
                return .bytes([0x6A, 0x82])
            }
            _ = p2
            return .bytes([0x90, 0x00])
        case (0xB0, _):
            guard let file = selectedFile, frame.count == 5 else { return .bytes([0x69, 0x86]) }
            let content = file == 0 ? ccFile : ndefFile
            let offset = Int(p1) << 8 | Int(p2)
            guard offset < content.count else { return .bytes([0x6B, 0x00]) }
            let length = frame[4] == 0 ? 256 : Int(frame[4])
            return .bytes(Array(content[offset..<min(content.count, offset + length)]) + [0x90, 0x00])
        case (0xD6, _):
            guard selectedFile == 1, frame.count >= 5, frame.count == 5 + Int(frame[4]) else {
                return .bytes([0x69, 0x86])
            }
            guard writeAccess == 0x00 else { return .bytes([0x69, 0x82]) }
            let offset = Int(p1) << 8 | Int(p2)
            let data = Array(frame[5...])
            guard offset + data.count <= ndefFile.count else { return .bytes([0x6A, 0x84]) }
            ndefFile.replaceSubrange(offset..<(offset + data.count), with: data)
            return .bytes([0x90, 0x00])
        default:
            return .bytes([0x6D, 0x00])
        }
    }

    mutating func fieldReset() { leaveActiveState() }
    mutating func leaveActiveState() {
        applicationSelected = false
        selectedFile = nil
    }
}
