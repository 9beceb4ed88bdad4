import NFCChips

/// A C-APDU as the emulated tag reads it (ISO/IEC 7816-4 §5.1): header, command data and
/// Ne, in short or extended form. The tag's own reading, independent of the library's
/// `APDU`, so that a test through the emulator checks one against the other.
struct ReceivedAPDU: Equatable {
    var header: [UInt8]
    var data: [UInt8]
    /// Ne, or `nil` when no Le field was sent.
    var expectedLength: Int?
    /// Whether the length fields were extended.
    var extended: Bool

    init?(_ bytes: [UInt8]) {
        let iso = ChipTables.iso7816
        guard bytes.count >= iso.headerLength else { return nil }
        header = Array(bytes.prefix(iso.headerLength))
        let body = Array(bytes.dropFirst(iso.headerLength))
        (data, expectedLength, extended) = ([], nil, false)
        guard let first = body.first else { return }
        if first != iso.extendedLengthMarker || body.count == 1 {
            let rest = body.count == 1 ? 0 : Int(first)
            switch body.count {
            case 1: expectedLength = first == 0 ? iso.shortMaximumNe : Int(first)
            case 1 + rest: data = Array(body.dropFirst())
            case 2 + rest:
                data = Array(body.dropFirst().dropLast())
                expectedLength = body.last.map { $0 == 0 ? iso.shortMaximumNe : Int($0) }
            default: return nil
            }
            return
        }
        extended = true
        guard body.count >= 3 else { return nil }
        let value = { (high: UInt8, low: UInt8) in Int(high) << 8 | Int(low) }
        if body.count == 3 {
            let le = value(body[1], body[2])
            expectedLength = le == 0 ? iso.extendedMaximumNe : le
            return
        }
        let nc = value(body[1], body[2])
        guard nc > 0, body.count == 3 + nc || body.count == 5 + nc else { return nil }
        data = Array(body[3..<(3 + nc)])
        if body.count == 5 + nc {
            let le = value(body[body.count - 2], body[body.count - 1])
            expectedLength = le == 0 ? iso.extendedMaximumNe : le
        }
    }
}

/// What the emulated Type 4 tag adds to the NDEF mapping: extended-length APDUs, answers
/// in pieces through GET RESPONSE (`61xx`), and the exact-length hint `6Cxx`.
///
/// MODEL CHOICES (ISO/IEC 7816-4 allows them; no data sheet of a real tag was followed):
/// - The tag sends at most MLe bytes (its CC, 255 here) of answer data in one R-APDU. A
///   READ BINARY asking for more (short Le `00` = 256, or an extended Le) gets the first
///   MLe bytes with `61xx` (`xx` = bytes still waiting, `00` for 256 or more); GET
///   RESPONSE (`00 C0 00 00 Le`) hands out the rest the same way, and any other command
///   drops what was waiting. GET RESPONSE with nothing waiting is `6985`.
/// - A READ BINARY with a short, non-zero Le larger than the bytes left in the file
///   (from the offset to the end of the file) gets `6Cxx`, `xx` = the bytes left; Le `00`
///   or an extended Le means "up to", and gets what is there. (ISO/IEC 7816-4 also
///   allows `6282` with the shorter data; some cards answer `6Cxx`, which is the case the
///   library must handle.)
/// - Extended Lc and Le are accepted on every command; the data still has to fit MLc.
extension Type4Tag {
    /// SW1 SW2 of ISO 7816-4 status word `name`, with `sw2` for the SW1-only entries.
    func isoStatusWord(_ name: ISO7816StatusWordName, sw2: Int = 0) -> [UInt8] {
        let code = ChipTables.iso7816.statusWords[name].code
        return [UInt8(code >> 8), UInt8(code & 0xFF) | UInt8(sw2 & 0xFF)]
    }

    /// The count byte of `61xx` / `6Cxx`: `count`, or `00` for 256 and more.
    func countByte(_ count: Int) -> Int { count >= ChipTables.iso7816.shortMaximumNe ? 0 : count }

    /// `data` as the tag sends it: at most MLe bytes now, the rest waiting for GET RESPONSE.
    mutating func answerInPieces(_ data: [UInt8]) -> [UInt8] {
        let piece = max(1, ccValue(.mle))
        guard data.count > piece else { return data + statusWord(.success) }
        waitingResponse = Array(data.dropFirst(piece))
        return Array(data.prefix(piece)) + isoStatusWord(.bytesAvailable, sw2: countByte(waitingResponse.count))
    }

    /// GET RESPONSE: the next piece of the waiting answer.
    mutating func getResponse(_ apdu: ReceivedAPDU) -> [UInt8] {
        guard !waitingResponse.isEmpty else { return isoStatusWord(.conditionsNotSatisfied) }
        guard let ne = apdu.expectedLength, apdu.data.isEmpty else { return statusWord(.wrongLength) }
        let piece = min(ne, max(1, ccValue(.mle)))
        let now = Array(waitingResponse.prefix(piece))
        waitingResponse.removeFirst(now.count)
        return now
            + (waitingResponse.isEmpty
                ? statusWord(.success) : isoStatusWord(.bytesAvailable, sw2: countByte(waitingResponse.count)))
    }

    /// READ BINARY of the selected file, with the model choices above.
    mutating func readBinaryFile(_ apdu: ReceivedAPDU) -> [UInt8] {
        guard let content = selectedContent else { return statusWord(.fileNotFound) }
        guard let ne = apdu.expectedLength, apdu.data.isEmpty else { return statusWord(.wrongLength) }
        let offset = Int(apdu.header[2]) << 8 | Int(apdu.header[3])
        guard offset < content.count else { return statusWord(.incorrectP1P2) }
        let left = content.count - offset
        if ne > left, !apdu.extended, ne != ChipTables.iso7816.shortMaximumNe {
            return isoStatusWord(.wrongLe, sw2: countByte(left))
        }
        return answerInPieces(Array(content[offset..<(offset + min(ne, left))]))
    }
}
