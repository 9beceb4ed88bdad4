import NFCChips

/// The ISO/IEC 14443-4 block layer of an emulated ISO-DEP tag (PICC side): block numbers,
/// chained I-blocks in both directions, R(ACK) / R(NAK), RATS and S(DESELECT).
///
/// A tag model keeps one link, hands it every frame, and answers the APDUs it gathers:
///
/// ```swift
/// switch link.receive(frame, ats: identity.ats) {
/// case .answer(let answer): return answer
/// case .apdu(let apdu): return link.send(respond(to: apdu))
/// }
/// ```
///
/// What it does follows ISO/IEC 14443-4 §7.5: the PICC block number is 1 after activation
/// and follows the reader's I-blocks; an answer longer than the reader's frame (FSD from
/// the FSDI of the table's RATS) goes in chained I-blocks, each sent when the reader ACKs
/// the one before; an R(NAK) with the current number gets the last block again.
struct ISODEPLink: Equatable, Sendable {
    /// What one frame amounts to.
    enum Event: Equatable {
        /// The block layer answers by itself (ATS, R(ACK), a repeated block, silence, DESELECT).
        case answer(TagAnswer)
        /// A whole C-APDU arrived; answer it with ``ISODEPLink/send(_:)``.
        case apdu([UInt8])
    }

    /// The PICC block number (1 after activation, toggled per I-block received).
    private(set) var blockNumber: UInt8 = ChipTables.type4.isoDep.blockNumberBit
    /// The last block sent, for an R(NAK) that carries the current block number.
    private var lastBlock: [UInt8]?
    /// APDU bytes of a chained I-block sequence still arriving.
    private var chainedAPDU: [UInt8] = []
    /// Answer bytes of a chained I-block sequence not yet sent.
    private var chainedAnswer: [UInt8] = []

    /// Reads one frame (CRC_A stripped) sent while the tag is ACTIVE.
    mutating func receive(_ frame: [UInt8], ats: [UInt8]?) -> Event {
        let iso = ChipTables.type4.isoDep
        guard let pcb = frame.first else { return .answer(.silence) }
        if let rats = ChipTables.iso14443a.frames[.rats].bytes.first, pcb == rats, frame.count == 2 {
            reset()
            return .answer(ats.map(TagAnswer.bytes) ?? .silence)
        }
        if iso.isIBlock(pcb) {
            blockNumber = pcb & iso.blockNumberBit
            chainedAPDU += frame.dropFirst()
            if pcb & iso.chainingBit != 0 { return .answer(sendBlock([iso.rACK | blockNumber])) }
            let apdu = chainedAPDU
            chainedAPDU = []
            return .apdu(apdu)
        }
        if iso.isRBlock(pcb) {
            let number = pcb & iso.blockNumberBit
            if pcb & iso.rNAKBit != 0, number == blockNumber, let lastBlock { return .answer(.bytes(lastBlock)) }
            if pcb & iso.rNAKBit == 0, !chainedAnswer.isEmpty {
                // ISO/IEC 14443-4 §7.5.4: an R(ACK) with the PICC's own number asks for the
                // last block again; with the other number it continues the chain.
                if number == blockNumber, let lastBlock { return .answer(.bytes(lastBlock)) }
                blockNumber = number
                return .answer(send(chainedAnswer))
            }
            return .answer(sendBlock([iso.rACK | blockNumber]))
        }
        if pcb == iso.sDeselect, frame.count == 1 {
            return .answer(TagAnswer(reply: .bytes([iso.sDeselect]), leavesActiveState: true, entersHalt: true))
        }
        return .answer(.silence)
    }

    /// Sends answer bytes (an R-APDU) in one I-block, or the first part with the chaining
    /// bit when they are longer than the reader's frame.
    mutating func send(_ answer: [UInt8]) -> TagAnswer {
        let iso = ChipTables.type4.isoDep
        let size = iso.maximumINF(frameSizeIndex: iso.readerFSDI)
        guard answer.count > size else {
            chainedAnswer = []
            return sendBlock([iso.iBlock | blockNumber] + answer)
        }
        chainedAnswer = Array(answer.dropFirst(size))
        return sendBlock([iso.iBlock | iso.chainingBit | blockNumber] + answer.prefix(size))
    }

    private mutating func sendBlock(_ block: [UInt8]) -> TagAnswer {
        lastBlock = block
        return .bytes(block)
    }

    /// Back to the state after activation.
    mutating func reset() { self = ISODEPLink() }
}
