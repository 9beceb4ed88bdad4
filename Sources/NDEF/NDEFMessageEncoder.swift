/// Writes logical records as NDEF bytes, optionally splitting long payloads into chunks.
struct NDEFMessageEncoder {
    let records: [NDEFRecord]
    /// The largest payload of one chunk; `nil` never chunks.
    let maximumChunkSize: Int?

    func encode() throws(NDEFEncodingError) -> [UInt8] {
        guard !records.isEmpty else { throw .emptyMessage }
        var capacity = 0
        for (index, record) in records.enumerated() {
            try Self.validate(record, index: index)
            capacity += record.type.count + record.identifier.count + record.payload.count + 7
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(capacity)
        for (index, record) in records.enumerated() {
            write(record, first: index == 0, last: index == records.count - 1, into: &bytes)
        }
        return bytes
    }

    /// The NDEF rules a logical record must follow to be written.
    static func validate(_ record: NDEFRecord, index: Int) throws(NDEFEncodingError) {
        switch record.typeNameFormat {
        case .unchanged, .reserved:
            throw .unencodableTypeNameFormat(recordIndex: index, record.typeNameFormat)
        case .empty:
            if !record.type.isEmpty || !record.identifier.isEmpty || !record.payload.isEmpty {
                throw .contentInEmptyRecord(recordIndex: index)
            }
        case .unknown:
            if !record.type.isEmpty { throw .typeInUnknownRecord(recordIndex: index) }
        case .wellKnown, .media, .absoluteURI, .external:
            break
        }
        if record.type.count > 255 { throw .typeTooLong(recordIndex: index, length: record.type.count) }
        if record.identifier.count > 255 {
            throw .identifierTooLong(recordIndex: index, length: record.identifier.count)
        }
        if UInt64(record.payload.count) > UInt64(UInt32.max) {
            throw .payloadTooLong(recordIndex: index, length: record.payload.count)
        }
    }

    private func write(_ record: NDEFRecord, first: Bool, last: Bool, into bytes: inout [UInt8]) {
        let payload = record.payload
        guard let size = maximumChunkSize, payload.count > size else {
            writeRecord(
                flags: (first ? NDEFHeaderFlags.messageBegin : 0) | (last ? NDEFHeaderFlags.messageEnd : 0),
                format: record.typeNameFormat, type: record.type, identifier: record.identifier,
                payload: payload[...], into: &bytes
            )
            return
        }
        var start = payload.startIndex
        while start < payload.endIndex {
            let end = min(start + size, payload.endIndex)
            let isFirstChunk = start == payload.startIndex
            let isLastChunk = end == payload.endIndex
            var flags: UInt8 = isLastChunk ? 0 : NDEFHeaderFlags.chunk
            if isFirstChunk, first { flags |= NDEFHeaderFlags.messageBegin }
            if isLastChunk, last { flags |= NDEFHeaderFlags.messageEnd }
            writeRecord(
                flags: flags,
                format: isFirstChunk ? record.typeNameFormat : .unchanged,
                type: isFirstChunk ? record.type : [],
                identifier: isFirstChunk ? record.identifier : [],
                payload: payload[start..<end], into: &bytes
            )
            start = end
        }
    }

    private func writeRecord(
        flags: UInt8, format: NDEFTypeNameFormat, type: [UInt8], identifier: [UInt8],
        payload: ArraySlice<UInt8>, into bytes: inout [UInt8]
    ) {
        var header = flags | format.rawValue
        let short = payload.count < 256
        if short { header |= NDEFHeaderFlags.shortRecord }
        if !identifier.isEmpty { header |= NDEFHeaderFlags.identifierLength }
        bytes.append(header)
        bytes.append(UInt8(type.count))
        if short {
            bytes.append(UInt8(payload.count))
        } else {
            let length = UInt32(payload.count)
            bytes.append(contentsOf: [
                UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
            ])
        }
        if !identifier.isEmpty { bytes.append(UInt8(identifier.count)) }
        bytes.append(contentsOf: type)
        bytes.append(contentsOf: identifier)
        bytes.append(contentsOf: payload)
    }
}
