import NFCChips
import NFCTags

/// An ISO-DEP (ISO 14443-4) tag, such as an NFC Forum Type 4 tag: the reader activated it
/// with RATS, and commands travel in ISO-DEP blocks that the reader builds
/// (`TagFraming.standard` framing, PN532 InDataExchange).
///
/// ```swift
/// let tag = try session.isoDEPTag()
/// tag.ats                                                        // the answer to select
/// let answer = try await tag.send([0x00, 0xA4, 0x04, 0x00, 0x07,
///                                  0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00])
/// ```
public struct NFCISODEPTag: NFCTagHandle {
    /// The session the tag is connected in.
    public let session: TagSession

    /// The tag's answer to RATS (ATS), as the reader received it.
    public var ats: [UInt8] { session.target.ats }
}
