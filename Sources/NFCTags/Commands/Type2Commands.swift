import NFCChips

/// The commands of a page-based NXP chip (NTAG213/215/216, MIFARE Ultralight, EV1, C)
/// over a ``TagTransport``, built entirely from the chip's ``NFCChips/ChipSpec``: command
/// codes, lengths, timeouts, page addresses and fields come from the tables.
///
/// ```swift
/// let report = try await TagIdentifier.identify(over: transport)
/// guard let chip = report.chip else { … }
/// let tag = try Type2Commands(transport: transport, chip: chip)
/// let page4 = try await tag.read(page: 4)           // 16 bytes: pages 4…7
/// try await tag.write(page: 4, bytes: [0x03, 0x00, 0xFE, 0x00])
/// ```
///
/// Every command goes with ``TagFraming/raw`` framing, so that NAK codes arrive and the
/// reader never mistakes GET_VERSION (`60`) for a MIFARE Classic authentication.
package struct Type2Commands: Sendable {
    /// The link to the tag.
    package let transport: any TagTransport
    /// The chip's tables.
    package let spec: ChipSpec
    /// The chip's page memory.
    package let memory: MemoryMap

    /// Commands for `chip` over `transport`; throws when the chip is not page-based.
    package init(transport: any TagTransport, chip: Chip) throws(TagCommandError) {
        let spec = ChipTables.spec(for: chip)
        guard spec.family.isType2, let memory = spec.memory else {
            throw .featureNotSupported(feature: "page memory (Type 2 commands)", chip: chip)
        }
        self.transport = transport
        self.spec = spec
        self.memory = memory
    }

    /// The chip these commands drive.
    package var chip: Chip { spec.chip }

    /// Sends raw bytes (see ``TagTransport/send(_:framing:timeout:)``); a NAK names the
    /// command from this chip's table.
    package func send(_ bytes: [UInt8], framing: TagFraming = .raw, timeout: Duration? = nil)
        async throws(TagCommandError) -> RawAnswer
    {
        guard let code = bytes.first else { throw .invalidArgument("a command frame needs at least one byte") }
        try transport.checkCommandLength(bytes)
        let command = spec.command(code: code)
        let limit = timeout ?? command?.timeout ?? .milliseconds(ChipTables.iso14443a.fallbackTimeoutMs)
        return try await transport.exchange(bytes, command: command?.name, framing: framing, timeout: limit)
    }

    // MARK: helpers shared by the command files

    /// The table entry of `name`, or ``TagCommandError/notSupported(command:chip:)``.
    func command(_ name: CommandName) throws(TagCommandError) -> CommandSpec {
        guard let command = spec.command(name) else { throw .notSupported(command: name.rawValue, chip: chip) }
        return command
    }

    /// Sends `arguments` after the command code, raw framing.
    func run(_ command: CommandSpec, _ arguments: [UInt8], timeout: Duration? = nil) async throws(TagCommandError)
        -> RawAnswer
    {
        try await transport.exchange(
            [command.code] + arguments, command: command.name, framing: .raw,
            timeout: timeout ?? command.timeout)
    }

    /// The data of `answer`, which must be exactly `length` bytes.
    func data(_ answer: RawAnswer, from command: CommandSpec, length: Int) throws(TagCommandError) -> [UInt8] {
        let bytes = answer.bytes
        guard bytes.count == length else {
            throw .invalidAnswer(
                command: command.name.rawValue, bytes: bytes, offset: min(bytes.count, length),
                expected: "\(length) data bytes")
        }
        return bytes
    }

    /// Checks that `answer` is an ACK.
    func acknowledged(_ answer: RawAnswer, from command: CommandSpec) throws(TagCommandError) {
        guard case .ack = answer else {
            throw .invalidAnswer(
                command: command.name.rawValue, bytes: answer.bytes, offset: 0, expected: "a 4-bit ACK")
        }
    }

    /// A page number as the one-byte address of a command; refuses pages outside `range`.
    func address(_ page: Int, in range: ClosedRange<Int>, for name: CommandName) throws(TagCommandError) -> UInt8 {
        guard range.contains(page), let byte = UInt8(exactly: page) else {
            throw .invalidArgument(
                "\(name.rawValue): page \(page) is outside \(range.lowerBound)…\(range.upperBound) on \(spec.product)")
        }
        return byte
    }

    /// Checks that `bytes` fill exactly one page.
    func checkPageData(_ bytes: [UInt8], for name: CommandName) throws(TagCommandError) {
        guard bytes.count == memory.pageSize else {
            throw .invalidArgument("\(name.rawValue): a page is \(memory.pageSize) bytes, got \(bytes.count)")
        }
    }
}
