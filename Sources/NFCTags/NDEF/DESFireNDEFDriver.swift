import NDEF
import NFCChips

/// NDEF on MIFARE DESFire: the NFC Forum Type 4 mapping (AN11004) for status, read and
/// write, through ``Type4NDEFDriver``; creating the NDEF application and making it
/// read-only, which Type 4 leaves to each product, with DESFire's own commands.
///
/// `format` on a card without the application creates it as libfreefare's
/// `mifare-desfire-create-ndef` does: AID 000001 with ISO file ID E110 and the NFC Forum
/// DF name, one DES key (all zero), the CC file 01 (E103, 15 bytes, writable only with key
/// 0) and the NDEF file 02 (E104, free access, as large as the card's free memory allows up
/// to 7,680 bytes). It needs the PICC master key to be the factory key, or free creation.
///
/// `writeLock` writes `FF` into the CC's write-access byte, then takes write access away
/// from the NDEF file and the CC file for good (access rights read free, write,
/// read-write and change never): after it no key can make the NDEF data writable again.
package actor DESFireNDEFDriver: NDEFTagDriver {
    let type4: Type4NDEFDriver
    let commands: DESFireCommands

    init(transport: any TagTransport) {
        type4 = Type4NDEFDriver(transport: transport)
        commands = DESFireCommands(transport: transport)
    }

    static var ndef: DESFireNDEFSpec { ChipTables.desfire.ndef }
    static var applicationID: UInt32 { UInt32(DESFireFileSettings.le(ndef.aid[...])) }

    package func queryStatus() async throws(NDEFTagError) -> NDEFStatus { try await type4.queryStatus() }

    package func readMessage() async throws(NDEFTagError) -> NDEFMessage { try await type4.readMessage() }

    package func writeMessage(
        _ message: NDEFMessage, options: NDEFWriteOptions, progress: @Sendable (NDEFWriteProgress) -> Void
    ) async throws(NDEFTagError) {
        try await type4.writeMessage(message, options: options, progress: progress)
    }

    /// CC write access `FF`, then the NDEF and CC files' rights to never, with key 0 of the
    /// application (the factory key).
    package func makeReadOnly(force: Bool) async throws(NDEFTagError) {
        if try await type4.isReadOnlyAfterCheck(force: force) { return }
        let ndef = Self.ndef
        let locked = ndef.readOnlyAccessRights
        try await step(.lockNDEFFile) { () throws(TagCommandError) in
            try await commands.selectApplication(Self.applicationID)
        }
        try await authenticate()
        let writeAccessOffset = ChipTables.type4.ccFields[.writeAccess].offset
        try await step(.lockNDEFFile) { () throws(TagCommandError) in
            try await commands.writeData(
                file: ndef.ccFileNumber, offset: writeAccessOffset, data: [ChipTables.type4.accessDenied])
            try await commands.changeFileSettings(ndef.ndefFileNumber, mode: .plain, accessRights: locked)
            try await commands.changeFileSettings(ndef.ccFileNumber, mode: .plain, accessRights: locked)
        }
    }

    /// Creates the NDEF application on a card without one; on a card with one, empties
    /// the message (with `force`), as on any Type 4 tag.
    package func format(force: Bool) async throws(NDEFTagError) {
        if try await type4.hasApplication() {
            try await type4.format(force: force)
            return
        }
        let ndef = Self.ndef
        let table = ChipTables.desfire
        let type4 = ChipTables.type4
        try await step(.createNDEFApplication) { () throws(TagCommandError) in
            try await commands.selectApplication(0)
        }
        let free = try await step(.createNDEFApplication) { () throws(TagCommandError) in
            try await commands.freeMemory()
        }
        let unit = table.allocation.blockSize
        let ccBlocks = (ndef.ccFileSize + unit - 1) / unit * unit
        let size = min(ndef.maxNDEFFileSize, (free - ccBlocks - table.allocation.applicationOverhead) / unit * unit)
        guard size >= type4.nlenLength + 3 else {
            throw .tagSizeTooSmall(needed: type4.nlenLength + 3, capacity: max(0, size - type4.nlenLength))
        }
        do {
            try await createApplication()
        } catch .ntag424(.permissionDenied), .ntag424(.wrongKey), .ntag424(.status(_, 0x91AE, _)) {
            // The PICC wants its master key for CreateApplication: the factory key, or refused.
            try await authenticate()
            try await step(.createNDEFApplication) { () throws(TagCommandError) in try await createApplication() }
        } catch {
            throw Self.mapped(error, step: .createNDEFApplication)
        }
        try await step(.createNDEFApplication) { () throws(TagCommandError) in
            try await commands.selectApplication(Self.applicationID)
        }
        try await authenticate()
        let cc = Self.capabilityContainer(ndefFileSize: size)
        try await step(.createNDEFApplication) { () throws(TagCommandError) in
            try await commands.createFile(
                ndef.ccFileNumber,
                settings: DESFireFileSettings(
                    kind: .data(size: ndef.ccFileSize, backup: false), communicationMode: .plain,
                    accessRights: ndef.ccAccessRights),
                isoFileID: type4.ccFileID)
            try await commands.writeData(file: ndef.ccFileNumber, data: cc)
            try await commands.createFile(
                ndef.ndefFileNumber,
                settings: DESFireFileSettings(
                    kind: .data(size: size, backup: false), communicationMode: .plain,
                    accessRights: ndef.ndefAccessRights),
                isoFileID: type4.defaultNDEFFileID)
        }
    }

    private func createApplication() async throws(TagCommandError) {
        let ndef = Self.ndef
        try await commands.createApplication(
            Self.applicationID, keySettings: ndef.keySettings, keyCount: ndef.keyCount, cipher: .des,
            isoFileID: ndef.isoFileID, dfName: ndef.dfName)
    }

    /// The CC file of a mapping 2.0 NDEF application with an NDEF file of `ndefFileSize`
    /// bytes: the generic Type 4 tag's CC with MLe and MLc as libfreefare writes them (a
    /// DESFire answers 59 bytes a frame) and the file's size.
    static func capabilityContainer(ndefFileSize: Int) -> [UInt8] {
        let type4 = ChipTables.type4
        let framing = ChipTables.desfire.framing
        var cc = ChipTables.spec(for: .type4).type4Files?.capabilityContainer ?? []
        cc += [UInt8](repeating: 0, count: max(0, ndef.ccFileSize - cc.count))
        func put(_ field: Type4CCFieldName, _ value: Int) {
            let spec = type4.ccFields[field]
            for index in 0..<spec.length {
                cc[spec.offset + index] = UInt8(truncatingIfNeeded: value >> (8 * (spec.length - 1 - index)))
            }
        }
        put(.mle, framing.maxAnswerFrameData)
        put(.mlc, framing.maxCommandFrameData - 3)
        put(.maxNDEFFileSize, ndefFileSize)
        put(.writeAccess, Int(type4.accessGranted))
        return Array(cc.prefix(ndef.ccFileSize))
    }

    /// Key 0 of the selected application (or PICC), with the factory key.
    private func authenticate() async throws(NDEFTagError) {
        do {
            try await commands.authenticate(keyNumber: 0, key: .factoryDefault)
        } catch .ntag424(.wrongKey) {
            throw .authenticationRequired(step: .authenticateApplication)
        } catch {
            throw Self.mapped(error, step: .authenticateApplication)
        }
    }

    private func step<Result: Sendable>(
        _ step: NDEFTagStep, _ body: () async throws(TagCommandError) -> Result
    ) async throws(NDEFTagError) -> Result {
        do { return try await body() } catch { throw Self.mapped(error, step: step) }
    }

    static func mapped(_ error: TagCommandError, step: NDEFTagStep) -> NDEFTagError {
        switch error {
        case .transport(let transport):
            return .writing(transport, step: step, state: .unknown)
        case .ntag424(.wrongKey), .ntag424(.permissionDenied):
            return .authenticationRequired(step: step)
        case .ntag424(.status(_, let statusWord, _)):
            return .statusWord(statusWord, step: step)
        default:
            return .unexpectedResponse(step: step, description: error.description)
        }
    }
}
