// Fuzz target `ndef-message`: NDEF message decoding, record payload parsing, and the
// round trip back to bytes.
//
// Properties, for any input:
// - `NDEFMessage(bytes:)` either decodes or throws an error whose offset lies in the input;
// - a decoded message re-encodes, unchunked and chunked, and both decode to the same message;
// - `parsedPayload()` on every record either succeeds, and then the typed payload rebuilds a
//   record that parses to the same payload, or throws with an offset inside the record.
import NDEF

@_cdecl("LLVMFuzzerTestOneInput")
public func ndefMessageFuzzTarget(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = fuzzInput(data, size)
    let message: NDEFMessage
    do {
        message = try NDEFMessage(bytes: bytes)
    } catch {
        fuzzCheck((0...bytes.count).contains(error.offset), "offset outside the input \(fuzzHex(bytes)): \(error)")
        return 0
    }
    checkReEncoding(message, from: bytes)
    for record in message.records { checkPayloadParsing(record) }
    return 0
}

/// A decoded message encodes again, and the encoding decodes to the same message; the same
/// with chunking (chunk size taken from the input so every size gets tried).
private func checkReEncoding(_ message: NDEFMessage, from bytes: [UInt8]) {
    let chunkSize = 1 + bytes.count % 97
    for maximumChunkSize in [nil, chunkSize] {
        let reEncoded: [UInt8]
        do {
            if let maximumChunkSize {
                reEncoded = try message.encoded(maximumChunkSize: maximumChunkSize)
            } else {
                reEncoded = try message.encoded()
            }
        } catch {
            fuzzCheck(
                false,
                "decoded message from \(fuzzHex(bytes)) does not re-encode (chunk \(String(describing: maximumChunkSize))): \(error)"
            )
            return
        }
        do {
            let again = try NDEFMessage(bytes: reEncoded)
            fuzzCheck(
                again == message,
                "re-encoding \(fuzzHex(reEncoded)) of \(fuzzHex(bytes)) decodes to a different message")
        } catch {
            fuzzCheck(false, "re-encoding \(fuzzHex(reEncoded)) of \(fuzzHex(bytes)) does not decode: \(error)")
        }
    }
}

/// A record's typed payload rebuilds a record with the same typed payload.
private func checkPayloadParsing(_ record: NDEFRecord) {
    let payload: NDEFPayload
    do {
        payload = try record.parsedPayload()
    } catch {
        let limit = max(record.payload.count, record.type.count)
        fuzzCheck((0...limit).contains(error.offset), "payload error offset outside the record \(record): \(error)")
        return
    }
    do {
        let rebuilt = try payload.makeRecord()
        let reparsed = try rebuilt.parsedPayload()
        fuzzCheck(reparsed == payload, "payload \(payload) rebuilt as \(rebuilt) parses as \(reparsed)")
    } catch {
        fuzzCheck(false, "payload \(payload) of \(record) does not rebuild: \(error)")
    }
}
