import NFCChips
import NFCTags

/// An NFC Forum Type 1 tag (Innovision Topaz, Topaz 512) in a ``TagSession``: RID, RALL,
/// READ, WRITE-E and WRITE-NE, and RSEG where the reader carries it, with the NDEF calls on
/// Type 1 (``NFCNDEFTag``).
///
/// The handle is inside the package for now: an ``NDEFSession`` hands it out seen through
/// ``NFCNDEFTag``, and ``TagSession/send(_:framing:timeout:)`` reaches the commands. (Public,
/// it would cost the API budget some 20 symbols.)
package struct NFCType1Tag: NFCTagHandle {
    package let session: TagSession

    private var commands: Type1Commands { Type1Commands(transport: session.transport) }

    /// RID: HR0 HR1 and UID0-3.
    package func readIdentification() async throws(TagSessionError) -> [UInt8] {
        let (header, uid) = try await session.perform(.type1Command) { () throws(TagCommandError) in
            try await commands.readIdentification()
        }
        return header + uid
    }

    /// RALL: HR0 HR1 and the 120 bytes of blocks 00-0E.
    package func readAll() async throws(TagSessionError) -> [UInt8] {
        let (header, memory) = try await session.perform(.type1Command) { () throws(TagCommandError) in
            try await commands.readAll()
        }
        return header + memory
    }

    /// READ of the byte at `address` (0…127).
    package func read(address: Int) async throws(TagSessionError) -> UInt8 {
        try await session.perform(.type1Command) { () throws(TagCommandError) in
            try await commands.read(address: address)
        }
    }

    /// WRITE-E (`erase`) or WRITE-NE of the byte at `address`; the byte as the tag holds it.
    @discardableResult
    package func write(address: Int, value: UInt8, erase: Bool = true) async throws(TagSessionError) -> UInt8 {
        try await session.perform(.type1Command) { () throws(TagCommandError) in
            try await commands.write(address: address, value: value, erase: erase)
        }
    }

    /// The static memory as a dump image (RALL): HR0 HR1 and blocks 00-0E.
    package func dump() async throws(TagSessionError) -> CardMemoryDump {
        try await session.perform(.dump) { () throws(TagCommandError) in try await commands.dump(uid: session.uid) }
    }

    /// RSEG of `segment` (a Topaz 512; a PN532 reaches segment 0 only).
    package func readSegment(_ segment: Int) async throws(TagSessionError) -> [UInt8] {
        try await session.perform(.type1Command) { () throws(TagCommandError) in
            try await commands.readSegment(segment)
        }
    }
}

extension TagSession {
    /// The handle that answers the NDEF calls: the family's (``tag``), a Type 1 tag's, or an
    /// ST25TB's (which has none).
    package nonisolated var ndefHandle: (any NFCTagHandle)? {
        if case .type1 = target { return NFCType1Tag(session: self) }
        if case .st25tb = target { return NFCST25TBTag(session: self) }
        return tag.handle
    }
}
