import NFCTagKit

/// `--mirror` on `write` and `provision`: the message's one URI record is a template whose
/// `{uid}`, `{counter}` or `{uid}x{counter}` the NTAG21x fills in on every read.
enum MirrorWriting {
    /// The chip's mirror template for `message`, or the refusal (exit 1, nothing written).
    static func template(for message: NDEFMessage, chip: Chip?, command: String) throws(ToolError) -> NTAGMirrorTemplate
    {
        guard message.records.count == 1, let record = message.records.first,
            let uri = try? NDEFURIRecord(record: record).uri
        else {
            throw .usage("nfctag \(command): --mirror takes one --uri with {uid}, {counter} or {uid}x{counter}")
        }
        guard let chip else {
            throw ToolError(
                exitCode: .failure,
                summary: "nfctag \(command) refused: the chip is unknown, so its mirror is too; nothing was written")
        }
        do {
            return try NTAGMirrorTemplate(uri: uri, chip: chip)
        } catch {
            throw ToolError(exitCode: .failure, summary: "nfctag \(command) refused: \(error); nothing was written")
        }
    }

    /// `uid`, `counter` or `uid+counter`, for messages and JSON.
    static func name(_ template: NTAGMirrorTemplate) -> String {
        [template.mirrorsUID ? "uid" : nil, template.mirrorsCounter ? "counter" : nil].compactMap { $0 }.joined(
            separator: "+")
    }
}
