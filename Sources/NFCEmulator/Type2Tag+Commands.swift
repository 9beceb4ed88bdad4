import NFCChips

/// The commands of the NTAG21x / Ultralight family, one method each.
extension Type2Tag {
    /// Counts the first successful read after power-up on the NFC counter, when enabled.
    mutating func countRead() {
        guard !countedReadInThisField else { return }
        countedReadInThisField = true
        guard configuration(.nfcCounterEnable) == 1,
            let counter = spec.counters.first(where: { $0.kind == .nfcReadCounter })
        else { return }
        nfcCounter = min(nfcCounter + 1, counter.maximumValue)
    }

    /// READ: four pages from `start`, rolling over to page 0 past the end, or just before
    /// AUTH0 when reads are protected and no password was given.
    mutating func read(_ start: Int) -> TagAnswer {
        guard !isReadDenied(start) else { return .nak(Type2Acknowledgement.invalidArgument) }
        var end = memoryMap.lastReadablePage + 1
        if protectsReads, let auth0, !isAuthenticated { end = min(end, auth0) }
        countRead()  // the mirror shows the counter after this read's increment
        var data: [UInt8] = []
        for offset in 0..<4 { data += visiblePage((start + offset) % end) }
        return .bytes(data)
    }

    /// FAST_READ: pages `start`…`end`, refused when the range is reversed, runs past the
    /// readable end, or touches protected pages.
    mutating func fastRead(from start: Int, to end: Int) -> TagAnswer {
        guard start <= end, end <= memoryMap.lastReadablePage,
            !(start...end).contains(where: isReadDenied)
        else { return .nak(Type2Acknowledgement.invalidArgument) }
        countRead()
        return .bytes((start...end).flatMap(visiblePage))
    }

    mutating func write(_ data: [UInt8], page: Int) -> TagAnswer {
        if let refusal = writeRefusal(page) { return .nak(refusal) }
        if page == pageCounter?.page { return writePageCounter(data) }
        program(data, page: page)
        return .ack(Type2Acknowledgement.ack, programmingTime: programmingTime(pages: 1))
    }

    mutating func compatibilityWriteStart(page: Int) -> TagAnswer {
        if let refusal = writeRefusal(page) { return .nak(refusal) }
        pendingCompatibilityWritePage = page
        return .ack(Type2Acknowledgement.ack)
    }

    /// The second COMPATIBILITY_WRITE frame: 16 bytes, of which the first page is stored.
    mutating func compatibilityWriteData(_ frame: [UInt8], page: Int) -> TagAnswer {
        guard isCompatibilityWriteData(frame) else { return .silence }
        program(frame, page: page)
        return .ack(Type2Acknowledgement.ack, programmingTime: programmingTime(pages: 1))
    }

    /// Whether `frame` has the length of the second COMPATIBILITY_WRITE frame.
    func isCompatibilityWriteData(_ frame: [UInt8]) -> Bool {
        spec.command(.compatibilityWrite).map { frame.count == $0.secondFrameLength } ?? false
    }

    /// The page a WRITE, or the second COMPATIBILITY_WRITE frame, programs now (the
    /// Ultralight C counter page, whose WRITE adds to a counter, is not modelled as a cycle).
    public func eepromWrite(for frame: [UInt8]) -> EEPROMWrite? {
        guard pendingUltralightCChallenge == nil else { return nil }
        let page: Int
        let data: [UInt8]
        if let pending = pendingCompatibilityWritePage {
            guard isCompatibilityWriteData(frame) else { return nil }
            (page, data) = (pending, frame)
        } else {
            guard let write = spec.command(.write), frame.first == write.code, frame.count == write.requestLength,
                writeRefusal(Int(frame[1])) == nil
            else { return nil }
            (page, data) = (Int(frame[1]), Array(frame[2...]))
        }
        guard page != pageCounter?.page else { return nil }
        return EEPROMWrite(
            address: page, old: self.page(page), new: programmedBytes(data, page: page),
            isTearingProtected: memoryMap.isTearingProtected(page), failureCode: Type2Acknowledgement.eepromWriteError)
    }

    /// Stores what the cut left and forgets a pending COMPATIBILITY_WRITE.
    public mutating func interruptWrite(_ write: EEPROMWrite, leaving bytes: [UInt8]) {
        setPage(write.address, to: bytes)
        pendingCompatibilityWritePage = nil
    }

    /// READ_CNT: the NFC counter (NTAG21x) or one of the EV1 counters, LSB first.
    func readCounter(_ address: UInt8) -> TagAnswer {
        for counter in spec.counters {
            guard let index = counter.addresses.firstIndex(of: address) else { continue }
            switch counter.kind {
            case .nfcReadCounter:
                guard configuration(.nfcCounterEnable) == 1 else { return .nak(Type2Acknowledgement.invalidArgument) }
                if configuration(.nfcCounterPasswordProtect) == 1, !isAuthenticated {
                    return .nak(Type2Acknowledgement.invalidArgument)
                }
                return .bytes(littleEndian24(nfcCounter))
            case .incrementCounters:
                return .bytes(littleEndian24(counters[index]))
            case .pageCounter:
                continue
            }
        }
        return .nak(Type2Acknowledgement.invalidArgument)
    }

    /// INCR_CNT (EV1): adds a 24-bit value; NAK when the counter would pass its maximum.
    mutating func incrementCounter(_ address: UInt8, by value: [UInt8]) -> TagAnswer {
        guard let counter = spec.counters.first(where: { $0.kind == .incrementCounters }),
            let index = counter.addresses.firstIndex(of: address)
        else { return .nak(Type2Acknowledgement.invalidArgument) }
        let increment = Int(value[0]) | Int(value[1]) << 8 | Int(value[2]) << 16
        guard counters[index] + increment <= counter.maximumValue else {
            return .nak(Type2Acknowledgement.authenticationLimit)
        }
        counters[index] += increment
        return .ack(Type2Acknowledgement.ack, programmingTime: programmingTime(pages: 1))
    }

    /// CHECK_TEARING_EVENT (EV1): the "valid" flag; tearing is not modelled.
    func checkTearingEvent(_ address: UInt8) -> TagAnswer {
        guard let counter = spec.counters.first(where: { $0.kind == .incrementCounters }),
            counter.addresses.contains(address), let valid = counter.tearingFlagValid
        else {
            return .nak(Type2Acknowledgement.invalidArgument)
        }
        return .bytes([valid])
    }

    /// PWD_AUTH: PACK on the right password; otherwise NAK and, with AUTHLIM set, one more
    /// failure; once AUTHLIM failures are reached every attempt fails for good.
    mutating func passwordAuthenticate(_ password: [UInt8]) -> TagAnswer {
        guard let spec = memoryMap.configuration?.password else { return .silence }
        let limit = Int(configuration(.authLimit) ?? 0)
        if limit > 0, failedAuthentications >= limit { return .nak(Type2Acknowledgement.authenticationLimit) }
        guard password == page(spec.pwdPage) else {
            if limit > 0 { failedAuthentications += 1 }
            return .nak(Type2Acknowledgement.invalidArgument)
        }
        failedAuthentications = 0
        isAuthenticated = true
        return .bytes(Array(page(spec.packPage).prefix(spec.defaultPACK.count)))
    }

    func littleEndian24(_ value: Int) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF)]
    }
}
