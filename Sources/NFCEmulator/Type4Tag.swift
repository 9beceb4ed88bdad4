import NFCChips

/// An NFC Forum Type 4 tag (ISO/IEC 14443-4, SAK `20`, with an ATS) carrying the NDEF
/// Tag Application, built from ``NFCChips/ChipTables/type4`` and the `type4` chip file.
///
/// On air it speaks ISO-DEP blocks: I-blocks carry the APDUs (the PN532 wraps and
/// unwraps them for InDataExchange once it has sent RATS), R(NAK) is answered as
/// ISO/IEC 14443-4 says (libnfc's presence check sends `B2`), S(DESELECT) halts it, and a
/// raw RATS (`E0 xx`) gets the ATS, and an answer longer than the reader's frame size goes
/// in chained I-blocks. The application has a CC file and an NDEF file; SELECT, READ
/// BINARY and UPDATE BINARY answer with the mapping's status words, and a read-only tag
/// refuses updates. Extended-length APDUs, `61xx` with GET RESPONSE and `6Cxx` follow the
/// model choices in `Type4Tag+Extended.swift`.
///
/// ```swift
/// var tag = try Type4Tag(uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], readOnly: false)
/// tag.ndefFile                                    // NLEN 00 00 + zeros: an empty tag
/// tag.receive([0x02, 0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00])
/// // .bytes([0x02, 0x90, 0x00])
/// ```
public struct Type4Tag: EmulatedTag {
    /// Why a model could not be built.
    public enum ModelError: Error, Equatable, Sendable {
        /// The UID does not have the length the chip's activation table asks for.
        case uidLength(expected: Int, got: Int)
    }

    /// The chip's tables.
    package let spec: ChipSpec
    let type4: Type4Spec
    let files: Type4FilesSpec
    /// UID, ATQA, SAK and ATS.
    public let identity: TagIdentity
    /// The CC file.
    public internal(set) var capabilityContainer: [UInt8]
    /// The NDEF file: NLEN (big-endian) and the message, padded to the file size.
    public internal(set) var ndefFile: [UInt8]
    /// The ISO-DEP block layer (block numbers, chaining, RATS, DESELECT).
    var link = ISODEPLink()
    /// Answer data waiting for GET RESPONSE (`61xx`).
    var waitingResponse: [UInt8] = []
    /// Whether the NDEF Tag Application is selected.
    var applicationSelected = false
    /// The selected file ID.
    var selectedFile: UInt16?

    /// A factory-fresh tag: empty NDEF file; `readOnly` sets the CC write access to "no write".
    /// `chip` is any chip of the Type 4 family with `type4Files` in its table (`.ntag424dna`
    /// is modelled here at the NFC Forum level only: its CC and NDEF file, no native commands).
    public init(chip: Chip = .type4, uid: [UInt8], readOnly: Bool = false) throws(ModelError) {
        let spec = ChipTables.spec(for: chip)
        guard uid.count == spec.activation.uidLength else {
            throw .uidLength(expected: spec.activation.uidLength, got: uid.count)
        }
        self.init(
            spec: spec,
            identity: TagIdentity(
                uid: uid, atqa: spec.activation.atqa, sak: spec.activation.sak, ats: spec.activation.ats),
            readOnly: readOnly)
    }

    /// The same Type 4 tag on an ISO/IEC 14443 Type B card (the `iso14443b-type4` tag):
    /// activated by REQB and ATTRIB, ISO-DEP with the CID ATTRIB gives, its ATQB the table's
    /// (`datasheets/iso14443b.json`) with `pupi` in it.
    public init(typeBPUPI pupi: [UInt8], readOnly: Bool = false) throws(ModelError) {
        let card = ChipTables.iso14443b.emulatedCard
        let layout = ChipTables.iso14443b.atqb
        guard pupi.count == layout.pupiLength else { throw .uidLength(expected: layout.pupiLength, got: pupi.count) }
        var atqb = card.atqb
        atqb.replaceSubrange(layout.pupiOffset..<(layout.pupiOffset + layout.pupiLength), with: pupi)
        self.init(
            spec: ChipTables.spec(for: .type4),
            identity: TagIdentity(typeB: TypeBIdentity(atqb: atqb, attribResponse: card.attribResponse)),
            readOnly: readOnly)
    }

    private init(spec: ChipSpec, identity: TagIdentity, readOnly: Bool) {
        guard let files = spec.type4Files else {
            preconditionFailure("datasheets/chips/\(spec.chip.rawValue).json lacks type4Files")
        }
        self.spec = spec
        self.type4 = ChipTables.type4
        self.files = files
        self.identity = identity
        var cc = files.capabilityContainer
        if readOnly { cc[ChipTables.type4.ccFields[.writeAccess].offset] = ChipTables.type4.accessDenied }
        self.capabilityContainer = cc
        var ndef = [UInt8](repeating: 0, count: files.ndefFileSize)
        ndef.replaceSubrange(0..<files.ndefFileFactoryContent.count, with: files.ndefFileFactoryContent)
        self.ndefFile = ndef
    }

    /// The NDEF message the file holds (NLEN bytes after NLEN).
    public var ndefMessage: [UInt8] {
        let length = Int(ndefFile[0]) << 8 | Int(ndefFile[1])
        return Array(ndefFile[type4.nlenLength..<min(ndefFile.count, type4.nlenLength + length)])
    }

    /// Replaces the NDEF message directly, bypassing every rule (test set-up).
    public mutating func setNDEFMessage(_ message: [UInt8]) {
        let length = min(message.count, ndefFile.count - type4.nlenLength)
        ndefFile.replaceSubrange(0..<type4.nlenLength, with: [UInt8(length >> 8), UInt8(length & 0xFF)])
        ndefFile.replaceSubrange(type4.nlenLength..<(type4.nlenLength + length), with: message.prefix(length))
    }

    /// Answers one frame (CRC_A stripped) while ACTIVE.
    public mutating func receive(_ frame: [UInt8]) -> TagAnswer {
        if let typeB = identity.typeB, frame.first == ChipTables.iso14443b.commands[.attrib].code {
            return link.attrib(frame, identity: typeB)
        }
        switch link.receive(frame, ats: identity.ats) {
        case .answer(let answer): return answer
        case .apdu(let apdu): return link.send(respond(to: apdu))
        }
    }

    /// The RF field went off: volatile state is lost.
    public mutating func fieldReset() { leaveActiveState() }

    /// The tag left ACTIVE: authentication and half-done commands are forgotten.
    public mutating func leaveActiveState() {
        link.reset()
        applicationSelected = false
        selectedFile = nil
        waitingResponse = []
    }
}
