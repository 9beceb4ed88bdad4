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
    /// The CID ATTRIB gave a type B card: every block carries it (none on type A, where the
    /// PN532's RATS asks for CID 0 and sends no CID byte).
    private(set) var cid: UInt8?
    /// The reader's frame size index (FSDI) ATTRIB announced; nil on type A, where the
    /// table's RATS value stands.
    private var readerFrameSizeIndex: Int?

    /// ATTRIB (ISO/IEC 14443-3 §7.10) to a type B card with `identity`: `1D PUPI Param1-4
    /// [INF]`. The card enters ISO-DEP with the reader's frame size of Param 2 and the CID
    /// of Param 4, and answers MBLI and that CID; an ATTRIB for another PUPI gets no answer.
    mutating func attrib(_ frame: [UInt8], identity: TypeBIdentity) -> TagAnswer {
        let typeB = ChipTables.iso14443b
        let pupi = typeB.pupi(atqb: identity.atqb)
        guard frame.count >= 1 + pupi.count + 4, Array(frame[1...pupi.count]) == pupi,
            let first = identity.attribResponse.first
        else { return .silence }
        reset()
        readerFrameSizeIndex = Int(frame[pupi.count + 2] & 0x0F)
        let cid = frame[pupi.count + 4] & 0x0F
        self.cid = cid
        return .bytes([first & 0xF0 | cid] + identity.attribResponse.dropFirst())
    }

    /// Reads one frame (CRC_A stripped) sent while the tag is ACTIVE.
    mutating func receive(_ frame: [UInt8], ats: [UInt8]?) -> Event {
        let iso = ChipTables.type4.isoDep
        guard var pcb = frame.first else { return .answer(.silence) }
        var frame = frame
        if let cid {
            // A block for another CID, or one without the CID ATTRIB gave, is not for this card.
            guard pcb & iso.cidBit != 0, frame.count >= 2, frame[1] & 0x0F == cid else { return .answer(.silence) }
            pcb &= ~iso.cidBit
            frame = [pcb] + frame.dropFirst(2)
        }
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
            let answer = cid.map { [iso.sDeselect | iso.cidBit, $0] } ?? [iso.sDeselect]
            return .answer(TagAnswer(reply: .bytes(answer), leavesActiveState: true, entersHalt: true))
        }
        return .answer(.silence)
    }

    /// Sends answer bytes (an R-APDU) in one I-block, or the first part with the chaining
    /// bit when they are longer than the reader's frame.
    mutating func send(_ answer: [UInt8]) -> TagAnswer {
        let iso = ChipTables.type4.isoDep
        let size = iso.maximumINF(frameSizeIndex: readerFrameSizeIndex ?? iso.readerFSDI) - (cid == nil ? 0 : 1)
        guard answer.count > size else {
            chainedAnswer = []
            return sendBlock([iso.iBlock | blockNumber] + answer)
        }
        chainedAnswer = Array(answer.dropFirst(size))
        return sendBlock([iso.iBlock | iso.chainingBit | blockNumber] + answer.prefix(size))
    }

    private mutating func sendBlock(_ block: [UInt8]) -> TagAnswer {
        var block = block
        if let cid, let pcb = block.first {
            block = [pcb | ChipTables.type4.isoDep.cidBit, cid] + block.dropFirst()
        }
        lastBlock = block
        return .bytes(block)
    }

    /// Back to the state after activation (a type B card's CID too: only ATTRIB sets it).
    mutating func reset() { self = ISODEPLink() }
}
