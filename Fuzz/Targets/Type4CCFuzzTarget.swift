// Fuzz target `type4-cc`: the Type 4 NDEF driver (application selection, the CC file with
// its NDEF File Control TLV, short and extended, NLEN / ENLEN, chunked READ BINARY, NDEF
// decoding) reading a tag whose two files are the fuzz input.
//
// The input is `n`, then the CC file (the next `n` bytes), then the NDEF file (the rest).
// The transport answers like a Type 4 tag, with APDU headers, AIDs, file IDs and status
// words from `ChipTables.type4`:
// - SELECT by name: success for the AID of the mapping version the CC file names (byte 2:
//   `1x` → 1.0, `2x` and later → 2.0), file-not-found for any other;
// - SELECT by file ID (P2 of that version): the CC file, or the NDEF file by the ID in the
//   CC file; file-not-found for any other, or before an application is selected;
// - READ BINARY `00 B0 P1 P2 Le`: up to Le bytes (0 = 256) from the offset of the file
//   selected; an offset at or past the end is the table's wrong-offset status word
//   (`incorrectP1P2`); Le above the CC's MLe is `wrongLength`;
// - anything else: `insNotSupported`.
//
// Properties, beyond "never traps": those of `fuzzCheckNDEFDriverRun` (typed errors that a
// tag with these files may cause, offsets inside the file they name, status and read
// agree, a message read round-trips), and the driver never sends what a tag refuses for
// any content (Le above MLe, a READ BINARY before selecting a file, an offset past the
// 15-bit limit, an unknown instruction).
import NFCChips
import NFCTags
import Synchronization

@_cdecl("LLVMFuzzerTestOneInput")
public func type4CCFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let tag = Type4FilesTransport(input: input) else {
        fatalError("datasheets/type4.json lacks an APDU or status word")
    }
    let chip = Chip.type4
    let run = fuzzRunNDEFDriver { () throws(NDEFTagError) -> any NDEFTagDriver in
        try NDEFTagDrivers.driver(for: chip, transport: tag)
    }
    // A CC offset is at most the end of the longest (extended) CC the driver reads.
    let ccExtent = (tag.spec.ccFields.map { $0.offset + $0.length }.max() ?? 0) + 2
    fuzzCheckNDEFDriverRun(
        run, input: input,
        offsetLimit: { error in
            if case .invalidCapabilityContainer = error { return ccExtent }
            return tag.fileNamedAsNDEF.count
        }
    ) { error in
        switch error {
        // `unsupportedTag`: no NDEF Tag Application (the CC names no mapping version the
        // tables know), or an extended NDEF file read past READ BINARY's 15-bit offsets.
        case .invalidNDEF, .invalidCapabilityContainer, .authenticationRequired, .statusWord, .unsupportedTag: true
        default: false
        }
    }
    let violations = tag.violations.all
    fuzzCheck(violations.isEmpty, "the driver sent APDUs no tag accepts: \(violations) for \(fuzzHex(input))")
    return 0
}

/// A Type 4 tag with an NDEF Tag Application holding a fixed CC file and NDEF file.
struct Type4FilesTransport: TagTransport {
    let spec = ChipTables.type4
    let ccFile: [UInt8]
    let ndefFile: [UInt8]
    let violations = ProtocolViolations()
    private let selection = Type4Selection()
    let target: TagTarget
    var maximumFrameLength: Int { 240 }

    private let selectApplication: [UInt8], selectFile: [UInt8], readBinary: [UInt8]
    private let success: [UInt8], fileNotFound: [UInt8], wrongOffset: [UInt8], wrongLength: [UInt8],
        unknownInstruction: [UInt8]

    init?(input: [UInt8]) {
        let ccLength = Int(input.first ?? 0)
        ccFile = Array(input.dropFirst().prefix(ccLength))
        ndefFile = Array(input.dropFirst(1 + ccLength))
        let chip = ChipTables.spec(for: .type4)
        target = TagTarget(
            uid: [0x08, 0x12, 0x34, 0x56], atqa: chip.activation.atqa, sak: chip.activation.sak,
            ats: chip.activation.ats)
        (selectApplication, selectFile) = (spec.commands[.selectApplication].header, spec.commands[.selectFile].header)
        readBinary = spec.commands[.readBinary].header
        (success, fileNotFound) = (spec.statusWords[.success].bytes, spec.statusWords[.fileNotFound].bytes)
        (wrongOffset, wrongLength) = (spec.statusWords[.incorrectP1P2].bytes, spec.statusWords[.wrongLength].bytes)
        unknownInstruction = spec.statusWords[.insNotSupported].bytes
    }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError)
        -> TagResponse
    {
        guard framing == .standard else {
            violations.record("raw framing to a Type 4 tag (ISO-DEP needs the reader's framing): \(fuzzHex(frame))")
            throw .timeout
        }
        return .bytes(answer(frame))
    }

    func reselect() async throws(TagTransportError) {
        selection.reset()
    }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        violations.record("MIFARE Classic authentication on a Type 4 tag")
        throw .timeout
    }

    /// What the driver reads as the NDEF file: the CC file when the CC names its own ID.
    var fileNamedAsNDEF: [UInt8] {
        guard spec.ccFields[.ndefFileID].value(in: ccFile) == Int(spec.ccFileID) else { return ndefFile }
        return ccFile
    }

    /// The application the CC file's mapping version selects: the newest one whose major
    /// version is not above the CC's (mapping 3.0 keeps the 2.0 AID).
    private var application: Type4Application? {
        guard let version = spec.ccFields[.mappingVersion].value(in: ccFile) else { return nil }
        return spec.applications
            .compactMap { application in
                application.version.split(separator: ".").first.flatMap { Int($0) }.map { ($0, application) }
            }
            .filter { $0.0 <= version >> 4 }
            .max { $0.0 < $1.0 }?.1
    }

    private func answer(_ apdu: [UInt8]) -> [UInt8] {
        if apdu.starts(with: selectApplication) {
            let aid = Array(
                apdu.dropFirst(selectApplication.count + 1).prefix(Int(apdu[safe: selectApplication.count] ?? 0)))
            guard let application, aid == application.aid else {
                selection.reset()
                return fileNotFound
            }
            selection.selectApplication()
            return success
        }
        if apdu.starts(with: Array(selectFile.prefix(3))), apdu.count == selectFile.count + 3 {
            let id = Array(apdu.suffix(2))
            guard selection.isApplicationSelected, let application, apdu[3] == application.selectFileP2 else {
                return fileNotFound
            }
            let field = spec.ccFields[.ndefFileID]
            if id == [UInt8(spec.ccFileID >> 8), UInt8(spec.ccFileID & 0xFF)] {
                selection.select(.capabilityContainer)
            } else if field.value(in: ccFile) != nil, id == Array(ccFile[field.offset..<(field.offset + field.length)])
            {
                selection.select(.ndef)
            } else {
                return fileNotFound
            }
            return success
        }
        if apdu.starts(with: readBinary), apdu.count == readBinary.count + 3 {
            guard let file = selection.file else {
                violations.record("READ BINARY before a file is selected")
                return fileNotFound
            }
            let offset = Int(apdu[2]) << 8 | Int(apdu[3])
            let expected = apdu[4] == 0 ? 256 : Int(apdu[4])
            if offset > 0x7FFF { violations.record("READ BINARY at offset \(offset): P1 bit 8 means a short file ID") }
            let maximumRead = spec.ccFields[.mle].value(in: ccFile) ?? 0
            if file == .ndef, expected > maximumRead {
                violations.record("READ BINARY of \(expected) bytes when MLe is \(maximumRead)")
                return wrongLength
            }
            let content = file == .capabilityContainer ? ccFile : ndefFile
            guard offset < content.count else { return wrongOffset }
            return Array(content[offset..<min(content.count, offset + expected)]) + success
        }
        violations.record("an APDU other than SELECT / READ BINARY while reading: \(fuzzHex(apdu))")
        return unknownInstruction
    }
}

/// What a Type 4 tag has selected, shared by the copies of its transport.
final class Type4Selection: Sendable {
    enum File: Sendable { case capabilityContainer, ndef }
    private let state = Mutex<(application: Bool, file: File?)>((false, nil))

    var isApplicationSelected: Bool { state.withLock { $0.application } }
    var file: File? { state.withLock { $0.file } }
    func reset() { state.withLock { $0 = (false, nil) } }
    func selectApplication() { state.withLock { $0 = (true, nil) } }
    func select(_ file: File) { state.withLock { $0.file = file } }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
