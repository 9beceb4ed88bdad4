import NFCChips

/// The MIFARE Ultralight C extras: 3DES mutual authentication (MF0ICU2 §7.5.5) and the
/// 16-bit one-way counter in page memory.
extension Type2Tag {
    /// The authentication table of the chip (Ultralight C only).
    var ultralightC: UltralightCAuthenticationSpec? { spec.ultralightCAuthentication }

    /// The key stored in the key pages, in cipher order (each 8-byte half is stored reversed).
    var currentUltralightCKey: [UInt8]? {
        guard let ultralightC else { return nil }
        let pages = (ultralightC.firstKeyPage...ultralightC.lastKeyPage).flatMap { page($0) }
        return ultralightC.keyPages(forKey: pages)  // reversing each half is its own inverse
    }

    /// AUTHENTICATE part 1: `AF` + ek(RndB), IV zero.
    mutating func authenticateStart() -> TagAnswer {
        guard let ultralightC, let key = ultralightCKey else { return .silence }
        let blockSize = ultralightC.testVector.rndB.count
        var rndB = nextUltralightCChallenge ?? []
        if rndB.count != blockSize {
            var generator = SystemRandomNumberGenerator()
            rndB = (0..<blockSize).map { _ in UInt8.random(in: 0...255, using: &generator) }
        }
        nextUltralightCChallenge = nil
        let encrypted = UltralightCCipher(key: key).encrypt(rndB, iv: [UInt8](repeating: 0, count: blockSize))
        pendingUltralightCChallenge = (rndB, encrypted)
        isAuthenticated = false
        return .bytes([ultralightC.continuationByte] + encrypted)
    }

    /// AUTHENTICATE part 2: `AF` + ek(RndA ‖ RndB′) → `00` + ek(RndA′) when RndB′ is right;
    /// otherwise NAK and the tag leaves ACTIVE.
    mutating func authenticateResponse(_ frame: [UInt8], challenge: (rndB: [UInt8], encrypted: [UInt8])) -> TagAnswer {
        guard let ultralightC, let key = ultralightCKey, let command = spec.command(.authenticate),
            frame.count == command.secondFrameLength, frame.first == ultralightC.continuationByte
        else { return .silence }
        let blockSize = challenge.rndB.count
        let cipher = UltralightCCipher(key: key)
        let received = Array(frame.dropFirst())
        let plain = cipher.decrypt(received, iv: challenge.encrypted)
        let rndA = Array(plain.prefix(blockSize))
        guard Array(plain.suffix(blockSize)) == rotatedLeft(challenge.rndB) else {
            return .nak(Type2Acknowledgement.invalidArgument)
        }
        isAuthenticated = true
        let answer = cipher.encrypt(rotatedLeft(rndA), iv: Array(received.suffix(blockSize)))
        return .bytes([ultralightC.successByte] + answer)
    }

    func rotatedLeft(_ bytes: [UInt8]) -> [UInt8] { Array(bytes.dropFirst()) + bytes.prefix(1) }

    /// The Ultralight C counter, when the chip keeps one in page memory.
    var pageCounter: CounterSpec? { spec.counters.first { $0.kind == .pageCounter && $0.page != nil } }

    /// The counter value in its page (16 bits, least significant byte first).
    var pageCounterValue: Int {
        guard let page = pageCounter?.page else { return 0 }
        let bytes = self.page(page)
        return Int(bytes[0]) | Int(bytes[1]) << 8
    }

    /// WRITE to the counter page: the first write sets any value; later writes add the
    /// low nibble of byte 0, counted at the next RF reset; a sum past the maximum is NAKed.
    mutating func writePageCounter(_ data: [UInt8]) -> TagAnswer {
        guard let counter = pageCounter, let page = counter.page else {
            return .nak(Type2Acknowledgement.invalidArgument)
        }
        if pageCounterValue == 0, pendingPageCounterIncrement == 0 {
            setPage(page, to: [data[0], data[1], 0, 0])
        } else {
            let increment = Int(data[0] & 0x0F)
            guard pageCounterValue + pendingPageCounterIncrement + increment <= counter.maximumValue else {
                return .nak(Type2Acknowledgement.invalidArgument)
            }
            pendingPageCounterIncrement += increment
        }
        return .ack(Type2Acknowledgement.ack, programmingTime: programmingTime(pages: 1))
    }

    /// Adds the increments written since the last RF reset to the counter page.
    mutating func applyPendingPageCounterIncrement() {
        guard pendingPageCounterIncrement > 0, let page = pageCounter?.page else { return }
        let value = pageCounterValue + pendingPageCounterIncrement
        pendingPageCounterIncrement = 0
        setPage(page, to: [UInt8(value & 0xFF), UInt8(value >> 8), 0, 0])
    }
}
