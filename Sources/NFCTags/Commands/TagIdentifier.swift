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
package enum TagIdentifier {
    /// Probes the tag and identifies it; the tag is left ACTIVE and unauthenticated.
    package static func identify(over transport: any TagTransport) async throws(TagCommandError)
        -> TagIdentificationReport
    {
        let target = transport.target
        var report = TagIdentificationReport(activation: target)
        if ChipIdentifier.asksISODEPVersion(uid: target.uid, sak: target.sak, ats: target.ats ?? []) {
            let answer = try await isoDEPVersion(transport)
            report.isoDEPVersionAnswer = answer
            if let answer, answer.count > 2 {
                report.identification = ChipIdentifier.identify(
                    atqa: target.atqa, sak: target.sak, getVersion: nil,
                    answersUltralightCAuthenticate: nil, isoDEPVersion: Array(answer.dropLast(2)))
            }
            return report
        }
        let type2 = ChipTables.chips.filter { $0.family.isType2 }
        guard type2.contains(where: { $0.activation.atqa == target.atqa && $0.activation.sak == target.sak }) else {
            return report
        }

        if let getVersion = type2.lazy.compactMap({ $0.command(.getVersion) }).first {
            let answer = try await probe(transport, [getVersion.code], command: getVersion)
            report.getVersionAnswer = answer
            if case .bytes(let bytes) = answer {
                report.identification = ChipIdentifier.identify(
                    atqa: target.atqa, sak: target.sak, getVersion: bytes,
                    answersUltralightCAuthenticate: nil)
                return report
            }
            try await transport.reselectTag()
        }

        guard let ultralightC = type2.first(where: { $0.ultralightCAuthentication != nil }),
            let authenticate = ultralightC.command(.authenticate)
        else { return report }
        let answer = try await probe(
            transport, [authenticate.code] + (authenticate.fixedArguments ?? []),
            command: authenticate)
        report.ultralightCProbeAnswer = answer
        var answersAuthenticate = false
        if case .bytes(let bytes) = answer {
            answersAuthenticate = ChipIdentifier.isUltralightCAuthenticateAnswer(bytes)
        }
        try await transport.reselectTag()
        report.identification = ChipIdentifier.identify(
            atqa: target.atqa, sak: target.sak, getVersion: nil,
            answersUltralightCAuthenticate: answersAuthenticate)
        return report
    }

    /// The native GetVersion of an ISO-DEP tag (NTAG 424 DNA, DESFire): its first part's
    /// data and status word, or `nil` when the tag did not answer in time (it is selected
    /// again). A tag that answers `91AF` is taken through the remaining parts, so that it
    /// is left with no command half done.
    private static func isoDEPVersion(_ transport: any TagTransport) async throws(TagCommandError) -> [UInt8]? {
        typealias Table = NTAG424DNATable
        func native(_ command: Table.Command) throws(TagCommandError) -> APDU {
            do {
                return try APDU(
                    cla: Table.nativeCLA, ins: command.rawValue, p1: 0, p2: 0,
                    expectedResponseLength: ChipTables.iso7816.shortMaximumNe)
            } catch {
                throw .invalidArgument(error.description)
            }
        }
        let commands = ISO7816Commands(transport: transport)
        do {
            let first = try await commands.send(try native(.getVersion))
            var last = first
            var parts = 1
            while last.sw1 == Table.nativeSW1, last.sw2 == Table.Status.additionalFrame.rawValue, parts < 3 {
                last = try await commands.send(try native(.additionalFrame))
                parts += 1
            }
            return first.data + [first.sw1, first.sw2]
        } catch .transport(.timeout) {
            try await transport.reselectTag()
            return nil
        }
    }

    /// One probe; silence and NAKs are answers, a lost tag or reader is an error.
    private static func probe(_ transport: any TagTransport, _ frame: [UInt8], command: CommandSpec)
        async throws(TagCommandError) -> ProbeAnswer
    {
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
