import NFCChips

/// The result of identifying a tag: the chip (or unknown) and every raw answer seen, so an
/// unknown chip can be reported with what it said.
///
/// ```swift
/// let report = try await TagIdentifier.identify(over: transport)
/// switch report.identification {
/// case .identified(let chip): print(chip)                    // ntag215
/// case .unknown: print(report)                               // ATQA, SAK and answers
/// }
/// ```
public struct TagIdentificationReport: Sendable, Equatable, CustomStringConvertible {
    /// UID, ATQA, SAK and ATS from activation.
    package var target: TagTarget
    /// The verdict of ``NFCChips/ChipIdentifier``.
    package var identification: ChipIdentification
    /// The answer to GET_VERSION (raw framing), or `nil` when it was not sent.
    package var getVersionAnswer: ProbeAnswer?
    /// The answer to the Ultralight C `AUTHENTICATE` probe, or `nil` when it was not sent.
    package var ultralightCProbeAnswer: ProbeAnswer?
    /// The first part of an ISO-DEP tag's native GetVersion (`90 60 00 00 00`: its data and
    /// status word), or `nil` when it was not asked (see ``NFCChips/ChipIdentifier/asksISODEPVersion(uid:sak:ats:)``).
    package var isoDEPVersionAnswer: [UInt8]? = nil

    /// What ATQA / SAK alone tell, before any command reaches the tag.
    package init(activation target: TagTarget) {
        let identification: ChipIdentification
        if let atqb = target.typeB {
            // A type B card that speaks ISO-DEP is a generic Type 4 tag: no probe tells more.
            identification =
                ChipTables.iso14443b.isISO14443_4(atqb: atqb)
                ? .identified(.type4) : .unknown(atqa: 0, sak: 0, getVersion: nil)
        } else {
            identification = ChipIdentifier.identify(
                atqa: target.atqa, sak: target.sak, getVersion: nil, answersUltralightCAuthenticate: nil)
        }
        self.init(
            target: target, identification: identification, getVersionAnswer: nil, ultralightCProbeAnswer: nil)
    }

    package init(
        target: TagTarget, identification: ChipIdentification, getVersionAnswer: ProbeAnswer?,
        ultralightCProbeAnswer: ProbeAnswer?
    ) {
        self.target = target
        self.identification = identification
        self.getVersionAnswer = getVersionAnswer
        self.ultralightCProbeAnswer = ultralightCProbeAnswer
    }

    /// The chip, when identified.
    public var chip: Chip? { identification.chip }

    /// `ntag215 (UID 04…, ATQA 0044, SAK 00, GET_VERSION → …)`: the chip, then every raw answer.
    public var description: String {
        if let feliCa = target.feliCa {
            let ic = ChipTables.felica.ic(pmm: feliCa.pmm)?.name ?? "FeliCa card"
            return "\(ic) (IDm \(feliCa.idm.hexString(uppercase: true)), PMm \(feliCa.pmm.hexString(uppercase: true)))"
        }
        if let header = target.type1HeaderROM {
            let chip = header.count == 2 ? ChipTables.type1.chip(hr0: header[0], hr1: header[1]) : nil
            let name = chip?.name.rawValue ?? "Type 1 tag"
            return "\(name) (JEWELID \(target.uid.hexString(uppercase: true)), HR \(header.hexString(uppercase: true)))"
        }
        if let atqb = target.typeB {
            let name = identification.chip.map { "\($0.rawValue) on ISO/IEC 14443-4B" } ?? "ISO/IEC 14443 Type B card"
            return "\(name) (PUPI \(target.uid.hexString(uppercase: true)), ATQB \(atqb.hexString(uppercase: true)))"
        }
        var text =
            "UID \(target.uid.hexString(uppercase: true)), ATQA \(target.atqa.hexString(uppercase: true)), SAK \(target.sak.hexString(uppercase: true))"
        if let answer = getVersionAnswer { text += ", GET_VERSION → \(describe(answer))" }
        if let answer = ultralightCProbeAnswer { text += ", AUTHENTICATE → \(describe(answer))" }
        if let answer = isoDEPVersionAnswer {
            text += ", GetVersion → \(answer.hexString(uppercase: true, separator: " "))"
        }
        switch identification {
        case .identified(let chip): return "\(chip.rawValue) (\(text))"
        case .unknown: return "unknown chip (\(text))"
        }
    }

    private func describe(_ answer: ProbeAnswer) -> String {
        switch answer {
        case .bytes(let bytes): bytes.hexString(uppercase: true, separator: " ")
        case .ack: "ACK"
        case .nak(let code): "NAK \(code)"
        case .noAnswer: "no answer"
        }
    }
}
