import NFCChips

/// The tearing flag of an Ultralight EV1 counter (CHECK_TEARING_EVENT).
package struct TearingFlag: Sendable {
    /// The byte the tag answered.
    package var rawValue: UInt8
    /// Whether it is the table's "no tearing" value (`BD`).
    package var isValid: Bool

    /// A flag with its byte and verdict.
    package init(rawValue: UInt8, isValid: Bool) {
        self.rawValue = rawValue
        self.isValid = isValid
    }
}

/// READ_CNT, INCR_CNT and CHECK_TEARING_EVENT: the NTAG21x NFC counter and the three
/// Ultralight EV1 counters.
extension Type2Commands {
    /// The counter spec that holds `address`.
    func counter(at address: UInt8, for name: CommandName) throws(TagCommandError) -> CounterSpec {
        guard let counter = spec.counters.first(where: { $0.addresses.contains(address) }) else {
            let known = spec.counters.flatMap(\.addresses).map { String($0) }.joined(separator: ", ")
            throw .invalidArgument(
                "\(name.rawValue): counter \(address) does not exist on \(spec.product) (counters: \(known))")
        }
        return counter
    }

    /// READ_CNT of counter `address` (EV1: 0…2; NTAG21x: the NFC counter's address).
    package func readCounter(_ address: UInt8) async throws(TagCommandError) -> Int {
        let command = try command(.readCounter)
        let counter = try counter(at: address, for: .readCounter)
        let bytes = try data(try await run(command, [address]), from: command, length: command.answerLength)
        return bytes.prefix(counter.widthBits / 8).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
    }

    /// The NTAG21x NFC read counter (READ_CNT of the table's NFC counter address). Fails with
    /// a NAK when the counter is disabled, or password-protected and no PWD_AUTH was done.
    package func readNFCCounter() async throws(TagCommandError) -> Int {
        guard let counter = spec.counters.first(where: { $0.kind == .nfcReadCounter }),
            let address = counter.addresses.first
        else {
            throw .featureNotSupported(feature: "NFC counter", chip: chip)
        }
        return try await readCounter(address)
    }

    /// INCR_CNT: adds `amount` to EV1 counter `address` (the tag refuses to pass its maximum).
    package func incrementCounter(_ address: UInt8, by amount: Int) async throws(TagCommandError) {
        let command = try command(.incrementCounter)
        let counter = try counter(at: address, for: .incrementCounter)
        guard amount >= 0, amount <= counter.maximumValue else {
            throw .invalidArgument("INCR_CNT: the increment must be 0…\(counter.maximumValue), got \(amount)")
        }
        let valueBytes = command.requestLength - 2
        let value = (0..<valueBytes).map { index -> UInt8 in
            index < counter.widthBits / 8 ? UInt8(truncatingIfNeeded: amount >> (8 * index)) : 0
        }
        try acknowledged(try await run(command, [address] + value), from: command)
    }

    /// CHECK_TEARING_EVENT of EV1 counter `address`.
    package func checkTearingEvent(_ address: UInt8) async throws(TagCommandError) -> TearingFlag {
        let command = try command(.checkTearingEvent)
        let counter = try counter(at: address, for: .checkTearingEvent)
        let bytes = try data(try await run(command, [address]), from: command, length: command.answerLength)
        return TearingFlag(rawValue: bytes[0], isValid: bytes[0] == counter.tearingFlagValid)
    }
}
