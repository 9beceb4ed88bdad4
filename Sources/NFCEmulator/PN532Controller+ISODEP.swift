import NFCChips

/// InDataExchange with an ISO-DEP target: the PN532 is the ISO/IEC 14443-4 PCD.
///
/// What the chip does (UM0701-02 §7.3.8 InDataExchange; ISO/IEC 14443-4 §7.5 chaining):
/// - DataOut (at most 262 bytes with Tg, the frame limit of §6.2) is sent in I-blocks of
///   the tag's frame size FSC (FSCI from the ATS's T0); every block but the last has the
///   chaining bit and must be answered with R(ACK).
/// - A chained answer is gathered: the chip ACKs each block and returns the INF of all of
///   them after the status byte.
/// - Block numbers follow ISO/IEC 14443-4 rule B: the PCD's number toggles on each I-block
///   or R(ACK) that carries it.
///
/// Not modelled: the MI bit. With MI set in Tg the host announces more DataOut in a next
/// InDataExchange, and with MI set in the status byte the chip says more answer data is
/// waiting (libnfc ≥ 1.7.0 then sends InDataExchange with Tg alone and appends, within its
/// 264-byte buffer: `pn53x_transceive`). libnfc never sets MI in Tg (Tg = 1 in
/// `pn53x_initiator_transceive_bytes`), and the emulated Type 4 tag answers at most
/// MLe + 2 bytes per APDU, so neither occurs here; the status byte never carries MI.
extension PN532Controller {
    mutating func isoDEPExchange(_ data: [UInt8], target: ListedTarget) -> [UInt8] {
        let iso = ChipTables.type4.isoDep
        guard let index = targets.firstIndex(where: { $0.number == target.number }) else {
            return fail(.commandNotAcceptable)
        }
        let size = isoDEPFrameINF(target)
        var remaining = data[...]
        var answer: [UInt8] = []
        var reply: [UInt8]
        repeat {
            let chunk = remaining.prefix(size)
            remaining = remaining.dropFirst(chunk.count)
            let chaining = remaining.isEmpty ? 0 : iso.chainingBit
            guard
                let block = isoDEPBlock(
                    [iso.iBlock | chaining | targets[index].isoDEPBlockNumber] + chunk, target: target)
            else {
                return fail(.timeout)
            }
            reply = block
            guard chaining != 0 else { break }
            // The tag ACKs a chained block with the PCD's number (rule B: then toggle).
            guard let pcb = reply.first, iso.isRBlock(pcb), pcb & iso.rNAKBit == 0,
                pcb & iso.blockNumberBit == targets[index].isoDEPBlockNumber
            else { return fail(.timeout) }
            targets[index].isoDEPBlockNumber ^= iso.blockNumberBit
        } while true
        while let pcb = reply.first, iso.isIBlock(pcb), pcb & iso.chainingBit != 0 {
            answer += reply.dropFirst()
            targets[index].isoDEPBlockNumber ^= iso.blockNumberBit
            guard let next = isoDEPBlock([iso.rACK | targets[index].isoDEPBlockNumber], target: target) else {
                return fail(.timeout)
            }
            reply = next
        }
        guard let pcb = reply.first, iso.isIBlock(pcb) else { return fail(.timeout) }
        targets[index].isoDEPBlockNumber ^= iso.blockNumberBit
        return [status(.success)] + answer + reply.dropFirst()
    }

    /// The most INF bytes a block to `target` carries: FSC from a type A tag's ATS, or from
    /// a type B card's ATQB less the CID byte every block to it carries.
    private func isoDEPFrameINF(_ target: ListedTarget) -> Int {
        let iso = ChipTables.type4.isoDep
        guard let typeB = target.identity.typeB else { return iso.maximumINF(toTagWithATS: target.identity.ats ?? []) }
        let index = ChipTables.iso14443b.frameSizeIndex(atqb: typeB.atqb) ?? iso.defaultFSCI
        return iso.maximumINF(frameSizeIndex: index) - 1
    }

    /// One block to the tag and the block it answers (`nil`: silence), with its air time. To a
    /// type B card the block carries the CID the chip's ATTRIB gave it, and so must the answer.
    private mutating func isoDEPBlock(_ frame: [UInt8], target: ListedTarget) -> [UInt8]? {
        let iso = ChipTables.type4.isoDep
        let cid = ChipTables.iso14443b.pn532.attribCID
        let typeB = target.identity.typeB != nil
        let sent = typeB ? [frame[0] | iso.cidBit, cid] + frame.dropFirst() : frame
        let answer = exchangeWithTag(sent, target.handle)
        statistics.modelledTime += airTime(request: sent.count + 2, answer: answer)
        guard case let .bytes(block) = answer.reply else { return nil }
        guard typeB else { return block }
        guard block.count >= 2, block[0] & iso.cidBit != 0, block[1] & 0x0F == cid else { return nil }
        return [block[0] & ~iso.cidBit] + block.dropFirst(2)
    }
}
