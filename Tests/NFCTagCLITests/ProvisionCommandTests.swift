import Foundation
import NFCChips
import NFCEmulator
import Locking
import Testing
import TestSupport

/// `nfctag provision` run as a process against the emulated PN532; the test presents and
/// takes away tags as a person at the station would.
@Suite("nfctag provision: tag after tag", .tags(.reader), .serialized, .timeLimit(.minutes(3)), .blockingCalls)
struct ProvisionCommandTests {
    @Test("three tags one after another: each written and verified, one log line each, a summary, exit 0")
    func threeTags() async throws {
        let bench = try ProvisionBench()
        let tool = try bench.start(["--count", "3", "--json"])
        let tlv = try ProvisionBench.expectedTLV()
        for number: UInt8 in 1...3 {
            let (record, tag) = try await bench.present(
                try ProvisionBench.tag(number), number: number, to: tool, expecting: "ok")
            #expect(record["chip"] as? String == "ntag215")
            #expect(record["actions"] as? [String] == ["write", "verify"])
            #expect((record["ms"] as? Int).map { $0 >= 0 } == true)
            #expect(try ProvisionBench.userMemory(tag).hasPrefix(tlv), "tag \(number) does not hold the message")
        }
        let summary = try await bench.summary(tool)
        #expect(summary["done"] as? Int == 3)
        #expect(summary["failed"] as? Int == 0)
        #expect(await tool.exitStatus() == 0, "\(tool.standardError)")
        let log = try bench.logLines()
        #expect(log.map { $0["uid"] as? String } == (1...3).map { ProvisionBench.hex(ProvisionBench.uid($0)) })
        #expect(log.allSatisfy { $0["result"] as? String == "ok" && $0["time"] is String && $0["ms"] is Int })
        #expect(tool.standardError.contains("Remove the tag, present the next one"), "\(tool.standardError)")
        #expect(tool.standardError.contains("done 3 · failed 0 · skipped 0"), "\(tool.standardError)")
    }

    @Test("verify rests on the write's own read-back: the tag sees no second read of the message")
    func verifyReadsNothingTwice() async throws {
        let bench = try ProvisionBench(tags: [try ProvisionBench.tag(1)])
        let tool = try bench.start(["--count", "1", "--json"])
        let record = try await bench.waitForRecord(tool, uid: 1, result: "ok")
        #expect(record["actions"] as? [String] == ["write", "verify"])
        #expect(await tool.exitStatus() == 0, "\(tool.standardError)")
        let spec = ChipTables.spec(for: .ntag215)
        let fastRead = try #require(spec.command(.fastRead)?.code)
        let read = try #require(spec.command(.read)?.code)
        let statistics = bench.emulator.statistics
        // The write's three: the CC and the old TLV, the configuration pages, the read-back of
        // the pages written. Nothing reads the message again.
        #expect(statistics.tagFramesByCode[fastRead, default: 0] == 3, "\(statistics.tagFramesByCode)")
        #expect(statistics.tagFramesByCode[read, default: 0] == 0, "\(statistics.tagFramesByCode)")
    }

    @Test(
        "one connection per tag: the station's look at the field is the alone check of write, verify and lock; protect proves its password from a fresh selection, and the lock looks again",
        arguments: [false, true])
    func looksAtTheField(protect: Bool) async throws {
        let bench = try ProvisionBench(tags: [try ProvisionBench.tag(1)], kind: .pn532)
        let password = ["--protect", "--password", "12345678", "--pack", "abcd"]
        let tool = try bench.start((protect ? password : []) + ["--lock", "--count", "1", "--json"])
        let record = try await bench.waitForRecord(tool, uid: 1, result: "ok")
        #expect(
            record["actions"] as? [String]
                == (protect ? ["write", "verify", "protect", "lock"] : ["write", "verify", "lock"]))
        #expect(await tool.exitStatus() == 0, "\(tool.standardError)")
        // The tag lies on the reader from the start and --count 1 ends the station after it:
        // every InAutoPoll of the run looked at the field for this tag.
        let polls = bench.emulator.statistics.commandsByCode[ChipTables.pn532.code(.inAutoPoll), default: 0]
        #expect(polls == (protect ? 2 : 1), "\(polls) looks at the field for one tag")
    }

    @Test("--station NAME is in every log line and the summary; nfctag report merges two stations' logs")
    func stationsAndReport() async throws {
        let first = try ProvisionBench()
        let one = try first.start(["--count", "2", "--json", "--station", "line-1"])
        for number: UInt8 in 1...2 {
            let (record, _) = try await first.present(
                try ProvisionBench.tag(number), number: number, to: one, expecting: "ok")
            #expect(record["station"] as? String == "line-1")
        }
        let summary = try await first.summary(one)
        #expect(summary["station"] as? String == "line-1")
        #expect(await one.exitStatus() == 0, "\(one.standardError)")
        #expect(try first.logLines().allSatisfy { $0["station"] as? String == "line-1" })
        // A second station writes tag 2 again (its own log does not know it), then tag 3.
        let second = try ProvisionBench()
        let two = try second.start(["--count", "2", "--json", "--station", "line-2"])
        _ = try await second.present(try ProvisionBench.tag(2), number: 2, to: two, expecting: "ok")
        _ = try await second.present(try ProvisionBench.tag(3), number: 3, to: two, expecting: "ok")
        #expect(await two.exitStatus() == 0, "\(two.standardError)")

        let report = try ToolRunner.run(["report", first.logPath, second.logPath, "--json"])
        #expect(report.status == 0, "\(report.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [String: Any])
        let stations = try #require(object["stations"] as? [String: [String: Any]])
        #expect(stations["line-1"]?["ok"] as? Int == 2 && stations["line-2"]?["ok"] as? Int == 2, "\(stations)")
        #expect((object["outcomes"] as? [String: Int])?["ok"] == 4)
        let duplicates = try #require(object["duplicates"] as? [[String: Any]])
        #expect(duplicates.count == 1)
        #expect(duplicates.first?["uid"] as? String == ProvisionBench.hex(ProvisionBench.uid(2)))
        #expect(duplicates.first?["stations"] as? [String] == ["line-1", "line-2"])
        #expect(duplicates.first?["count"] as? Int == 2)
        #expect((object["failed"] as? [Any])?.isEmpty == true)
    }

    @Test(
        "--protect --password-derive-env: each tag gets its own derived PWD / PACK; the log says derived-v1, never a password"
    )
    func derivedPasswords() async throws {
        let bench = try ProvisionBench()
        let tool = try bench.start(
            ["--count", "1", "--json", "--protect", "--password-derive-env", "LINE_SECRET"],
            environment: ["LINE_SECRET": "line secret"])
        let (record, tag) = try await bench.present(try ProvisionBench.tag(1), number: 1, to: tool, expecting: "ok")
        #expect(record["password"] as? String == "derived-v1")
        #expect(record["actions"] as? [String] == ["write", "verify", "protect"])
        #expect(await tool.exitStatus() == 0, "\(tool.standardError)")
        // HMAC-SHA256("line secret", "nfctagkit-pwd-v1" ‖ 04 01 20 30 40 50 60), by Python's hmac.
        let password = try #require(ChipTables.spec(for: .ntag215).memory?.configuration?.password)
        #expect(tag.page(password.pwdPage) == [0x73, 0xEB, 0xA5, 0x9D])
        #expect(tag.page(password.packPage).prefix(2) == [0xEA, 0xA3])
        let logText = try String(contentsOfFile: bench.logPath, encoding: .utf8)
        for text in [logText, tool.output.joined(separator: "\n"), tool.standardError] {
            #expect(!text.contains("73eba59d") && !text.contains("line secret"), "\(text)")
        }
    }

    @Test("a tag the log lists as ok is skipped and left untouched; --again provisions it")
    func skipsLoggedTags() async throws {
        let bench = try ProvisionBench()
        let done =
            "{\"uid\":\"\(ProvisionBench.hex(ProvisionBench.uid(1)))\",\"chip\":\"ntag215\",\"result\":\"ok\",\"actions\":[],\"ms\":1}\n"
            + "{\"uid\":\"\(ProvisionBench.hex(ProvisionBench.uid(2)))\",\"result\":\"failed\"}\n"
            + "a line cut short by a crash {\"uid\n"
        try done.write(toFile: bench.logPath, atomically: true, encoding: .utf8)
        let fresh = try ProvisionBench.tag(1)
        let tool = try bench.start(["--count", "1", "--json"])
        let (skipped, untouched) = try await bench.present(fresh, number: 1, to: tool, expecting: "skipped")
        #expect(skipped["actions"] as? [String] == [])
        #expect(untouched.memory == fresh.memory, "a skipped tag was written")
        // A failed line does not count as done: tag 2 is provisioned.
        _ = try await bench.present(try ProvisionBench.tag(2), number: 2, to: tool, expecting: "ok")
        let summary = try await bench.summary(tool)
        #expect(summary["skipped"] as? Int == 1)
        #expect(summary["done"] as? Int == 1)
        #expect(await tool.exitStatus() == 0, "\(tool.standardError)")
        #expect(tool.standardError.contains("1 line of"), "the unreadable line is not reported: \(tool.standardError)")

        let again = try bench.start(["--count", "1", "--json", "--again"])
        _ = try await bench.present(fresh, number: 1, to: again, expecting: "ok")
        #expect(await again.exitStatus() == 0, "\(again.standardError)")
    }

    @Test("a last line cut short inside its write is ended before the next record, which is not lost")
    func tornLastLine() async throws {
        let bench = try ProvisionBench()
        let done =
            "{\"uid\":\"\(ProvisionBench.hex(ProvisionBench.uid(1)))\",\"chip\":\"ntag215\",\"result\":\"ok\",\"actions\":[],\"ms\":1}\n"
        // A power cut inside write(2): the record of tag 3 stops mid-line, with no newline.
        let torn = "{\"uid\":\"\(ProvisionBench.hex(ProvisionBench.uid(3)))\",\"chip\":\"ntag2"
        try (done + torn).write(toFile: bench.logPath, atomically: true, encoding: .utf8)
        let tool = try bench.start(["--count", "1", "--json"])
        _ = try await bench.present(try ProvisionBench.tag(2), number: 2, to: tool, expecting: "ok")
        #expect(await tool.exitStatus() == 0, "\(tool.standardError)")
        #expect(tool.standardError.contains("1 line of"), "the torn line is not counted: \(tool.standardError)")
        // Tag 2's record stands on a line of its own: a restart knows it is done.
        let lines = try String(contentsOfFile: bench.logPath, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3 && lines[1] == Substring(torn), "\(lines)")
        let report = try ToolRunner.run(["report", "--json", bench.logPath])
        #expect(
            report.stdout.contains(ProvisionBench.hex(ProvisionBench.uid(2))) || report.status == 0, "\(report.stderr)")
        let restart = try bench.start(["--count", "1", "--json"])
        _ = try await bench.present(try ProvisionBench.tag(2), number: 2, to: restart, expecting: "skipped")
        _ = try await bench.present(try ProvisionBench.tag(4), number: 4, to: restart, expecting: "ok")
        #expect(await restart.exitStatus() == 0, "\(restart.standardError)")
    }

    @Test("a read-only tag is logged as failed with the step and its state; the station goes on; exit 1")
    func failedTagThenNext() async throws {
        let bench = try ProvisionBench()
        let tool = try bench.start(["--count", "2", "--json"])
        _ = try await bench.present(try ProvisionBench.tag(1), number: 1, to: tool, expecting: "ok")
        let readOnly = try ProvisionBench.readOnlyTag(2)
        let (failed, after) = try await bench.present(readOnly, number: 2, to: tool, expecting: "failed")
        #expect(failed["step"] as? String == "write")
        #expect((failed["error"] as? String)?.contains("read-only") == true, "\(failed)")
        #expect((failed["state"] as? String)?.contains("previous message") == true, "\(failed)")
        #expect(after.memory == readOnly.memory)
        _ = try await bench.present(try ProvisionBench.tag(3), number: 3, to: tool, expecting: "ok")
        let summary = try await bench.summary(tool)
        #expect(summary["done"] as? Int == 2)
        #expect(summary["failed"] as? Int == 1)
        #expect(await tool.exitStatus() == 1)
        #expect(tool.standardError.contains("nfctag provision: 1 tag failed"), "\(tool.standardError)")
        #expect(try bench.logLines().map { $0["result"] as? String } == ["ok", "failed", "ok"])
    }

    @Test("a tag torn away mid-write is reported with what it holds; presented again it is provisioned")
    func tornTagRetried() async throws {
        // The first tag in the field leaves after a few frames: mid-write (GET_VERSION, the
        // two reads before the write, three message pages; the write of a fresh tag takes 12).
        var faults = FaultPlan()
        faults.tagLeavesAfterFrames = 6
        let bench = try ProvisionBench(faults: faults)
        let fresh = try ProvisionBench.tag(1)
        let lastSeen = Locked<Type2Tag?>(nil)
        bench.emulator.observeTagChanges { tags in
            if let tag = tags.first as? Type2Tag { lastSeen.withLock { $0 = tag } }
        }
        let tool = try bench.start(["--count", "1", "--json"])
        bench.emulator.insert(fresh)
        let torn = try await bench.waitForRecord(tool, uid: 1, result: "failed")
        #expect((torn["state"] as? String)?.isEmpty == false, "\(torn)")
        #expect(torn["step"] as? String == "write", "\(torn)")
        #expect(bench.emulator.tags.isEmpty, "the fault did not take the tag away")
        // The same tag, as the tear left it, presented again.
        let tornTag = lastSeen.withLock { $0 } ?? fresh
        let (record, tag) = try await bench.present(tornTag, number: 1, to: tool, expecting: "ok")
        #expect(record["actions"] as? [String] == ["write", "verify"])
        #expect(try ProvisionBench.userMemory(tag).hasPrefix(try ProvisionBench.expectedTLV()))
        #expect(await tool.exitStatus() == 0, "\(tool.standardError)")
    }

    @Test("two tags in the field: the station asks to remove all but one and writes nothing until then")
    func twoTagsNeverWritten() async throws {
        let first = try ProvisionBench.tag(1)
        let second = try ProvisionBench.tag(2)
        let bench = try ProvisionBench(tags: [first, second])
        let tool = try bench.start(["--count", "1", "--json"])
        let deadline = ContinuousClock.now + .seconds(15)
        while !tool.standardError.contains("remove all but one"), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(tool.standardError.contains("2 tags in the field — remove all but one"), "\(tool.standardError)")
        try await Task.sleep(for: .milliseconds(500))
        #expect(
            bench.emulator.tags.compactMap { ($0 as? Type2Tag)?.memory } == [first.memory, second.memory],
            "a tag was written")
        #expect(tool.output.isEmpty, "\(tool.output)")
        let secondHandle = try #require(bench.emulator.withField { $0.handles.last })
        bench.emulator.remove(secondHandle)
        _ = try await bench.waitForRecord(tool, uid: 1, result: "ok")
        #expect(await tool.exitStatus() == 0, "\(tool.standardError)")
    }

    @Test("usage errors exit 2 before any reader is opened")
    func usageErrors() throws {
        let missing = try ToolRunner.run(["provision", "--count", "1", "--device", "pn532_uart:nowhere"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("give the message"), "\(missing.stderr)")
        let noPassword = try ToolRunner.run([
            "provision", "--uri", "https://a.b", "--protect", "--device", "pn532_uart:nowhere",
        ])
        #expect(noPassword.status == 2)
        #expect(noPassword.stderr.contains("--password"), "\(noPassword.stderr)")
        let irreversible = try ToolRunner.run([
            "provision", "--uri", "https://a.b", "--protect", "--password", "12345678",
            "--auth-limit", "3", "--device", "pn532_uart:nowhere",
        ])
        #expect(irreversible.status == 2)
        #expect(irreversible.stderr.contains("--yes-irreversible"), "\(irreversible.stderr)")
        let help = try ToolRunner.run(["provision", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("nfctag provision --uri"))
    }
}
