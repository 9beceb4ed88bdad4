import NFCChips
import NFCTags

/// A FeliCa card (JIS X 6319-4; NFC Forum Type 3), as Core NFC's `NFCFeliCaTag`: Polling,
/// Request Service, Request Response, Request System Code, Read and Write Without
/// Encryption over service and block lists, and any FeliCa command. Its NDEF calls follow
/// the NFC Forum Type 3 mapping (system 12FC, the attribute block, WriteFlag).
///
/// Service codes are numbers as the card names them (`0x000B`); the card receives them
/// little-endian. A refusal is ``TagSessionError/command(operation:_:)`` with
/// `TagCommandError.feliCaStatus`, carrying status flags 1 and 2.
///
/// ```swift
/// let card = try session.feliCaTag()
/// let blocks = try await card.readWithoutEncryption(
///     serviceCodes: [0x000B], blocks: [FeliCaBlockElement(block: 0), FeliCaBlockElement(block: 1)])
/// ```
public struct NFCFeliCaTag: NFCTagHandle {
    /// The session the card is connected in.
    public let session: TagSession
    /// The card as Polling found it: IDm, PMm, the system code and the bit rate (apps read it
    /// as ``TagSession/target``).
    package let target: FeliCaTarget

    private var commands: FeliCaCommands {
        FeliCaCommands(transport: session.transport, idm: target.idm, pmm: target.pmm)
    }

    /// Polling for `systemCode` (FFFF: any), asking for the system code (`requestCode` 1) or
    /// the communication performance (2); `timeSlots` is 0, 1, 3, 7 or 15.
    public func polling(systemCode: UInt16, requestCode: UInt8 = 0, timeSlots: UInt8 = 0)
        async throws(TagSessionError) -> (idm: [UInt8], pmm: [UInt8], requestData: [UInt8])
    {
        let answer = try await session.perform(.feliCaCommand) { () throws(TagCommandError) in
            try await commands.polling(systemCode: systemCode, requestCode: requestCode, timeSlots: timeSlots)
        }
        return (answer.idm, answer.pmm, answer.requestData)
    }

    /// Request Service: each area or service code's key version, `0xFFFF` where the card has
    /// no such node.
    public func requestService(nodeCodes: [UInt16]) async throws(TagSessionError) -> [UInt16] {
        try await session.perform(.feliCaCommand) { () throws(TagCommandError) in
            try await commands.requestService(nodeCodes)
        }
    }

    /// Request Response: the card's mode (0 after Polling).
    public func requestResponse() async throws(TagSessionError) -> UInt8 {
        try await session.perform(.feliCaCommand) { () throws(TagCommandError) in try await commands.requestResponse() }
    }

    /// Request System Code: the systems on the card.
    public func requestSystemCode() async throws(TagSessionError) -> [UInt16] {
        try await session.perform(.feliCaCommand) { () throws(TagCommandError) in try await commands.requestSystemCode()
        }
    }

    /// Read Without Encryption: a 16-byte block for each element of `blocks`, whose service
    /// index points into `serviceCodes`.
    public func readWithoutEncryption(serviceCodes: [UInt16], blocks: [FeliCaBlockElement])
        async throws(TagSessionError) -> [[UInt8]]
    {
        try await session.perform(.feliCaCommand) { () throws(TagCommandError) in
            try await commands.readWithoutEncryption(services: serviceCodes, blocks: blocks)
        }
    }

    /// Write Without Encryption: `data[i]` (16 bytes) into `blocks[i]`.
    public func writeWithoutEncryption(serviceCodes: [UInt16], blocks: [FeliCaBlockElement], data: [[UInt8]])
        async throws(TagSessionError)
    {
        try await session.perform(.feliCaCommand) { () throws(TagCommandError) in
            try await commands.writeWithoutEncryption(services: serviceCodes, blocks: blocks, data: data)
        }
    }

    /// Internal authentication of a FeliCa Lite or Lite-S: a fresh challenge to RC, then the
    /// ID block with the card's MAC, checked under `cardKey` (16 bytes; a factory card's is
    /// zeros). Proves the card holds the key; ``readWithMAC(blocks:)`` then proves each read.
    /// Another key fails with `TagCommandError.verificationFailed`.
    public func authenticate(cardKey: [UInt8]) async throws(TagSessionError) {
        let mac = try await session.perform(.feliCaCommand) { () throws(TagCommandError) in
            try await commands.authenticateLite(cardKey: cardKey)
        }
        await session.setFeliCaMAC(mac)
    }

    /// Blocks of the NDEF service with the card's MAC over them (at most three a call on a
    /// Lite-S), checked: the data is the card's, not a replay or a clone's. Needs
    /// ``authenticate(cardKey:)`` first.
    public func readWithMAC(blocks: [UInt16]) async throws(TagSessionError) -> [[UInt8]] {
        guard let mac = await session.feliCaMAC else {
            throw .command(operation: .feliCaCommand, .invalidArgument("authenticate with the card key first"))
        }
        return try await session.perform(.feliCaCommand) { () throws(TagCommandError) in
            try await commands.readWithMAC(blocks: blocks, session: mac)
        }
    }

    /// Write with MAC of a FeliCa Lite-S: `data` (16 bytes) into `block` with MAC_A, which
    /// the card checks against the session key and its write counter WCNT before it writes.
    /// Blocks that MC reserves for a write with MAC take only this write. Writing `01` and
    /// fifteen zeros to STATE (`0x92`) this way is the external (mutual) authentication.
    /// Needs ``authenticate(cardKey:)`` first, and again once the card has left the field
    /// (it forgets the challenge); a refusal is `TagCommandError.feliCaStatus` with flags 02 B2.
    ///
    /// ```swift
    /// try await card.authenticate(cardKey: key)
    /// try await card.writeWithMAC(block: 0x92, data: [0x01] + [UInt8](repeating: 0, count: 15))
    /// ```
    public func writeWithMAC(block: UInt16, data: [UInt8]) async throws(TagSessionError) {
        guard let mac = await session.feliCaMAC else {
            throw .command(operation: .feliCaCommand, .invalidArgument("authenticate with the card key first"))
        }
        try await session.perform(.feliCaCommand) { () throws(TagCommandError) in
            try await commands.writeWithMAC(block: block, data: data, session: mac)
        }
    }

    /// The blocks a plain read reaches, as a dump image (`nfctag dump`): a Lite or Lite-S's
    /// memory map, or every keyless service of the system Polling found.
    package func dump() async throws(TagSessionError) -> CardMemoryDump {
        try await session.perform(.dump) { () throws(TagCommandError) in
            try await commands.dump(systemCode: target.systemCode)
        }
    }

    /// Any FeliCa command: `packet` is the command code and what follows (the IDm where the
    /// command names the card), without LEN; the answer comes back without LEN.
    public func sendFeliCaCommand(_ packet: [UInt8]) async throws(TagSessionError) -> [UInt8] {
        try await session.perform(.feliCaCommand) { () throws(TagCommandError) in try await commands.send(packet) }
    }
}
