import Foundation
import NFCChips
import NFCEmulator
import Locking
import Testing
import TestSupport

/// The station's resilience and its endings: a reader unplugged mid-tag, Ctrl-C, and the
/// password and lock steps (with a retry on a tag the station already protected).
@Suite(
    "nfctag provision: reader loss, Ctrl-C, protect and lock", .tags(.reader), .serialized, .timeLimit(.minutes(3)),
    .blockingCalls)
struct ProvisionStationTests {
    static let memory = ChipTables.spec(for: .ntag215).memory!

    func auth0(_ tag: Type2Tag) throws -> Int {
        let field = try #require(Self.memory.configuration?.field(.auth0))
        return Int(try #require(field.value(in: tag.page(field.page))))
    }

    @Test(
        "the reader unplugged mid-write: the tag is reported with its state, retried once the reader is back, and done")
    func unplugMidTag() async throws {
        let bench = try ProvisionBench()
        let unplugged = Locked(false)
        let emulator = bench.emulator
        emulator.observeTagChanges { _ in
            let first = unplugged.withLock { done in
                defer { done = true }
                return !done
            }
            guard first else { return }
            Thread.detachNewThread { emulator.unplug() }
            // Hold the emulator's thread until the unplug has woken it, so the next frame is never answered.
            Thread.sleep(forTimeInterval: 0.3)
        }
        let tool = try bench.start(["--count", "1", "--json"])
        let handle = emulator.insert(try ProvisionBench.tag(1))
        let lost = try await bench.waitForRecord(tool, uid: 1, result: "failed")
        #expect(lost["reader_lost"] as? Bool == true, "\(lost)")
        #expect((lost["state"] as? String)?.isEmpty == false)
        #expect(await tool.waitForError(containing: "reconnecting", timeout: .seconds(20)), "\(tool.standardError)")
        try emulator.plug()
        // Not taken away: tried again as soon as the reader is back.
        let done = try await bench.waitForRecord(tool, uid: 1, result: "ok", timeout: .seconds(40))
        #expect(done["actions"] as? [String] == ["write", "verify"])
        let summary = try await bench.summary(tool)
        #expect(summary["failed"] as? Int == 0, "a tag done on its retry still counts as failed")
        #expect(await tool.exitStatus() == 0, "\(tool.standardError)")
        #expect(tool.standardError.contains("reconnecting"), "\(tool.standardError)")
        let tag = try #require(emulator.remove(handle) as? Type2Tag)
        #expect(try ProvisionBench.userMemory(tag).hasPrefix(try ProvisionBench.expectedTLV()))
        #expect(try bench.logLines().map { $0["result"] as? String } == ["failed", "ok"])
    }

    @Test("the reader unplugged between tags and plugged back: the station carries on")
    func unplugBetweenTags() async throws {
        let bench = try ProvisionBench()
        let tool = try bench.start(["--count", "2"])
        let first = bench.emulator.insert(try ProvisionBench.tag(1))
        let line = await tool.waitForLine(timeout: .seconds(20)) { $0.hasPrefix("ok") }
        #expect(
            line?.contains(ProvisionBench.hex(ProvisionBench.uid(1))) == true, "\(tool.output) \(tool.standardError)")
        bench.emulator.remove(first)
        bench.emulator.unplug()
        #expect(await tool.waitForError(containing: "reconnecting", timeout: .seconds(20)), "\(tool.standardError)")
        try bench.emulator.plug()
        bench.emulator.insert(try ProvisionBench.tag(2))
        let second = await tool.waitForLine(timeout: .seconds(40)) {
            $0.contains(ProvisionBench.hex(ProvisionBench.uid(2)))
        }
        #expect(second?.hasPrefix("ok") == true, "\(tool.output) \(tool.standardError)")
        #expect(await tool.exitStatus() == 0, "\(tool.standardError)")
        #expect(tool.output.last?.hasPrefix("Provisioned 2 tags") == true, "\(tool.output)")
    }

    @Test("Ctrl-C prints the summary (and a failure), then exits 130 whatever the tags did")
    func interruptSummary() async throws {
        let bench = try ProvisionBench()
        let clean = try bench.start(["--json"])
        _ = try await bench.present(try ProvisionBench.tag(1), number: 1, to: clean, expecting: "ok")
        #expect(await clean.interrupt() == 130, "\(clean.standardError)")
        let summary = try await bench.summary(clean)
        #expect(summary["interrupted"] as? Bool == true)
        #expect(summary["done"] as? Int == 1)

        let failing = try bench.start([])
        bench.emulator.insert(try ProvisionBench.readOnlyTag(2))
        let line = await failing.waitForLine(timeout: .seconds(20)) { $0.hasPrefix("failed") }
        #expect(line?.contains("write failed") == true, "\(failing.output) \(failing.standardError)")
        #expect(await failing.interrupt() == 130)
        #expect(failing.output.contains { $0.hasPrefix("Stopped. Provisioned 0 tags") }, "\(failing.output)")
        #expect(failing.standardError.contains("nfctag provision: 1 tag failed"), "\(failing.standardError)")
    }

    @Test(
        "--protect then --lock: password set (AUTH0, PACK proven), NDEF locked; a tag already protected by the station is finished on a retry"
    )
    func protectAndLock() async throws {
        let bench = try ProvisionBench()
        let protect = ["--protect", "--password", "12345678", "--pack", "abcd", "--count", "1", "--json"]
        let first = try bench.start(protect)
        let (record, protected) = try await bench.present(
            try ProvisionBench.tag(1), number: 1, to: first, expecting: "ok")
        #expect(record["actions"] as? [String] == ["write", "verify", "protect"])
        #expect(await first.exitStatus() == 0, "\(first.standardError)")
        #expect(try auth0(protected) == Self.memory.firstUserPage)

        // The tag now refuses writes without the password: the station authenticates and locks it.
        let again = try bench.start(protect + ["--lock", "--again"])
        let (locked, tag) = try await bench.present(protected, number: 1, to: again, expecting: "ok")
        #expect(locked["actions"] as? [String] == ["write", "verify", "protect", "lock"], "\(locked)")
        #expect(await again.exitStatus() == 0, "\(again.standardError)")
        #expect(
            tag.page(Self.memory.capabilityContainer.page)[3] == 0x0F, "the capability container does not say read-only"
        )
        #expect(try ProvisionBench.userMemory(tag).hasPrefix(try ProvisionBench.expectedTLV()))
    }

    @Test("tags that already have a password: without it the write fails (nothing written); --password opens them")
    func passwordWithoutProtect() async throws {
        let bench = try ProvisionBench()
        let handle = bench.emulator.insert(try ProvisionBench.tag(1))
        let protect = try ToolRunner.run(
            [
                "protect", "--password", "12345678", "--pack", "abcd",
                "--device", bench.emulator.connectionString, "--timeout", "3",
            ],
            environment: ["LIBNFC_AUTO_SCAN": "false"])
        #expect(protect.status == 0, "\(protect.stderr)")
        let protected = try #require(bench.emulator.remove(handle) as? Type2Tag)

        let refused = try bench.start(["--count", "1", "--json"], log: false)
        let (failed, untouched) = try await bench.present(protected, number: 1, to: refused, expecting: "failed")
        #expect(failed["step"] as? String == "write", "\(failed)")
        #expect(untouched.memory == protected.memory)
        #expect(await refused.interrupt() == 130)

        let opened = try bench.start(
            ["--count", "1", "--json", "--password", "12345678", "--pack", "abcd"], log: false)
        let (done, tag) = try await bench.present(untouched, number: 1, to: opened, expecting: "ok")
        #expect(done["actions"] as? [String] == ["write", "verify"])
        #expect(await opened.exitStatus() == 0, "\(opened.standardError)")
        #expect(try ProvisionBench.userMemory(tag).hasPrefix(try ProvisionBench.expectedTLV()))
    }
}
