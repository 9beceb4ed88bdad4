import NFCTagKit

/// `nfctag apdu HEX…`: sends each ISO 7816-4 APDU in order to the ISO-DEP tag in the
/// field and prints each answer: data in hex, SW1SW2 and its meaning (`--json`: one object
/// per line, `{"apdu", "data", "sw", "meaning"}`). GET RESPONSE (`61xx`) and Le retries
/// (`6Cxx`) happen inside the library. Exit 0 when every status word is `9000` or `9100`,
/// 1 otherwise and for a tag without ISO-DEP.
enum APDUCommand {
    static let spec = CommandSpec(
        "apdu", "send ISO 7816-4 APDUs to an ISO-DEP tag", operands: "HEX [HEX…]",
        options: TagOptions.specs,
        discussion: """
            Sends each APDU (CLA INS P1 P2 [Lc data] [Le], short or extended lengths) in order
            and prints one line per answer: the data in hex, SW1SW2 and its meaning. A 61xx
            answer is followed by GET RESPONSE and the parts joined; a 6Cxx answer makes the
            APDU go again with the Le the tag named. The reader chains ISO-DEP blocks; an APDU
            longer than one reader exchange is refused (exit 2).
            With --json: one object per line and APDU,
            {"apdu": HEX, "data": HEX, "sw": "9000", "meaning": TEXT}.
            Exit 0 when every status word is 9000 or 9100; 1 when one is not, and for a tag
            without ISO-DEP (NTAG, Ultralight, MIFARE Classic).

            \(HelpText.chipCommon)

            Examples:
              nfctag apdu 00A4040007D276000085010100                  # SELECT the NDEF application
              nfctag apdu 00A4040007D276000085010100 00A4000C02E103 00B000000F --json
            """)

    static func run(_ parser: inout ArgumentParser, output: inout Output) async throws(ToolError) {
        var apdus: [APDU] = []
        var tagOptions = TagOptions()
        while let argument = try parser.next(of: spec) {
            if try tagOptions.consume(argument) { continue }
            let token = argument.value
            guard let bytes = Hex.decode(token) else {
                throw .malformedInput("nfctag apdu: '\(token)' is not an APDU in hex (e.g. 00A4040007D276000085010100)")
            }
            do throws(TagCommandError) {
                apdus.append(try APDU(bytes: bytes))
            } catch {
                throw .malformedInput("nfctag apdu: '\(token)': \(error)")
            }
        }
        output.json = parser.globals.json
        if parser.helpRequested {
            output.line(spec.help)
            return
        }
        guard !apdus.isEmpty else {
            throw .usage("nfctag apdu: give one APDU or more as HEX, e.g. 'nfctag apdu 00A4040007D276000085010100'")
        }
        let printer = output
        let failed = try await ChipSession.run(parser.globals, command: "apdu", pack: tagOptions.pack) {
            session throws(ToolError) -> Int in
            let tag: NFCISODEPTag
            do {
                tag = try session.isoDEPTag()
            } catch {
                throw ToolError(
                    exitCode: .failure,
                    summary:
                        "nfctag apdu: the tag (\(ChipSession.chipName(session))) does not speak ISO-DEP (ISO 14443-4): it takes no APDUs",
                    detail: [
                        "APDUs go to Type 4 tags and other ISO-DEP cards; use 'nfctag raw' for this tag's own commands."
                    ])
            }
            var failed = 0
            for apdu in apdus {
                let answer: APDUResponse
                do throws(TagSessionError) {
                    answer = try await tag.sendCommand(apdu)
                } catch {
                    throw ChipSession.failure(error, command: "apdu")
                }
                if !answer.isSuccess { failed += 1 }
                if printer.json {
                    printer.document(
                        .object([
                            ("apdu", .string(apdu.bytes.hexString())), ("data", .string(answer.data.hexString())),
                            ("sw", .string(answer.statusWordHex)), ("meaning", .string(answer.meaning)),
                        ]))
                } else {
                    printer.line(answer.description)
                }
            }
            return failed
        }
        guard failed == 0 else {
            throw ToolError(
                exitCode: .failure,
                summary:
                    "nfctag apdu: \(failed) of \(apdus.count) APDU\(apdus.count == 1 ? "" : "s") did not end in 9000 or 9100"
            )
        }
    }
}
