import NDEF
import NFCChips

extension Type2NDEFDriver {
    /// Where `template`'s placeholder will lie once its message is written (the NDEF TLV goes
    /// where the old one is, or where a new one goes): MIRROR_PAGE and MIRROR_BYTE. Reads
    /// the tag; writes nothing.
    ///
    /// - Throws: ``NDEFTagError/unsupportedTag(reason:)`` with ``NTAGMirrorError``'s words
    ///   when the mirror would leave the user memory or straddle reserved bytes; the tag's
    ///   own errors (no NDEF, not readable) as the other calls do.
    package func mirrorPlacement(for template: NTAGMirrorTemplate) async throws(NDEFTagError) -> (page: Int, byte: Int)
    {
        let snapshot = try await readSnapshot()
        guard let scan = snapshot.scan, let typeAddress = scan.ndef?.typeAddress ?? scan.insertionAddress else {
            throw .unsupportedTag(reason: "the tag is not NDEF-formatted")
        }
        let messageLength = (try? template.message.encoded())?.count ?? 0
        let before =
            mapping.tlvHeaderLength(shortForm: messageLength <= mapping.shortLengthMaximum) + template.placeholderOffset
        guard let addresses = scan.area.streamAddresses(from: typeAddress, count: before + template.placeholderLength)
        else {
            throw .tagSizeTooSmall(
                needed: before + template.placeholderLength, capacity: scan.area.availableBytes(from: typeAddress))
        }
        let text = Array(addresses.suffix(template.placeholderLength))
        guard let first = text.first, let last = text.last else {
            throw .unsupportedTag(reason: NTAGMirrorError.noPlaceholder.description)
        }
        guard last - first == text.count - 1 else {
            throw .unsupportedTag(reason: NTAGMirrorError.splitByReservedBytes.description)
        }
        let (page, byte) = (first / profile.pageSize, first % profile.pageSize)
        guard page >= template.rules.firstMirrorPage, last < (profile.lastUserPage + 1) * profile.pageSize else {
            throw .unsupportedTag(
                reason: NTAGMirrorError.outsideUserMemory(page: page, byte: byte, length: text.count).description)
        }
        return (page, byte)
    }
}

extension Type2NDEFDriver {
    /// Writes `template`'s message tear-safely and verified, then points the NTAG21x's ASCII
    /// mirror at its zeros: MIRROR_CONF, MIRROR_PAGE, MIRROR_BYTE, and NFC_CNT_EN when the
    /// counter is mirrored. Where the zeros will lie is worked out before anything is written
    /// (``mirrorPlacement(for:)``); `commands` writes the configuration pages.
    package func writeMessage(
        mirroring template: NTAGMirrorTemplate, commands: Type2Commands,
        progress: @escaping @Sendable (NDEFWriteProgress) -> Void
    ) async throws(NDEFTagError) {
        guard let configurationPage = commands.memory.configuration?.pages.first else {
            throw .unsupportedTag(reason: "\(commands.chip.rawValue) has no ASCII mirror")
        }
        let (page, byte) = try await mirrorPlacement(for: template)
        try await writeMessage(template.message, options: NDEFWriteOptions(), progress: progress)
        // The configuration pages change here, not through the driver.
        forgetConfiguration()
        let notSet = "the message is written and verified, but the mirror is not set"
        var configuration: Type2Configuration
        do throws(TagCommandError) {
            configuration = try await commands.readConfiguration()
        } catch {
            throw .readerFailure(step: .readConfiguration(page: configurationPage), reason: "\(notSet): \(error)")
        }
        configuration.mirrorConfiguration = template.mirrorConfiguration
        configuration.mirrorPage = page
        configuration.mirrorByte = UInt8(byte)
        if template.mirrorsCounter { configuration.isNFCCounterEnabled = true }
        do throws(TagCommandError) {
            try await commands.writeConfiguration(configuration)
        } catch {
            throw .readerFailure(step: .writeConfiguration(page: configurationPage), reason: "\(notSet): \(error)")
        }
    }
}
