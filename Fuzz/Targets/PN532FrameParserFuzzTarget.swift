// Fuzz target `pn532-frame-parser`: the emulator's HSU frame parser on arbitrary host bytes.
//
// Properties, for any input:
// - feeding it whole and feeding it one byte at a time give the same events (the parser is
//   a stream parser: how `read` happened to split the bytes must not matter);
// - the parser never holds more than one frame's worth of bytes;
// - every command it reports fits in one frame (at most `maximumDataLength` data bytes).
import NFCChips
import NFCEmulator

@_cdecl("LLVMFuzzerTestOneInput")
public func pn532FrameParserFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let spec = ChipTables.pn532.frame
    // Start code, extended LEN (marker, LENhi, LENlo, LCS), TFI + CMD + data, DCS.
    let largestFrame = spec.startCode.count + spec.extendedLengthMarker.count + 3 + spec.maximumDataLength + 2 + 1

    var whole = PN532FrameParser(spec: spec)
    let wholeEvents = whole.feed(bytes)
    fuzzCheck(whole.bufferedByteCount <= largestFrame, "holds \(whole.bufferedByteCount) bytes after \(fuzzHex(bytes))")

    var bytewise = PN532FrameParser(spec: spec)
    var bytewiseEvents: [PN532HostEvent] = []
    for byte in bytes {
        bytewiseEvents += bytewise.feed([byte])
        fuzzCheck(
            bytewise.bufferedByteCount <= largestFrame,
            "holds \(bytewise.bufferedByteCount) bytes during \(fuzzHex(bytes))")
    }
    fuzzCheck(
        bytewiseEvents == wholeEvents,
        "byte-by-byte \(bytewiseEvents) differs from whole \(wholeEvents) for \(fuzzHex(bytes))")

    for case let .command(_, data) in wholeEvents {
        fuzzCheck(data.count <= spec.maximumDataLength, "command with \(data.count) data bytes from \(fuzzHex(bytes))")
    }
    return 0
}
