import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The provisioning log: JSON lines, one per tag handled, appended and flushed to disk as
/// each tag finishes (a crash or a power cut loses at most the tag in hand).
///
/// On start the station reads it back: every UID with a line whose `result` is `ok` is
/// done, and is skipped unless `--again`. Lines that do not parse (a line cut short by a
/// crash, a note added by hand) are ignored and counted. A last line cut short inside its
/// `write` (a full disk, a power cut) is ended with a newline when the log is opened again,
/// so the next record stands on a line of its own instead of being lost with it.
final class ProvisionLog {
    let path: String
    private let descriptor: Int32

    /// Opens `path` for appending (creating it), after reading the UIDs already done.
    init(path: String) throws(ToolError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw ToolError(
                exitCode: .usage,
                summary: "nfctag provision: cannot open the log \(path): \(String(cString: strerror(errno)))")
        }
        if Self.endsInsideALine(path) { try writeWhole(Array("\n".utf8)) }
    }

    /// Whether the file at `path` is not empty and its last byte is not a newline.
    private static func endsInsideALine(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let end = try? handle.seekToEnd(), end > 0 else { return false }
        try? handle.seek(toOffset: end - 1)
        return (try? handle.read(upToCount: 1)) != Data("\n".utf8)
    }

    deinit {
        close(descriptor)
    }

    /// The UIDs (lowercase hex) the log lists with `"result":"ok"`, and how many lines did
    /// not parse.
    static func provisionedUIDs(in path: String) throws(ToolError) -> (uids: Set<String>, unreadableLines: Int) {
        guard FileManager.default.fileExists(atPath: path) else { return ([], 0) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ToolError(exitCode: .usage, summary: "nfctag provision: cannot read the log \(path)")
        }
        return provisionedUIDs(inText: String(decoding: data, as: UTF8.self))
    }

    /// The UIDs done in a log's text (see ``provisionedUIDs(in:)``).
    static func provisionedUIDs(inText text: String) -> (uids: Set<String>, unreadableLines: Int) {
        var uids: Set<String> = []
        var unreadable = 0
        for line in text.split(whereSeparator: \.isNewline) where !line.allSatisfy(\.isWhitespace) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                let uid = object["uid"] as? String
            else {
                unreadable += 1
                continue
            }
            if object["result"] as? String == "ok" { uids.insert(uid.lowercased()) }
        }
        return (uids, unreadable)
    }

    /// Appends `record` as one line and flushes it to disk.
    func append(_ record: JSONValue) throws(ToolError) {
        try writeWhole(Array((record.serialized() + "\n").utf8))
    }

    /// Appends `bytes` whole and flushes them to disk.
    private func writeWhole(_ bytes: [UInt8]) throws(ToolError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                throw ToolError(
                    exitCode: .failure,
                    summary: "nfctag provision: cannot write the log \(path): \(String(cString: strerror(errno)))",
                    detail: ["The tag in hand was handled; the station stops so that no tag goes unrecorded."])
            }
            offset += written
        }
        fsync(descriptor)
    }
}
