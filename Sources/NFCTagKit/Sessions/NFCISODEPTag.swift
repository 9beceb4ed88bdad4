import NFCChips
import NFCTags

/// An ISO-DEP (ISO 14443-4) tag, such as an NFC Forum Type 4 tag: the reader activated it
/// with RATS, and commands travel in ISO-DEP blocks that the reader builds
/// (`TagFraming.standard` framing, PN532 InDataExchange).
///
/// ```swift
/// let tag = try session.isoDEPTag()
/// tag.ats                                                        // the answer to select
/// let select = try APDU(cla: 0x00, ins: 0xA4, p1: 0x04, p2: 0x00,
///                       data: [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01], expectedResponseLength: 256)
/// let answer = try await tag.sendCommand(select)
/// answer.isSuccess                                               // 9000
/// ```
public struct NFCISODEPTag: NFCTagHandle {
    /// The session the tag is connected in.
    public let session: TagSession

    /// The tag's answer to RATS (ATS), as the reader received it.
    public var ats: [UInt8] { session.target.typeA?.ats ?? [] }

    /// Sends an ISO 7816-4 APDU and returns the whole answer — Core NFC's
    /// `NFCISO7816Tag.sendCommand(apdu:)`.
    ///
    /// A `61xx` answer is followed by GET RESPONSE until the tag is done (the data of every
    /// part concatenated); a `6Cxx` answer makes the command go again once with Le = `xx`.
    /// Any other status word, error or not, is returned: check `APDUResponse.isSuccess`.
    /// The reader chains ISO-DEP blocks within one exchange; an APDU longer than one
    /// exchange (`TagTransport.maximumFrameLength`) is refused before anything is sent.
    ///
    /// - Throws: ``TagSessionError`` with operation `sendAPDU`: the tag
    ///   left or did not answer, or the APDU is too long for the reader
    ///   (``TagSessionError/command(operation:_:)`` with `TagCommandError.invalidArgument(_:)`).
    public func sendCommand(_ apdu: APDU) async throws(TagSessionError) -> APDUResponse {
        let commands = ISO7816Commands(transport: session.transport)
        return try await session.perform(.sendAPDU) { () throws(TagCommandError) in try await commands.send(apdu) }
    }
}
