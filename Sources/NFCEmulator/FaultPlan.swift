/// Faults the emulated reader and its tags produce on demand, for tests of error paths.
///
/// Each fault has a text form, the one `nfctag emulate --fault SPEC` takes:
///
/// | spec | fault |
/// |---|---|
/// | `tear-after=N` | the first tag leaves the field after N frames addressed to it |
/// | `tear-in-write=N[:SEED]` | the Nth page write is cut mid-cycle; the tag leaves the field (see ``tearInWrite``) |
/// | `nak-page=P` | every command addressed to page / block P gets NAK 0 |
/// | `timeout-page=P` | every command addressed to page / block P gets no answer |
/// | `timeout-command=HEX` | every tag command with that first byte gets no answer |
/// | `mute-command=HEX` | the reader chip holds its answer to every tag command with that first byte (see ``muteCommands``) |
/// | `eeprom-fail-page=P` | a write to P fails with the EEPROM-error NAK (see ``eepromFailurePages``) |
/// | `garble-after=N` | the Nth answer frame to the host carries a wrong checksum |
/// | `unplug-after=N` | the reader is unplugged after N command frames from the host |
/// | `slow=MS` | every answer to the host is held back MS milliseconds |
/// | `first-answer-delay=MS` | the first answer after each plug-in is held back MS milliseconds (a slow USB-serial adapter) |
/// | `max-baud=N` | SetSerialBaudRate to more than N baud gets the error frame (a chip that refuses the speed) |
///
/// Page numbers and counts are decimal, or hex with `0x`.
///
/// Three faults interrupt a write, and differ in what the tag does and what it keeps:
/// - `tear-after=N` cuts *between* frames: the tag leaves before frame N+1, which it never
///   sees, so every page holds the whole old or the whole new value.
/// - `tear-in-write=N[:SEED]` cuts *inside* the Nth page write's EEPROM cycle (about 4 ms on
///   real tags): the tag leaves the field with no answer, and the page holds a mix of old
///   and new bits — except a page the chip's table lists as tearing-protected, which holds
///   the whole old or the whole new value.
/// - `eeprom-fail-page=P`: the tag stays in the field and answers the EEPROM-error NAK; the
///   reader knows the write failed, and the page is half-written (a tearing-protected page
///   keeps its old value).
///
/// ```swift
/// let faults = try FaultPlan(parsing: ["tear-after=20", "nak-page=0x10", "tear-in-write=3:42"])
/// let emulator = try PN532Emulator(tags: [tag], faults: faults)
/// ```
public struct FaultPlan: Sendable, Equatable {
    /// Frames the first tag receives before it leaves the field.
    public var tagLeavesAfterFrames: Int?
    /// The page write cut off mid-cycle (`tear-in-write=N[:SEED]`).
    public var tearInWrite: WriteTear?
    /// Pages or blocks whose commands are NAKed (NAK 0).
    public var nakPages: Set<Int> = []
    /// Pages or blocks whose commands get no answer (the reader times out).
    public var timeoutPages: Set<Int> = []
    /// Tag command codes that get no answer.
    public var timeoutCommands: Set<UInt8> = []
    /// Tag command codes whose exchange the reader chip never finishes: after the ACK it
    /// stays silent until the host aborts or sends its next command, as a PN53x still
    /// waiting on the RF side does. The host's own wait runs out (libnfc NFC_ETIMEOUT); an
    /// ACR122U's firmware answers ICC mute (`datasheets/readers/acr122u.md`). Unlike
    /// `timeout-command`, whose silent tag the chip reports with status 01 at once.
    public var muteCommands: Set<UInt8> = []
    /// Pages or blocks whose write fails with the EEPROM-error NAK (NAK 5 on Type 2): a Type 2
    /// WRITE or COMPATIBILITY_WRITE, a Classic WRITE's data frame. The tag stays in the field
    /// and ACTIVE until the NAK. A tearing-protected page (the chip table's
    /// ``NFCChips/MemoryMap/tearingProtectedPages``) keeps its old content; any other page
    /// is half-written (``EEPROMWrite/failedContent``).
    public var eepromFailurePages: Set<Int> = []
    /// The answer frame to the host (counting from 1) whose checksum is garbled.
    public var garbleAnswerFrame: Int?
    /// Host command frames after which the reader is unplugged.
    public var unplugAfterFrames: Int?
    /// How long every answer to the host is held back.
    public var answerDelay: Duration = .zero
    /// How long the first answer after each plug-in is held back.
    public var firstAnswerDelay: Duration = .zero
    /// The fastest serial speed SetSerialBaudRate accepts; faster ones get the error frame.
    public var maximumSerialSpeed: Int?

    /// No faults.
    public init() {}

    /// Faults from their text forms (see the table above).
    public init(parsing specs: [String]) throws(FaultSpecError) {
        for spec in specs { try add(spec) }
    }

    /// Whether no fault is planned.
    public var isEmpty: Bool { self == FaultPlan() }

    private mutating func add(_ spec: String) throws(FaultSpecError) {
        let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
        if parts.first == "tear-in-write", parts.count == 2 {
            guard let tear = WriteTear(parsing: parts[1]) else { throw FaultSpecError(spec: spec) }
            tearInWrite = tear
            return
        }
        guard parts.count == 2, let number = Self.number(parts[1], hex: parts[0].hasSuffix("-command")) else {
            throw FaultSpecError(spec: spec)
        }
        switch parts[0] {
        case "tear-after": tagLeavesAfterFrames = number
        case "nak-page": nakPages.insert(number)
        case "timeout-page": timeoutPages.insert(number)
        case "timeout-command":
            guard let code = UInt8(exactly: number) else { throw FaultSpecError(spec: spec) }
            timeoutCommands.insert(code)
        case "mute-command":
            guard let code = UInt8(exactly: number) else { throw FaultSpecError(spec: spec) }
            muteCommands.insert(code)
        case "eeprom-fail-page": eepromFailurePages.insert(number)
        case "garble-after": garbleAnswerFrame = number
        case "unplug-after": unplugAfterFrames = number
        case "slow": answerDelay = .milliseconds(number)
        case "first-answer-delay": firstAnswerDelay = .milliseconds(number)
        case "max-baud": maximumSerialSpeed = number
        default: throw FaultSpecError(spec: spec)
        }
    }

    static func number(_ text: String, hex: Bool = false) -> Int? {
        let value: Int?
        if text.lowercased().hasPrefix("0x") {
            value = Int(text.dropFirst(2), radix: 16)
        } else {
            value = Int(text, radix: hex ? 16 : 10)
        }
        return value.flatMap { $0 >= 0 ? $0 : nil }
    }
}

/// `tear-in-write=N[:SEED]`: the Nth page write the emulator carries out (counting from 1,
/// over every tag) is cut off by the field in the middle of its EEPROM cycle.
///
/// A page write is a Type 2 WRITE or the second COMPATIBILITY_WRITE frame, or the data
/// frame of a Classic WRITE, that the tag accepts (a refused write is no cycle). The cut
/// page holds ``EEPROMWrite/tornContent(seed:)``: each bit from the old or the new value,
/// chosen by a generator seeded with SEED (default 0) — the same N and SEED give the same
/// bits — or, on a page the chip's table lists as tearing-protected, the whole old or the
/// whole new value. The tag then leaves the field without answering, as after
/// `tear-after`, and ``Field/departedTags`` keeps it as the cut left it.
///
/// ```swift
/// let plan = try FaultPlan(parsing: ["tear-in-write=3:42"])   // plan.tearInWrite == WriteTear(write: 3, seed: 42)
/// ```
public struct WriteTear: Sendable, Equatable {
    /// Which page write is cut (1 = the first).
    public var write: Int
    /// The seed of the bits the cut page keeps from the new value.
    public var seed: UInt64

    /// A tear of page write `write` with `seed`.
    public init(write: Int, seed: UInt64 = 0) {
        self.write = write
        self.seed = seed
    }

    /// `N` or `N:SEED`, N at least 1 (decimal, or hex with `0x`).
    init?(parsing text: String) {
        let fields = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let write = FaultPlan.number(fields[0]), write >= 1 else { return nil }
        var seed = 0
        if fields.count == 2 {
            guard let value = FaultPlan.number(fields[1]) else { return nil }
            seed = value
        }
        self.init(write: write, seed: UInt64(seed))
    }
}

/// A fault spec that is not one of ``FaultPlan``'s text forms.
public struct FaultSpecError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The text given.
    public var spec: String
    /// What was wrong and what is accepted.
    public var description: String {
        "unknown fault '\(spec)': expected tear-after=N, tear-in-write=N[:SEED], nak-page=P, timeout-page=P, "
            + "timeout-command=HEX, eeprom-fail-page=P, garble-after=N, unplug-after=N, slow=MS, "
            + "first-answer-delay=MS or max-baud=N"
    }
}
