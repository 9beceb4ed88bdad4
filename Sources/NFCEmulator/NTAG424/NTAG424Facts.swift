import NFCChips

/// The NTAG 424 DNA facts the emulated tag uses, from the shared table.
typealias NTAG424Facts = NTAG424DNATable

extension NTAG424DNATable.File {
    /// The file's settings as the emulated tag keeps them.
    var emulatedSettings: EmulatedNTAG424FileSettings {
        EmulatedNTAG424FileSettings(
            communicationMode: communicationMode, read: read, write: write, readWrite: readWrite, change: change)
    }

    /// The content padded with zeros to the file size.
    var paddedContent: [UInt8] { content + [UInt8](repeating: 0, count: size - content.count) }
}
