import NDEF

/// Why an NDEF status query, read, write, lock or format failed, naming the step.
///
/// Offsets are where the problem is in the tag's memory: on Type 2 the byte address
/// (page × 4 + byte), on MIFARE Classic block × 16 + byte, on Type 4 the offset in the
/// NDEF or CC file.
///
/// ```swift
/// do { try await driver.writeMessage(message, options: .init()) { _ in } }
/// catch .tagSizeTooSmall(let needed, let capacity) { … }          // nothing was written
/// catch .connectionLost(let step, let state) { … }                  // state: what the tag holds
/// ```
package enum NDEFTagError: Error, Sendable, Hashable {
    /// The tag is not read-write (CC, lock bits, access conditions or a password say so);
    /// nothing was written.
    case tagNotWritable
    /// The message needs `needed` bytes but the tag holds at most `capacity`; nothing was written.
    case tagSizeTooSmall(needed: Int, capacity: Int)
    /// A write, lock or format step failed; `state` is what the tag was left holding.
    case tagUpdateFailure(step: NDEFTagStep, state: NDEFTagContentState, reason: NDEFUpdateFailureReason)
    /// The tag left the field (or the reader went away) during `step`; `state` is what the
    /// tag was left holding.
    case connectionLost(step: NDEFTagStep, state: NDEFTagContentState)
    /// The tag answered a read or select with a NAK.
    case nak(code: UInt8, step: NDEFTagStep)
    /// The step needs a password, key or authentication the driver does not have.
    case authenticationRequired(step: NDEFTagStep)
    /// The NDEF message bytes on the tag do not decode (a torn or corrupt message).
    case invalidNDEF(offset: Int, reason: NDEFDecodingError.Reason)
    /// The TLV area is malformed at `offset`.
    case invalidTLV(offset: Int, reason: NDEFTLVProblem)
    /// The capability container (Type 2 CC page, Type 4 CC file) is malformed at `offset`.
    case invalidCapabilityContainer(offset: Int, reason: NDEFCapabilityContainerProblem)
    /// The MIFARE Application Directory is malformed at `offset`.
    case invalidApplicationDirectory(offset: Int, reason: NDEFApplicationDirectoryProblem)
    /// A Type 4 command answered with a status word other than `90 00`.
    case statusWord(UInt16, step: NDEFTagStep)
    /// The tag answered with something the step does not expect (wrong length, ACK for data).
    case unexpectedResponse(step: NDEFTagStep, description: String)
    /// The message to write cannot be encoded (an NDEF rule is broken); nothing was written.
    case messageNotEncodable(NDEFEncodingError)
    /// The driver does not support this tag or operation (`reason` says what).
    case unsupportedTag(reason: String)
    /// The tag did not answer in time during `step` (nothing was written by this step).
    case timeout(step: NDEFTagStep)
    /// The reader failed during `step` (transmission error, cancelled, reader error).
    case readerFailure(step: NDEFTagStep, reason: String)
    /// ``NDEFTagDriver/makeReadOnly(force:)`` refused: the message on the tag was not read
    /// back and verified by this driver (pass `force: true` to lock anyway).
    case notVerified
    /// ``NDEFTagDriver/format(force:)`` refused: the tag already holds valid NDEF (pass
    /// `force: true` to erase it).
    case alreadyFormatted
}

/// Why a write, lock or format step failed (inside ``NDEFTagError/tagUpdateFailure(step:state:reason:)``).
@nonexhaustive
public enum NDEFUpdateFailureReason: Sendable, Hashable {
    /// The tag refused the write with this NAK code (locked page, EEPROM error, password).
    case nak(UInt8)
    /// The tag did not acknowledge in time.
    case timeout
    /// The read-back differs from what was written, first at byte `offset`.
    case verificationMismatch(offset: Int)
    /// A Type 4 UPDATE BINARY answered this status word.
    case statusWord(UInt16)
    /// MIFARE Classic authentication was refused.
    case authenticationFailed
    /// The tag answered with something unexpected.
    case unexpectedResponse(String)
    /// The reader failed (transmission error, cancelled, reader error).
    case readerFailure(String)
}

/// What is wrong with a TLV (inside ``NDEFTagError/invalidTLV(offset:reason:)``).
package enum NDEFTLVProblem: Sendable, Hashable {
    /// The TLV area ends inside a length field.
    case truncatedLength
    /// The TLV's value runs past the end of the data area.
    case valuePastEnd(declared: Int, available: Int)
    /// A Lock Control or Memory Control TLV whose length is not 3.
    case invalidControlLength(Int)
    /// A Lock / Memory Control TLV points outside the tag's memory.
    case controlAreaOutOfRange(address: Int, size: Int)
    /// No NDEF TLV before the Terminator TLV or the end of the data area.
    case missingNDEFTLV
    /// An unknown TLV type (reserved values).
    case unknownType(UInt8)
}

/// What is wrong with a capability container.
package enum NDEFCapabilityContainerProblem: Sendable, Hashable {
    /// The magic number (Type 2 CC0) is not the NDEF one: the tag is not NDEF-formatted.
    case notFormatted(found: UInt8)
    /// The mapping version's major number is not supported.
    case unsupportedVersion(UInt8)
    /// The declared data-area or file size does not fit the tag.
    case invalidSize(Int)
    /// The CC file is too short or a field is malformed.
    case malformed(String)
    /// The read access condition forbids reading without authentication.
    case readAccessDenied(UInt8)
    /// A Type 3 attribute block's checksum is not the sum of its bytes.
    case checksumMismatch(expected: UInt16, found: UInt16)
    /// A Type 3 attribute block says a write began and never ended (WriteFlag on): the
    /// message is torn. Write it again, or format.
    case writeInProgress
}

/// What is wrong with a MIFARE Application Directory.
package enum NDEFApplicationDirectoryProblem: Sendable, Hashable {
    /// The sector 0 GPB says there is no MAD (DA bit clear).
    case missing
    /// The CRC-8 does not match.
    case crcMismatch(expected: UInt8, found: UInt8)
    /// The info byte points to an invalid sector.
    case invalidInfoByte(UInt8)
    /// The NFC sectors are not contiguous.
    case nonContiguousNDEFSectors
    /// No sector is assigned to the NFC Forum AID.
    case noNDEFSectors
}
