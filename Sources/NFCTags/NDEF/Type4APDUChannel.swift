import NFCChips

/// SELECT, READ BINARY and UPDATE BINARY APDUs of the NFC Forum Type 4 mapping over a
/// ``TagTransport`` (the reader carries the ISO-DEP blocks), built from `ChipTables.type4`.
struct Type4APDUChannel: Sendable {
    let transport: any TagTransport
    let spec: Type4Spec

    /// An APDU's answer: data and status word.
    struct Answer: Sendable, Equatable {
        var data: [UInt8]
        var statusWord: UInt16
    }

    var success: UInt16 { spec.statusWords[.success].code }
    var fileNotFound: UInt16 { spec.statusWords[.fileNotFound].code }
    var securityNotSatisfied: UInt16 { spec.statusWords[.securityStatusNotSatisfied].code }

    /// Sends one APDU and splits off the status word.
    func send(_ apdu: [UInt8], step: NDEFTagStep) async throws(NDEFTagError) -> Answer {
        let response: TagResponse
        do {
            response = try await transport.transceive(
                apdu, framing: .standard, timeout: .milliseconds(spec.commandTimeoutMs))
        } catch {
            throw .reading(error, step: step)
        }
        let trailer = spec.responseAPDUOverhead
        guard case .bytes(let bytes) = response, bytes.count >= trailer else {
            throw .unexpectedResponse(step: step, description: "expected data and a status word, found \(response)")
        }
        let statusWord = bytes.suffix(trailer).reduce(UInt16(0)) { $0 << 8 | UInt16($1) }
        return Answer(data: Array(bytes.dropLast(trailer)), statusWord: statusWord)
    }

    /// Throws the error a non-success status word means for a step that writes nothing.
    func require(_ answer: Answer, step: NDEFTagStep) throws(NDEFTagError) -> [UInt8] {
        if answer.statusWord == success { return answer.data }
        if answer.statusWord == securityNotSatisfied { throw .authenticationRequired(step: step) }
        throw .statusWord(answer.statusWord, step: step)
    }

    func selectApplication(_ application: Type4Application) async throws(NDEFTagError) -> Answer {
        let apdu =
            spec.commands[.selectApplication].header + [UInt8(application.aid.count)] + application.aid + [
                spec.selectApplicationLe
            ]
        return try await send(apdu, step: .selectApplication)
    }

    func selectFile(_ fileID: [UInt8], application: Type4Application, step: NDEFTagStep) async throws(NDEFTagError) {
        _ = try require(try await selectFileAnswer(fileID, application: application, step: step), step: step)
    }

    /// SELECT of `fileID`, its answer whatever the status word.
    func selectFileAnswer(
        _ fileID: [UInt8], application: Type4Application, step: NDEFTagStep = .selectCapabilityContainerFile
    ) async throws(NDEFTagError) -> Answer {
        var apdu = spec.commands[.selectFile].header
        apdu[spec.p2Index] = application.selectFileP2
        return try await send(apdu + [UInt8(fileID.count)] + fileID, step: step)
    }

    /// READ BINARY of `count` bytes at `offset`, in APDUs of at most `chunk` bytes.
    func readBinary(offset: Int, count: Int, chunk: Int, step: (Int) -> NDEFTagStep) async throws(NDEFTagError)
        -> [UInt8]
    {
        var bytes: [UInt8] = []
        var position = offset
        while position < offset + count {
            let length = min(chunk, offset + count - position, spec.maximumShortAPDUData)
            guard position <= spec.maximumBinaryOffset else {
                throw .unsupportedTag(
                    reason: "NDEF files beyond offset \(spec.maximumBinaryOffset) need READ BINARY with odd INS")
            }
            let apdu =
                spec.commands[.readBinary].header + [UInt8(position >> 8), UInt8(position & 0xFF), UInt8(length)]
            let data = try require(try await send(apdu, step: step(position)), step: step(position))
            guard !data.isEmpty, data.count <= length else {
                throw .unexpectedResponse(
                    step: step(position), description: "expected \(length) bytes, found \(data.count)")
            }
            bytes += data
            position += data.count
        }
        return bytes
    }

    /// The UPDATE BINARY APDU writing `data` at `offset`.
    func updateBinary(offset: Int, data: [UInt8]) throws(NDEFTagError) -> [UInt8] {
        guard offset <= spec.maximumBinaryOffset else {
            throw .unsupportedTag(
                reason: "NDEF files beyond offset \(spec.maximumBinaryOffset) need UPDATE BINARY with odd INS")
        }
        return spec.commands[.updateBinary].header + [UInt8(offset >> 8), UInt8(offset & 0xFF), UInt8(data.count)]
            + data
    }
}
