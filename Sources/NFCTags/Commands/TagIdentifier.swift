import NFCChips

/// Identifies the chip behind a ``TagTransport`` exactly: ATQA / SAK first, then for the
/// Type 2 family GET_VERSION (raw framing), and only when that gets no data the
/// Ultralight C `AUTHENTICATE` probe, selecting the tag again after every probe that
/// leaves it outside ACTIVE. An NTAG215 answers GET_VERSION and is never taken for an
/// Ultralight.
///
/// ```swift
/// let report = try await TagIdentifier.identify(over: transport)
/// report.chip            // .ntag215
/// ```
public enum TagIdentifier {
    /// Probes the tag and identifies it; the tag is left ACTIVE and unauthenticated.
    public static func identify(over transport: any TagTransport) async throws(TagCommandError) -> TagIdentificationReport {
        let target = transport.target
        var report = TagIdentificationReport(
            target: target,
            identification: ChipIdentifier.identify(atqa: target.atqa, sak: target.sak, getVersion: nil,
                                                    answersUltralightCAuthenticate: nil),
            getVersionAnswer: nil, ultralightCProbeAnswer: nil)
        let type2 = ChipTables.chips.filter { $0.family.isType2 }
        guard type2.contains(where: { $0.activation.atqa == target.atqa && $0.activation.sak == target.sak }) else {
            return report
        }

        if let getVersion = type2.lazy.compactMap({ $0.command(.getVersion) }).first {
            let answer = try await probe(transport, [getVersion.code], command: getVersion)
            report.getVersionAnswer = answer
            if case .bytes(let bytes) = answer {
                report.identification = ChipIdentifier.identify(atqa: target.atqa, sak: target.sak, getVersion: bytes,
                                                                answersUltralightCAuthenticate: nil)
                return report
            }
            try await transport.reselectTag()
        }

        guard let ultralightC = type2.first(where: { $0.ultralightCAuthentication != nil }),
              let authenticate = ultralightC.command(.authenticate) else { return report }
        let answer = try await probe(transport, [authenticate.code] + (authenticate.fixedArguments ?? []),
                                     command: authenticate)
        report.ultralightCProbeAnswer = answer
        var answersAuthenticate = false
        if case .bytes(let bytes) = answer { answersAuthenticate = ChipIdentifier.isUltralightCAuthenticateAnswer(bytes) }
        try await transport.reselectTag()
        report.identification = ChipIdentifier.identify(atqa: target.atqa, sak: target.sak, getVersion: nil,
                                                        answersUltralightCAuthenticate: answersAuthenticate)
        return report
    }

    /// One probe; silence and NAKs are answers, a lost tag or reader is an error.
    private static func probe(_ transport: any TagTransport, _ frame: [UInt8], command: CommandSpec) async throws(TagCommandError) -> ProbeAnswer {
        do {
            switch try await transport.exchange(frame, command: command.name, framing: .raw, timeout: command.timeout) {
            case .bytes(let bytes): return .bytes(bytes)
            case .ack: return .ack
            }
        } catch .nak(let code, _) {
            return .nak(code)
        } catch .transport(.timeout) {
            return .noAnswer
        } catch {
            throw error
        }
    }
}
