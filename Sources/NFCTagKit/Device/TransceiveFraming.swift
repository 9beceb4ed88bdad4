/// How ``NFCDevice/transceive(_:framing:timeout:)`` frames a command to the tag.
package enum TransceiveFraming: Sendable, Hashable {
    /// The reader chip's data exchange (PN53x InDataExchange): the chip adds and checks
    /// CRC_A and handles ISO-DEP blocks. A tag NAK is indistinguishable from no answer.
    case easy
    /// A raw frame (PN53x InCommunicateThru): the bytes go to the tag as they are.
    /// `crc` says who adds CRC_A on the way out and checks it on the way back. With
    /// ``CRCHandling/byHost`` a 4-bit ACK / NAK comes back readable.
    case raw(crc: CRCHandling)
    /// A raw frame with the chip's CRC whose answer is whole bytes (an ST25TB's, on type B
    /// framing): libnfc's byte transceive, without the register read the bit one adds.
    case rawBytes
}

/// Who appends and checks CRC_A in a raw frame.
package enum CRCHandling: Sendable, Hashable {
    /// The reader chip (libnfc `NP_HANDLE_CRC` on).
    case byReader
    /// The caller: the command already ends with CRC_A and the answer keeps its CRC_A.
    case byHost
}

/// A tag's answer to ``NFCDevice/transceive(_:framing:timeout:)``.
package struct TransceiveResponse: Sendable, Hashable, CustomStringConvertible {
    /// The answer bytes; a short frame's bits are in the low bits of the one byte.
    package var bytes: [UInt8]
    /// How many bits came back: a multiple of 8, or 4 for an ACK / NAK.
    package var bitCount: Int

    /// Creates an answer.
    package init(bytes: [UInt8], bitCount: Int) {
        self.bytes = bytes
        self.bitCount = bitCount
    }

    /// True for an answer shorter than one byte (a 4-bit ACK / NAK).
    package var isShortFrame: Bool { bitCount > 0 && bitCount < 8 }

    /// The 4-bit value of a short frame (`0xA` ACK, others NAK), nil for byte answers.
    package var shortFrameValue: UInt8? {
        guard isShortFrame, let first = bytes.first else { return nil }
        return first & 0x0F
    }

    /// Hex of the bytes, with the bit count for short frames.
    package var description: String {
        isShortFrame ? "\(bitCount) bits: \(bytes.hexString())" : bytes.hexString()
    }
}
