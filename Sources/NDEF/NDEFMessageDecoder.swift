/// Reads an NDEF message from untrusted bytes, one physical record at a time, and reassembles
/// chunked records.
///
/// Every length is compared with the bytes remaining before anything is copied, so the memory
/// used is bounded by the input size whatever the headers claim.
struct NDEFMessageDecoder {
    /// A logical record with where it was found.
    struct DecodedRecord {
        var record: NDEFRecord
        /// Offset of the record's (first chunk's) header.
        var headerOffset: Int
        /// Offset of the record's (first chunk's) payload.
        var payloadOffset: Int
    }

    /// One physical record (a whole record or one chunk) as its header describes it.
    private struct PhysicalRecord {
        var flags: UInt8
        var typeNameFormat: NDEFTypeNameFormat
        var type: Range<Int>
        var identifier: Range<Int>
        var payload: Range<Int>

        var messageBegin: Bool { flags & NDEFHeaderFlags.messageBegin != 0 }
        var messageEnd: Bool { flags & NDEFHeaderFlags.messageEnd != 0 }
        var chunk: Bool { flags & NDEFHeaderFlags.chunk != 0 }
        var end: Int { payload.upperBound }
    }

    private let bytes: [UInt8]

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    func decode() throws(NDEFDecodingError) -> [DecodedRecord] {
        guard !bytes.isEmpty else { throw NDEFDecodingError(offset: 0, reason: .emptyInput) }
        var records: [DecodedRecord] = []
        var pendingChunk: DecodedRecord?
        var offset = 0
        while true {
            let physical = try readRecord(at: offset, isFirst: offset == 0, continuing: pendingChunk != nil)
            let payload = bytes[physical.payload]
            if var chunked = pendingChunk {
                chunked.record.payload.append(contentsOf: payload)
                if physical.chunk {
                    pendingChunk = chunked
                } else {
                    records.append(chunked)
                    pendingChunk = nil
                }
            } else {
                let record = DecodedRecord(
                    record: NDEFRecord(
                        typeNameFormat: physical.typeNameFormat,
                        type: Array(bytes[physical.type]),
                        identifier: Array(bytes[physical.identifier]),
                        payload: Array(payload)
                    ),
                    headerOffset: offset,
                    payloadOffset: physical.payload.lowerBound
                )
                if physical.chunk { pendingChunk = record } else { records.append(record) }
            }
            offset = physical.end
            if physical.messageEnd {
                guard offset == bytes.count else {
                    throw NDEFDecodingError(offset: offset, reason: .bytesAfterMessageEnd(count: bytes.count - offset))
                }
                return records
            }
            guard offset < bytes.count else {
                let reason: NDEFDecodingError.Reason = pendingChunk == nil ? .missingMessageEnd : .unterminatedChunk
                throw NDEFDecodingError(offset: offset, reason: reason)
            }
        }
    }

    /// Reads and checks the physical record whose header starts at `start`.
    private func readRecord(at start: Int, isFirst: Bool, continuing: Bool) throws(NDEFDecodingError) -> PhysicalRecord
    {
        var cursor = start
        let flags = try readByte(&cursor)
        func fail(_ reason: NDEFDecodingError.Reason, at offset: Int = start) -> NDEFDecodingError {
            NDEFDecodingError(offset: offset, reason: reason)
        }
        // The raw value is masked to 3 bits, so every value has a case.
        let format = NDEFTypeNameFormat(rawValue: flags & NDEFHeaderFlags.typeNameFormatMask) ?? .reserved
        let chunk = flags & NDEFHeaderFlags.chunk != 0
        let hasIdentifier = flags & NDEFHeaderFlags.identifierLength != 0
        if isFirst, flags & NDEFHeaderFlags.messageBegin == 0 { throw fail(.missingMessageBegin) }
        if !isFirst, flags & NDEFHeaderFlags.messageBegin != 0 { throw fail(.unexpectedMessageBegin) }
        if format == .reserved { throw fail(.reservedTypeNameFormat) }
        if chunk, flags & NDEFHeaderFlags.messageEnd != 0 { throw fail(.chunkWithMessageEnd) }
        if continuing {
            if format != .unchanged { throw fail(.continuationTypeNameFormat(found: format)) }
            if hasIdentifier { throw fail(.continuationWithIdentifier) }
        } else {
            if format == .unchanged { throw fail(.unchangedOutsideChunk) }
            if format == .empty, chunk { throw fail(.chunkedEmptyRecord) }
        }

        let typeLengthOffset = cursor
        let typeLength = Int(try readByte(&cursor))
        let payloadLengthOffset = cursor
        let payloadLength: Int
        if flags & NDEFHeaderFlags.shortRecord != 0 {
            payloadLength = Int(try readByte(&cursor))
        } else {
            var length = 0
            for _ in 0..<4 { length = length << 8 | Int(try readByte(&cursor)) }
            payloadLength = length
        }
        let identifierLengthOffset = cursor
        let identifierLength = hasIdentifier ? Int(try readByte(&cursor)) : 0

        if continuing, typeLength != 0 {
            throw fail(.continuationWithType(length: typeLength), at: typeLengthOffset)
        }
        if format == .unknown, typeLength != 0 {
            throw fail(.typeInUnknownRecord(length: typeLength), at: typeLengthOffset)
        }
        if format == .empty {
            for (length, offset) in [
                (typeLength, typeLengthOffset), (payloadLength, payloadLengthOffset),
                (identifierLength, identifierLengthOffset),
            ] where length != 0 {
                throw fail(.lengthInEmptyRecord(length: length), at: offset)
            }
        }

        let type = try take(typeLength, at: &cursor, lengthFieldOffset: typeLengthOffset)
        let identifier = try take(identifierLength, at: &cursor, lengthFieldOffset: identifierLengthOffset)
        let payload = try take(payloadLength, at: &cursor, lengthFieldOffset: payloadLengthOffset)
        return PhysicalRecord(
            flags: flags, typeNameFormat: format, type: type, identifier: identifier, payload: payload)
    }

    private func readByte(_ cursor: inout Int) throws(NDEFDecodingError) -> UInt8 {
        guard cursor < bytes.count else { throw NDEFDecodingError(offset: cursor, reason: .truncatedHeader) }
        defer { cursor += 1 }
        return bytes[cursor]
    }

    /// The range of the next `length` bytes, checked against the bytes remaining before use.
    private func take(_ length: Int, at cursor: inout Int, lengthFieldOffset: Int) throws(NDEFDecodingError) -> Range<
        Int
    > {
        let remaining = bytes.count - cursor
        guard length <= remaining else {
            throw NDEFDecodingError(
                offset: lengthFieldOffset, reason: .lengthPastEnd(declared: length, remaining: remaining))
        }
        defer { cursor += length }
        return cursor..<(cursor + length)
    }
}
