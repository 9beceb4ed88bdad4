import Foundation
import NFCEmulator
import Testing
import TestSupport

/// A provisioning station killed with SIGKILL at seeded random points — mid-write, while
/// verifying, while logging, while waiting for the tag to go — and restarted each time with
/// the same log, over 200 tags. SIGKILL leaves no time for anything: the UART PN532 stays
/// at the fast speed, the log line in hand may never be written. The station's promises
/// must hold anyway.
@Suite("nfctag provision killed with SIGKILL and restarted, 200 tags", .timeLimit(.minutes(6)))
struct StationKillTests {
    static let seed: UInt64 = 0x5EED_0024
    static let tags = 200

    /// The log as it is on disk now.
    func logText(_ bench: ProvisionBench) -> String {
        (try? String(contentsOfFile: bench.logPath, encoding: .utf8)) ?? ""
    }

    /// The log's records of `uid` (hex) with `result`.
    func records(_ text: String, uid: String, result: String) -> Int {
        text.split(separator: "\n").filter {
            $0.contains("\"uid\":\"\(uid)\"") && $0.contains("\"result\":\"\(result)\"")
        }.count
    }

    @Test(
        "every tag the log calls done holds the message and is logged once; no tag is written again; no record on disk is lost"
    )
    func killedAndRestarted() async throws {
        var random = SplitMix64(seed: Self.seed)
        let bench = try ProvisionBench(kind: .pn532)
        let emulator = bench.emulator
        let expected = try ProvisionBench.expectedTLV()
        // The station looks at the field every 20 ms instead of a person's 150 ms.
        let pace = ["NFCTAG_TEST_STATION_POLL_MS": "20"]
        var station = try bench.start([], environment: pace)
        var kills = 0
        var snapshots: [String] = []
        var written: [String: String] = [:]  // uid → user memory when the log first called it done
        for number in 0..<Self.tags {
            let uid = ProvisionBench.hex(ProvisionBench.uid(UInt8(number)))
            let handle = emulator.insert(try ProvisionBench.tag(UInt8(number)))
            let context = Comment(rawValue: "seed \(Self.seed), tag \(number) (\(uid)), kill \(kills)")
            // The records of this tag the station must add before the tag is taken away.
            var awaited = (result: "ok", count: 1)
            if random.chance(1, in: 4) {
                // A point within this tag's provisioning or the wait for its removal.
                let threshold = emulator.statistics.commands + Int.random(in: 1...140, using: &random)
                let status = await station.send(SIGKILL, once: { emulator.statistics.commands >= threshold })
                #expect(status == SIGKILL, context)
                kills += 1
                let onDisk = logText(bench)
                snapshots.append(onDisk)
                // The restarted station finds the tag still in the field: done before the
                // kill, it is skipped; otherwise it is provisioned now.
                awaited =
                    records(onDisk, uid: uid, result: "ok") == 1
                    ? ("skipped", records(onDisk, uid: uid, result: "skipped") + 1) : ("ok", 1)
                station = try bench.start([], environment: pace)
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while records(logText(bench), uid: uid, result: awaited.result) < awaited.count,
                ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(5))
            }
            let text = logText(bench)
            #expect(records(text, uid: uid, result: awaited.result) == awaited.count, context)
            #expect(records(text, uid: uid, result: "ok") == 1, context)
            let tag = try #require(emulator.remove(handle) as? Type2Tag, context)
            let memory = try ProvisionBench.userMemory(tag)
            #expect(memory.hasPrefix(expected), context)
            written[uid] = memory
        }
        // Stopped once it waits for the next tag (a station restarted a moment ago may not
        // have set its signal handling up yet).
        let waiting = ContinuousClock.now + .seconds(20)
        while !station.standardError.contains("Present a tag"), ContinuousClock.now < waiting {
            try await Task.sleep(for: .milliseconds(5))
        }
        let stopped = await station.interrupt(timeout: .seconds(20))
        #expect(stopped == 130, "\(String(describing: stopped)): \(station.standardError.suffix(2000))")

        let final = logText(bench)
        // Every record that was on disk at a kill is still there, in place.
        for (index, snapshot) in snapshots.enumerated() {
            #expect(final.hasPrefix(snapshot), "the log lost what was on disk at kill \(index)")
        }
        // Each tag is logged done once: a tag whose record was on disk is skipped, not written again.
        for uid in written.keys {
            #expect(records(final, uid: uid, result: "ok") == 1, "\(uid) logged done more than once")
        }
        #expect(kills >= Self.tags / 6, "seed \(Self.seed) killed only \(kills) times")
        #expect(!final.isEmpty && final.hasSuffix("\n"))
    }
}
