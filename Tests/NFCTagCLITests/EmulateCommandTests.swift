import Foundation
import Locking
import NFCEmulator
import Testing
import TestSupport

/// `nfctag emulate` as a script uses it: started in the background, its first line read,
/// libnfc's tools pointed at it, stopped with SIGTERM. Every process has an outer timeout.
@Suite("nfctag emulate", .serialized, .blockingCalls)
struct EmulateCommandTests {
    /// A running `nfctag emulate`.
    final class Emulation {
        let process = Process()
        let firstLine: String

        init(_ arguments: [String], timeout: Double = 20) throws {
            process.executableURL = ToolRunner.executable
            process.arguments = ["emulate"] + arguments
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            try process.run()
            let line = Locked<String?>(nil)
            let ready = DispatchSemaphore(value: 0)
            let handle = out.fileHandleForReading
            Thread.detachNewThread {
                var bytes: [UInt8] = []
                while true {
                    let chunk = handle.readData(ofLength: 1)
                    guard let byte = chunk.first, byte != 0x0A else { break }
                    bytes.append(byte)
                }
                line.withLock { $0 = String(decoding: bytes, as: UTF8.self) }
                ready.signal()
            }
            if ready.wait(timeout: .now() + timeout) == .timedOut {
                process.terminate()
                process.waitUntilExit()
                throw Failure(message: "nfctag emulate printed nothing in \(timeout) s")
            }
            firstLine = line.withLock { $0 ?? "" }
        }

        /// SIGTERM, then the exit status (killed after `timeout`).
        func stop(timeout: Double = 20) -> Int32 {
            guard process.isRunning else { return process.terminationStatus }
            process.terminate()
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread { [process] in
                process.waitUntilExit()
                done.signal()
            }
            if done.wait(timeout: .now() + timeout) == .timedOut {
                kill(process.processIdentifier, SIGKILL)
                done.wait()
            }
            return process.terminationStatus
        }

        deinit { if process.isRunning { _ = stop() } }
    }

    struct Failure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }

    /// Runs one of libnfc's tools against `device` with an outer timeout; returns its output.
    static func libnfcTool(
        _ tool: String, _ arguments: [String], device: String, input: String = "", timeout: Double = 30
    ) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["LIBNFC_DEVICE"] = device
        environment["LIBNFC_AUTO_SCAN"] = "false"
        environment["LIBNFC_LOG_LEVEL"] = "0"
        process.environment = environment
        let out = Pipe()
        let stdin = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let text = Locked("")
        let drained = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let data = out.fileHandleForReading.readDataToEndOfFile()
            text.withLock { $0 = String(decoding: data, as: UTF8.self) }
            drained.signal()
        }
        if drained.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            drained.wait()
        }
        process.waitUntilExit()
        return text.withLock { $0 }
    }

    func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent(
            "nfctag-\(name)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        ).path
    }

    @Test("emulate --help names every tag the emulator can make")
    func helpListsEveryTag() throws {
        let help = try ToolRunner.run(["emulate", "--help"])
        #expect(help.status == 0)
        let words = Set(help.stdout.split(whereSeparator: { $0.isWhitespace || $0 == "," }).map(String.init))
        for name in EmulatedTagFactory.tagNames {
            #expect(words.contains(name), "emulate --help omits \(name)")
        }
    }

    @Test("prints pn532_uart:LINK first; nfc-list sees the tag; SIGTERM stops it and --stats is written")
    func serveListStop() throws {
        let link = temporaryPath("link")
        let stats = temporaryPath("stats.json")
        defer { try? FileManager.default.removeItem(atPath: stats) }
        let emulation = try Emulation(["--tag", "ntag215", "--link", link, "--stats", stats, "--uid", "04475ed29c3980"])
        #expect(emulation.firstLine == "pn532_uart:" + link)
        let listing = try Self.libnfcTool("nfc-list", [], device: emulation.firstLine)
        #expect(listing.contains("UID (NFCID1): 04  47  5e  d2  9c  39  80"), "\(listing)")
        #expect(emulation.stop() == 0)
        #expect(!FileManager.default.fileExists(atPath: link), "the link goes with the emulator")
        let object =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stats))) as? [String: Any]
        let commands = try #require(object?["commands"] as? Int)
        #expect(commands > 5)
        #expect((object?["bytes_to_reader"] as? Int ?? 0) > 0 && (object?["bytes_from_reader"] as? Int ?? 0) > 0)
        #expect((object?["modeled_ms"] as? Double ?? 0) > 0)
    }

    @Test("--state: nfc-mfultralight w changes a page, the file keeps it, a restart serves it again")
    func statePersists() throws {
        let state = temporaryPath("state.json")
        let dump = temporaryPath("dump.mfd")
        defer { for path in [state, dump] { try? FileManager.default.removeItem(atPath: path) } }
        let first = try Emulation(["--tag", "ntag213", "--state", state])
        let read = try Self.libnfcTool("nfc-mfultralight", ["r", dump], device: first.firstLine)
        #expect(read.contains("Done, 45 of 45 pages read"), "\(read)")
        var image = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dump)))
        image.replaceSubrange(0x10 * 4..<(0x10 * 4 + 4), with: [0xCA, 0xFE, 0xBA, 0xBE])
        try Data(image).write(to: URL(fileURLWithPath: dump))
        let write = try Self.libnfcTool(
            "nfc-mfultralight", ["w", dump], device: first.firstLine, input: "n\nn\nn\nn\n")
        #expect(write.contains("pages failed"), "\(write)")
        #expect(first.stop() == 0)
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        #expect(saved.contains("cafebabe"))
        let second = try Emulation(["--state", state])
        let reread = try Self.libnfcTool("nfc-mfultralight", ["r", dump], device: second.firstLine)
        #expect(reread.contains("Done, 45 of 45 pages read"), "\(reread)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dump)))
        #expect(Array(bytes[(0x10 * 4)..<(0x10 * 4 + 4)]) == [0xCA, 0xFE, 0xBA, 0xBE])
        #expect(second.stop() == 0)
    }

    @Test(
        "--state keeps a tag torn away by --fault tear-after: the file holds it as the tear left it, a restart with the same --tag serves it"
    )
    func stateKeepsTornTag() throws {
        let state = temporaryPath("torn-state.json")
        defer { try? FileManager.default.removeItem(atPath: state) }
        // A long message: the tag leaves the field part-way through its writes.
        let text = String(repeating: "torn ", count: 60)
        let first = try Emulation(["--tag", "ntag215", "--state", state, "--fault", "tear-after=20"])
        let write = try ToolRunner.run(["write", "--device", first.firstLine, "--timeout", "3", "--text", text])
        #expect(write.status != 0, "the write cannot succeed on a tag torn away: \(write.stdout) \(write.stderr)")
        #expect(first.stop() == 0)
        let saved =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: state))) as? [String: Any]
        let tags = try #require(saved?["tags"] as? [[String: Any]])
        #expect(tags.compactMap { $0["tag"] as? String } == ["ntag215"], "the torn tag is kept: \(tags)")
        // The same --tag list is accepted, and the tag is back in the field as the tear left it.
        let second = try Emulation(["--tag", "ntag215", "--state", state])
        let read = try ToolRunner.run(["read", "--device", second.firstLine, "--timeout", "3"])
        #expect(!read.stdout.contains(text), "a torn write never reads back as the whole message")
        #expect(second.stop() == 0)
    }

    @Test("two tags are listed; --print-signing-key prints the public point; bad arguments exit 2")
    func tagsKeyAndErrors() throws {
        let emulation = try Emulation(["--tag", "ntag215", "classic1k", "--realtime"])
        let listing = try Self.libnfcTool("nfc-list", [], device: emulation.firstLine)
        #expect(listing.contains("2 ISO14443A passive target(s) found"), "\(listing)")
        #expect(emulation.stop() == 0)
        let key = try ToolRunner.run(["emulate", "--print-signing-key"])
        #expect(key.status == 0)
        #expect(key.stdout.count == 67 && key.stdout.hasPrefix("04"), "\(key.stdout)")
        #expect(try ToolRunner.run(["emulate", "--print-signing-key"]).stdout == key.stdout, "a fixed test key")
        #expect(try ToolRunner.run(["emulate", "--tag", "ntag999"]).status == 2)
        #expect(try ToolRunner.run(["emulate", "--tag", "ntag215", "--fault", "melt=1"]).status == 2)
        #expect(try ToolRunner.run(["emulate", "--tag", "classic1k", "--uid", "04475ed29c3980"]).status == 2)
        #expect(try ToolRunner.run(["emulate"]).status == 2)
    }
}
