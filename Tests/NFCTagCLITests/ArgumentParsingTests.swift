import Foundation
import NFCEmulator
import Testing
import TestSupport
@testable import nfctag

/// The command line as the shells write it: `--option=value`, `--` before positional
/// arguments, a missing value, and `--help` wherever it stands — no reader is needed.
@Suite("nfctag argument parsing", .blockingCalls)
struct ArgumentParsingTests {
    @Test("--option=value is --option value; the value may hold '=' and start with '-'")
    func inlineValues() throws {
        let spaced = try ToolRunner.run(["ndef", "encode", "--uri", "https://example.com/?a=b"])
        let inline = try ToolRunner.run(["ndef", "encode", "--uri=https://example.com/?a=b"])
        #expect(spaced.status == 0 && inline.status == 0, "\(inline.stderr)")
        #expect(inline.stdout == spaced.stdout)
        let dashed = try ToolRunner.run(["ndef", "encode", "--text=--not-an-option", "--json"])
        #expect(dashed.status == 0, "\(dashed.stderr)")
    }

    @Test("an option whose value is missing is a usage error (exit 2), not a reader called --json")
    func missingValue() throws {
        let result = try ToolRunner.run(["read", "--device", "--json"])
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stderr.contains("--device needs a value"), "\(result.stderr)")
        let atEnd = try ToolRunner.run(["ndef", "encode", "--uri"])
        #expect(atEnd.status == 2)
    }

    @Test("--help anywhere wins: unknown options and missing values after the command do not matter")
    func helpWins() throws {
        let plain = try ToolRunner.run(["write", "--help"])
        #expect(plain.status == 0)
        for arguments in [
            ["write", "--help", "--bogus"], ["write", "--bogus", "--help"],
            ["--device", "x", "write", "--uri", "--help"],
            ["write", "-h", "--timeout"],
        ] {
            let result = try ToolRunner.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(result.stdout == plain.stdout, "\(arguments)")
        }
        let nested = try ToolRunner.run(["ndef", "decode", "--bogus", "--help"])
        let nestedPlain = try ToolRunner.run(["ndef", "decode", "--help"])
        #expect(nested.status == 0 && nested.stdout == nestedPlain.stdout)
    }

    @Test(
        "every command's help is made from its declarations and names every option it accepts",
        arguments: HelpText.commands.map(\.name))
    func helpListsEveryOption(name: String) throws {
        let spec = try #require(HelpText.commands.first { $0.name == name })
        let result = try ToolRunner.run(name.split(separator: " ").map(String.init) + ["--help"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == spec.help + "\n", "nfctag \(name) --help is not its declaration's help")
        for option in spec.options {
            for optionName in option.names {
                #expect(result.stdout.contains(optionName), "nfctag \(name) --help omits \(optionName)")
            }
            // What the help declares, the command takes: a declared option is never "unknown"
            // (the command then fails on the reader that is not there, or on a value).
            guard name != "emulate", option.name != "--watch" else { continue }  // they serve, or watch, until stopped
            let value = option.value == nil ? [] : ["1"]
            let parsed = try ToolRunner.run(
                name.split(separator: " ").map(String.init) + [option.name] + value
                    + ["--timeout", "0.2", "--device", "pn532_uart:/nonexistent/nfctag-test"], limit: .seconds(20))
            #expect(!parsed.stderr.contains("unknown option"), "\(name) \(option.name): \(parsed.stderr)")
        }
        let tool = try ToolRunner.run(["--help"])
        #expect(tool.stdout.contains("  " + name), "nfctag --help does not list \(name)")
    }

    @Test("after --, an argument that starts with '-' is a positional one (report reads a log named --night.log)")
    func doubleDash() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nfctag-dashdash-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let line =
            #"{"time":"2026-12-04T10:00:00.000Z","station":"A","uid":"04a1b2c3d4e5f6","chip":"ntag215","result":"ok","actions":[],"ms":100}"#
        try Data((line + "\n").utf8).write(to: directory.appendingPathComponent("--night.log"))
        let process = try ToolRunner.run(["report", "--json", "--", "--night.log"], workingDirectory: directory)
        #expect(process.status == 0, "\(process.stderr)")
        #expect(process.stdout.contains("\"A\""), "the log's station is not in the report: \(process.stdout)")
        let without = try ToolRunner.run(["report", "--night.log"], workingDirectory: directory)
        #expect(without.status == 2, "\(without.stderr)")
    }
}

/// One-shot commands and signals: the command stops at its next consistent point, closes the
/// reader and exits 128 + the signal.
@Suite("nfctag one-shot commands and signals", .tags(.reader), .timeLimit(.minutes(1)), .blockingCalls)
struct OneShotSignalTests {
    @Test(
        "read waiting for a tag: SIGINT ends the wait at once, closes the reader and exits 130",
        arguments: [
            (SIGINT, Int32(130)), (SIGTERM, Int32(143)), (SIGHUP, Int32(129)),
        ])
    func readInterruptedWhileWaiting(signal: Int32, status: Int32) async throws {
        let emulator = try startEmulator([])
        defer { emulator.stop() }
        let read = try RunningTool(["read", "--timeout", "30", "--device", emulator.connectionString])
        // The tool is waiting once it polls the empty field.
        let deadline = ContinuousClock.now + .seconds(20)
        while emulator.statistics.commands < 8, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(emulator.statistics.commands >= 8, "the tool never polled: \(read.standardError)")
        let started = ContinuousClock.now
        #expect(await read.send(signal, timeout: .seconds(10)) == status, "\(read.standardError)")
        #expect(ContinuousClock.now - started < .seconds(10), "the wait for a tag did not end")
        // Closed, not abandoned: the reader opens again at once for the next command.
        let again = try ToolRunner.run(["readers", "--device", emulator.connectionString, "--json"])
        #expect(again.status == 0, "\(again.stderr)")
    }
}
