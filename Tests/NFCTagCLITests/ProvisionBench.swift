import Foundation
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// A provisioning bench for the `nfctag provision` tests: an emulated PN532 behind a stable
/// link (so that an unplugged reader comes back at the same connection string), a log file
/// in a directory of its own, and tags with distinct UIDs to present one after another.
final class ProvisionBench {
    static let url = "https://example.com/box/17"

    let emulator: EmulatedReader
    let directory: URL
    let logPath: String

    /// `kind`: the process's reader kind unless given (a suite tagged `.reader`).
    init(tags: [any EmulatedTag] = [], faults: FaultPlan = FaultPlan(), kind: ReaderUnderTest? = nil) throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("nfctag-provision-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        logPath = directory.appendingPathComponent("provision.jsonl").path
        emulator = try EmulatedReader(
            kind: kind, tags: tags, link: directory.appendingPathComponent("reader").path, faults: faults)
    }

    deinit {
        emulator.stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// An NTAG21x with UID `04 nn 20 30 40 50 60`.
    static func tag(_ number: UInt8, chip: Chip = .ntag215) throws -> Type2Tag {
        try Type2Tag(chip: chip, uid: uid(number))
    }

    static func uid(_ number: UInt8) -> [UInt8] { [0x04, number, 0x20, 0x30, 0x40, 0x50, 0x60] }

    static func hex(_ bytes: [UInt8]) -> String { bytes.hexString() }

    /// A tag whose capability container says read-only (NFC Forum Type 2: write access 0x0F).
    static func readOnlyTag(_ number: UInt8) throws -> Type2Tag {
        var tag = try tag(number)
        let page = try #require(ChipTables.spec(for: .ntag215).memory?.capabilityContainer.page)
        var cc = tag.page(page)
        cc[3] = 0x0F
        tag.setPage(page, to: cc)
        return tag
    }

    /// `nfctag provision --uri URL ARGS --device … --timeout 3`, running.
    func start(_ arguments: [String], log: Bool = true, environment: [String: String] = [:], timeout: Int = 3) throws
        -> RunningTool
    {
        try RunningTool(
            ["provision", "--uri", Self.url] + arguments + (log ? ["--log", logPath] : [])
                + ["--device", emulator.connectionString, "--timeout", "\(timeout)"], environment: environment)
    }

    /// Waits for the `--json` line of `uid` with `result`, parsed.
    func waitForRecord(_ tool: RunningTool, uid: UInt8, result: String, timeout: Duration = .seconds(20)) async throws
        -> [String: Any]
    {
        let key = "\"uid\":\"\(Self.hex(Self.uid(uid)))\""
        let line = await tool.waitForLine(timeout: timeout) {
            $0.contains(key) && $0.contains("\"result\":\"\(result)\"")
        }
        let found = try #require(
            line, "no \(result) line for tag \(uid); stdout: \(tool.output) stderr: \(tool.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(found.utf8)) as? [String: Any])
    }

    /// The summary object of a `--json` run.
    func summary(_ tool: RunningTool) async throws -> [String: Any] {
        let line = await tool.waitForLine { $0.contains("\"summary\":true") }
        let found = try #require(line, "no summary; stdout: \(tool.output) stderr: \(tool.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(found.utf8)) as? [String: Any])
    }

    /// The log's lines, parsed.
    func logLines() throws -> [[String: Any]] {
        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    /// Presents `tag`, waits for its line, takes it away again; returns the record and the tag.
    func present(_ tag: Type2Tag, number: UInt8, to tool: RunningTool, expecting result: String) async throws -> (
        [String: Any], Type2Tag
    ) {
        let handle = emulator.insert(tag)
        let record = try await waitForRecord(tool, uid: number, result: result)
        let removed = try #require(emulator.remove(handle) as? Type2Tag)
        return (record, removed)
    }

    /// The NDEF message TLV the tag should hold from its first user page: `03 len message`.
    static func expectedTLV() throws -> String {
        let encoded = try ToolRunner.run(["ndef", "encode", "--uri", url])
        let message = encoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return "03" + String(format: "%02x", message.count / 2) + message
    }

    /// The tag's user memory as hex.
    static func userMemory(_ tag: Type2Tag) throws -> String {
        let memory = try #require(ChipTables.spec(for: .ntag215).memory)
        return hex(Array(memory.userPages.flatMap { tag.page($0) }))
    }
}
