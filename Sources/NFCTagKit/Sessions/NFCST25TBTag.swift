import NFCChips
import NFCTags

/// An ST25TB or SRx card in a ``TagSession``: Get_UID, Read_Block and Write_Block (read
/// back, as the card never answers a write). It holds no NDEF: not an NFC Forum tag, its
/// NDEF calls say so.
///
/// Inside the package for now, as ``NFCType1Tag`` is: ``TagSession/send(_:framing:timeout:)``
/// reaches the card's commands from an app.
package struct NFCST25TBTag: NFCTagHandle {
    package let session: TagSession

    private var commands: ST25TBCommands { ST25TBCommands(transport: session.transport) }

    /// Get_UID: 8 bytes, least significant first.
    package func readUID() async throws(TagSessionError) -> [UInt8] {
        try await session.perform(.st25tbCommand) { () throws(TagCommandError) in try await commands.readUID() }
    }

    /// Read_Block of `block` (FF: the system block).
    package func readBlock(_ block: Int) async throws(TagSessionError) -> [UInt8] {
        try await session.perform(.st25tbCommand) { () throws(TagCommandError) in
            try await commands.readBlock(block)
        }
    }

    /// Write_Block of `block` (4 bytes), then read back: the card keeps a locked block and a
    /// counter asked to count up, and that is an error.
    package func writeBlock(_ block: Int, data: [UInt8]) async throws(TagSessionError) {
        _ = try await session.perform(.st25tbCommand) { () throws(TagCommandError) in
            try await commands.writeBlock(block, data: data)
        }
    }

    /// Every block and the system block, as a dump image.
    package func dump() async throws(TagSessionError) -> CardMemoryDump {
        try await session.perform(.dump) { () throws(TagCommandError) in try await commands.dump(uid: session.uid) }
    }
}
