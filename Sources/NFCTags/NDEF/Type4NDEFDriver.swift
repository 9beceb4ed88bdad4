import NDEF
import NFCChips

/// NDEF on NFC Forum Type 4 tags: SELECT of the NDEF Tag Application (mapping 2.0, then
/// 1.0), the CC file, the NDEF file with NLEN (or ENLEN for an extended file), READ BINARY
/// within MLe and UPDATE BINARY within MLc.
///
/// Writes are tear-safe: NLEN 0 first, then the body, then the real NLEN, driven by
/// ``NDEFWriteMachine`` and verified by reading back. Making a Type 4 tag read-only or
/// creating its NDEF application is proprietary and reported as unsupported.
package actor Type4NDEFDriver: NDEFTagDriver {
    let channel: Type4APDUChannel
    private var verifiedMessage: [UInt8]?

    /// What one pass of reads found.
    struct Snapshot: Sendable {
        var application: Type4Application
        var capabilityContainer: Type4CapabilityContainer
        /// The message (empty unless read with `messageToo`).
        var message: [UInt8]
        /// The NLEN / ENLEN the tag declares (up to 4 GB on an extended file: never
        /// allocated, only reported).
        var length: Int
    }

    init(transport: any TagTransport, spec: Type4Spec = ChipTables.type4) {
        self.channel = Type4APDUChannel(transport: transport, spec: spec)
    }

    var spec: Type4Spec { channel.spec }

    /// Reads the CC file and NLEN.
    package func queryStatus() async throws(NDEFTagError) -> NDEFStatus {
        guard let snapshot = try await readSnapshot(messageToo: false) else {
            return NDEFStatus(availability: .notSupported, capacity: 0, length: 0)
        }
        let cc = snapshot.capabilityContainer
        return NDEFStatus(
            availability: cc.writeAccess == spec.accessGranted ? .readWrite : .readOnly,
            capacity: cc.capacity, length: snapshot.length)
    }

    /// Reads the NDEF file.
    package func readMessage() async throws(NDEFTagError) -> NDEFMessage {
        verifiedMessage = nil
        guard let snapshot = try await readSnapshot(messageToo: true) else { throw Self.noApplication }
        let length = snapshot.capabilityContainer.lengthFieldSize
        let message = try NDEFMessage.fromTagBytes(
            snapshot.message, addresses: Array(length..<(length + snapshot.message.count)))
        verifiedMessage = snapshot.message
        return message
    }

    /// Writes NLEN 0, the body (only the chunks that change unless `options.fullWrite`),
    /// then NLEN, and reads it back.
    package func writeMessage(
        _ message: NDEFMessage, options: NDEFWriteOptions, progress: @Sendable (NDEFWriteProgress) -> Void
    ) async throws(NDEFTagError) {
        verifiedMessage = nil
        let bytes = try message.tagBytes()
        guard let snapshot = try await readSnapshot(messageToo: true) else { throw Self.noApplication }
        let cc = snapshot.capabilityContainer
        guard bytes.count <= cc.capacity else { throw .tagSizeTooSmall(needed: bytes.count, capacity: cc.capacity) }
        guard cc.writeAccess == spec.accessGranted else { throw .tagNotWritable }
        let chunk = max(
            1,
            min(
                cc.maximumWriteLength, channel.transport.maximumFrameLength - channel.spec.commandAPDUOverhead,
                channel.spec.maximumShortAPDUData))
        let plan = Type4WritePlan(
            old: snapshot.message, new: bytes, lengthFieldSize: cc.lengthFieldSize,
            chunk: chunk, fullWrite: options.fullWrite)
        try await NDEFWriteMachine.run(
            phases: plan.writes.map(\.phase), previousReadsEmpty: snapshot.message.isEmpty,
            progress: progress
        ) { index, machine throws(NDEFTagError) in
            let write = plan.writes[index]
            let step = NDEFTagStep.updateNDEFFile(offset: write.offset)
            let answer: Type4APDUChannel.Answer
            do throws(NDEFTagError) {
                answer = try await channel.send(
                    try channel.updateBinary(offset: write.offset, data: write.data), step: step)
            } catch {
                throw Type2NDEFDriver.verificationError(
                    error, state: machine.stateAfterFailure(mayHaveReachedTag: true))
            }
            guard answer.statusWord == channel.success else {
                throw .tagUpdateFailure(
                    step: step, state: machine.stateAfterFailure(mayHaveReachedTag: false),
                    reason: .statusWord(answer.statusWord))
            }
        } verify: { tagHolds throws(NDEFTagError) in
            let expected = plan.expectedFile
            let readBack: [UInt8]
            do throws(NDEFTagError) {
                readBack = try await channel.readBinary(offset: 0, count: expected.count, chunk: readChunk(cc)) {
                    .readNDEFFile(offset: $0)
                }
            } catch {
                throw Type2NDEFDriver.verificationError(error, state: tagHolds)
            }
            if let offset = zip(readBack, expected).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset
            {
                throw .tagUpdateFailure(
                    step: .readNDEFFile(offset: offset), state: .unknown, reason: .verificationMismatch(offset: offset))
            }
        }
        verifiedMessage = bytes
    }

    /// Type 4 has no standard way to make the NDEF file read-only: succeeds when the CC
    /// already says read-only, else reports the tag as unsupported for this.
    package func makeReadOnly(force: Bool) async throws(NDEFTagError) {
        if try await isReadOnlyAfterCheck(force: force) { return }
        throw .unsupportedTag(reason: "making a Type 4 NDEF file read-only is proprietary to each tag product")
    }

    /// The check before a lock: the message on the tag is the one verified on this
    /// connection (or `force`). Returns whether the CC already says read-only.
    package func isReadOnlyAfterCheck(force: Bool) async throws(NDEFTagError) -> Bool {
        guard let snapshot = try await readSnapshot(messageToo: true) else { throw Self.noApplication }
        guard force || verifiedMessage == snapshot.message else { throw .notVerified }
        return snapshot.capabilityContainer.writeAccess != spec.accessGranted
    }

    /// Whether the NDEF Tag Application answers SELECT (with a readable CC).
    package func hasApplication() async throws(NDEFTagError) -> Bool {
        try await readSnapshot(messageToo: false) != nil
    }

    /// Empties the NDEF file (NLEN 0). Creating the NDEF application is proprietary.
    package func format(force: Bool) async throws(NDEFTagError) {
        guard try await readSnapshot(messageToo: false) != nil else { throw Self.noApplication }
        guard force else { throw .alreadyFormatted }
        try await writeMessage(NDEFMessage(records: []), options: NDEFWriteOptions(), progress: { _ in })
    }

    static let noApplication = NDEFTagError.unsupportedTag(
        reason: "the tag has no NDEF Tag Application, and creating one is proprietary")

    private func readChunk(_ cc: Type4CapabilityContainer) -> Int {
        max(
            1,
            min(
                cc.maximumReadLength, channel.transport.maximumFrameLength - channel.spec.responseAPDUOverhead,
                channel.spec.maximumShortAPDUData))
    }

    /// Selects the application (2.0, then 1.0), reads the CC, selects the NDEF file and
    /// reads NLEN (and the message). `nil` when the tag has no NDEF application.
    func readSnapshot(messageToo: Bool) async throws(NDEFTagError) -> Snapshot? {
        var selected: Type4Application?
        for application in spec.applications {
            let answer = try await channel.selectApplication(application)
            if answer.statusWord == channel.fileNotFound { continue }
            guard answer.statusWord == channel.success else {
                throw .statusWord(answer.statusWord, step: .selectApplication)
            }
            // A DESFire answers the mapping 1.0 name D2760000850100 by selecting its PICC
            // level (kpn532's trace of a real EV3): without a CC file there, it has no NDEF.
            let cc = try await channel.selectFileAnswer(Self.fileID(spec.ccFileID), application: application)
            if cc.statusWord == channel.fileNotFound { continue }
            _ = try channel.require(cc, step: .selectCapabilityContainerFile)
            selected = application
            break
        }
        guard let application = selected else { return nil }
        let short = Type4CapabilityContainer.length(forControlTag: spec.ndefFileControlTag, spec: spec)
        var ccBytes = try await channel.readBinary(offset: 0, count: short, chunk: short) { _ in
            .readCapabilityContainerFile
        }
        let tagOffset = spec.ccFields[.fileControlType].offset
        if ccBytes.count > tagOffset, ccBytes[tagOffset] == spec.extendedNDEFFileControlTag {
            let full = Type4CapabilityContainer.length(forControlTag: ccBytes[tagOffset], spec: spec)
            ccBytes += try await channel.readBinary(offset: short, count: full - short, chunk: full) { _ in
                .readCapabilityContainerFile
            }
        }
        let cc = try Type4CapabilityContainer(bytes: ccBytes, spec: spec)
        guard cc.readAccess == spec.accessGranted else {
            throw .authenticationRequired(step: .readCapabilityContainerFile)
        }
        try await channel.selectFile(cc.ndefFileID, application: application, step: .selectNDEFFile)
        let lengthBytes = try await channel.readBinary(offset: 0, count: cc.lengthFieldSize, chunk: readChunk(cc)) {
            .readNDEFFile(offset: $0)
        }
        let length = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
        guard length <= cc.capacity else {
            throw .invalidNDEF(offset: 0, reason: .lengthPastEnd(declared: length, remaining: cc.capacity))
        }
        var message: [UInt8] = []
        if messageToo, length > 0 {
            message = try await channel.readBinary(offset: cc.lengthFieldSize, count: length, chunk: readChunk(cc)) {
                .readNDEFFile(offset: $0)
            }
        }
        return Snapshot(application: application, capabilityContainer: cc, message: message, length: length)
    }

    static func fileID(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
}

/// The UPDATE BINARY commands of a tear-safe Type 4 write.
struct Type4WritePlan: Sendable, Equatable {
    struct Write: Sendable, Equatable {
        var offset: Int
        var data: [UInt8]
        var phase: NDEFWritePhase
    }

    var writes: [Write]
    /// NLEN + message, as the file must read afterwards.
    var expectedFile: [UInt8]

    init(old: [UInt8], new: [UInt8], lengthFieldSize: Int, chunk: Int, fullWrite: Bool) {
        let lengthField = (0..<lengthFieldSize).reversed().map { UInt8(truncatingIfNeeded: new.count >> (8 * $0)) }
        expectedFile = lengthField + new
        var writes: [Write] = []
        guard fullWrite || old != new else {
            self.writes = []
            return
        }
        if fullWrite || !old.isEmpty {
            writes.append(Write(offset: 0, data: [UInt8](repeating: 0, count: lengthFieldSize), phase: .clearLength))
        }
        var start = 0
        while start < new.count {
            let end = min(new.count, start + chunk)
            let unchanged = end <= old.count && Array(old[start..<end]) == Array(new[start..<end])
            if fullWrite || !unchanged {
                writes.append(Write(offset: lengthFieldSize + start, data: Array(new[start..<end]), phase: .body))
            }
            start = end
        }
        if fullWrite || !new.isEmpty {
            writes.append(Write(offset: 0, data: lengthField, phase: .commit))
        }
        self.writes = writes
    }
}
