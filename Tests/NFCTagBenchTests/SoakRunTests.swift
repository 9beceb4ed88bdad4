import Testing
@testable import nfctag_bench

/// A reduced soak run through real libnfc: 30 tags with tears, unplugs and wrong passwords.
@Suite("Soak run", .serialized, .timeLimit(.minutes(5)))
struct SoakRunTests {
    @Test(
        "30 tags end old, new, empty or locked out — none corrupt, none contradicting the station",
        arguments: [UInt64(8), 21])
    func reducedSoak(seed: UInt64) async throws {
        let report = try await SoakRun(tags: 30, seed: seed).run()
        #expect(report.tags == 30)
        #expect(report.isClean, "seed \(seed):\n\(report.text)")
        // The plan really produced faults and lock-outs to survive.
        #expect((report.faultsFired["tear"] ?? 0) + (report.faultsFired["unplug"] ?? 0) > 0, "seed \(seed)")
        // Resident memory is measured after the first tag (30 tags < the usual baseline of 100) and at the end.
        let baseline = try #require(report.memoryBaseline)
        let end = try #require(report.memoryAtEnd)
        #expect(baseline.tag == 1)
        #expect(baseline.memory.residentKiB > 0 && end.peakKiB >= end.residentKiB)
        #expect(report.json.contains("\"rss_kib_growth_per_tag\""))
        // Every unplug is accounted for: noticed (a reconnection of its own), or one that a
        // reconnection already under way or about to start covered; none given up; the
        // station's calls were timed.
        let unplugs = report.timings.unplugs
        #expect(unplugs.unplugs == report.faultsFired["unplug"] ?? 0, "seed \(seed):\n\(report.text)")
        #expect(unplugs.addsUp, "seed \(seed):\n\(report.text)")
        // A reconnection no unplug explains is allowed for one reason only: the reader answered
        // later than libnfc waits (an emulator starved of time under a sanitizer), and the
        // device brought it back.
        #expect(
            unplugs.otherReasons.count == unplugs.otherReconnections
                && unplugs.otherReasons.allSatisfy { $0 == "not-responding" }, "seed \(seed):\n\(report.text)")
        #expect(report.timings.reconnections == unplugs.reconnectionsStarted, "seed \(seed):\n\(report.text)")
        if unplugs.unplugs > 0 { #expect(unplugs.noticed > 0, "seed \(seed):\n\(report.text)") }
        #expect(report.text.contains(unplugs.text))
        #expect(report.json.contains("\"while_reconnecting\""))
        #expect(report.timings.reconnectionsGivenUp == 0)
        let longest = try #require(report.timings.longestOperation)
        #expect(longest.duration > .zero && (1...30).contains(longest.tag))
        #expect(report.text.contains("longest operation: \(longest.what)"))
        #expect(report.json.contains("\"longest_operation_ms\""))
    }

    @Test(
        "the longest reconnection and operation are kept with their tag; a reconnection given up makes the run unclean")
    func timings() {
        let timings = SoakTimings()
        let start = ContinuousClock.now
        timings.startTag(3)
        timings.reconnectionStarted(at: start)
        timings.reconnectionEnded(succeeded: true, at: start + .milliseconds(250))
        timings.startTag(4)
        timings.reconnectionStarted(at: start + .seconds(1))
        timings.reconnectionEnded(succeeded: true, at: start + .seconds(1) + .milliseconds(90))
        timings.record(operation: "writeNDEF", took: .milliseconds(480))
        timings.record(operation: "connect", took: .milliseconds(30))
        var summary = timings.summary
        #expect(summary.reconnections == 2 && summary.reconnectionsGivenUp == 0)
        #expect(
            summary.longestReconnection
                == SoakTimings.Longest(duration: .milliseconds(250), what: "reconnection", tag: 3))
        #expect(
            summary.longestOperation == SoakTimings.Longest(duration: .milliseconds(480), what: "writeNDEF", tag: 4))

        var report = SoakReport(seed: 1)
        report.record(state: .newMessage, consistent: true, fault: .none, outcome: .written)
        report.timings = summary
        #expect(report.isClean)
        #expect(report.text.contains("automatic reconnections: 2, given up 0, longest 250.0 ms (tag 3)"))
        #expect(report.text.contains("longest operation: writeNDEF 480.0 ms (tag 4)"))
        timings.reconnectionStarted(at: start + .seconds(2))
        timings.reconnectionEnded(succeeded: false, at: start + .seconds(22))
        summary = timings.summary
        #expect(summary.reconnectionsGivenUp == 1)
        report.timings = summary
        #expect(!report.isClean)
    }

    @Test(
        "every unplug is sorted against the reconnections: noticed, while reconnecting, before the previous was noticed, not noticed"
    )
    func unplugAccount() {
        let t = ContinuousClock.now
        func ms(_ value: Int) -> ContinuousClock.Instant { t + .milliseconds(value) }
        // One each: both noticed.
        var account = SoakUnplugAccount(
            unplugs: [ms(0), ms(1000)],
            reconnections: [(ms(2), ms(150)), (ms(1003), ms(1100))])
        #expect(account == SoakUnplugAccount(unplugs: 2, noticed: 2, reconnectionsStarted: 2))
        // The soak's seed-8 case under load: the second unplug (a no-op, the reader already
        // out) came 4 ms into the reconnection the first one started; one reconnection for both.
        account = SoakUnplugAccount(unplugs: [ms(0), ms(10)], reconnections: [(ms(6), ms(142))])
        #expect(account == SoakUnplugAccount(unplugs: 2, noticed: 1, whileReconnecting: 1, reconnectionsStarted: 1))
        // Two unplugs before the device sent a command: it noticed once.
        account = SoakUnplugAccount(unplugs: [ms(0), ms(40)], reconnections: [(ms(80), ms(200))])
        #expect(account == SoakUnplugAccount(unplugs: 2, noticed: 1, beforeNoticed: 1, reconnectionsStarted: 1))
        // The last unplug of a run, never noticed; a reconnection with no unplug before it; a
        // reconnection still running at the end covers what comes after its start.
        account = SoakUnplugAccount(unplugs: [ms(500), ms(900)], reconnections: [(ms(100), ms(300))])
        #expect(account == SoakUnplugAccount(unplugs: 2, notNoticed: 2, reconnectionsStarted: 1, otherReconnections: 1))
        // Its reason is kept and reported.
        account = SoakUnplugAccount(
            unplugs: [ms(500)], reconnections: [(ms(600), ms(700)), (ms(100), ms(300))],
            reasons: ["unplugged", "not-responding"])
        #expect(account.otherReasons == ["not-responding"])
        #expect(account.text.hasSuffix("reconnections without an unplug: 1 (not-responding)"), "\(account.text)")
        account = SoakUnplugAccount(unplugs: [ms(0), ms(50)], reconnections: [(ms(5), nil)])
        #expect(account == SoakUnplugAccount(unplugs: 2, noticed: 1, whileReconnecting: 1, reconnectionsStarted: 1))
        for account in [account, SoakUnplugAccount()] { #expect(account.addsUp) }
        #expect(
            account.text.hasPrefix("reader unplugs: 2 — 1 noticed (a reconnection each), 1 while already reconnecting"))

        // Through SoakTimings, as the run records them.
        let timings = SoakTimings()
        timings.readerUnplugged(at: ms(0))
        timings.reconnectionStarted(at: ms(6))
        timings.readerUnplugged(at: ms(10))
        timings.reconnectionEnded(succeeded: true, at: ms(142))
        #expect(
            timings.summary.unplugs
                == SoakUnplugAccount(unplugs: 2, noticed: 1, whileReconnecting: 1, reconnectionsStarted: 1))
        #expect(timings.summary.reconnections == 1)
    }

    @Test("growth per tag counts from the baseline tag on")
    func growthAfterBaseline() {
        var report = SoakReport(seed: 1)
        for _ in 0..<300 { report.record(state: .newMessage, consistent: true, fault: .none, outcome: .written) }
        report.memoryBaseline = (tag: 100, memory: ProcessMemory(residentKiB: 30_000, peakKiB: 30_000))
        report.memoryAtEnd = ProcessMemory(residentKiB: 30_020, peakKiB: 30_100)
        #expect(report.residentGrowthPerTagKiB == 0.1)
        #expect(report.text.contains("30000 KiB after tag 100, 30020 KiB at the end (0.10 KiB per tag after it)"))
    }

    @Test("resident memory is read from the VmRSS and VmHWM lines of /proc/self/status")
    func processMemory() {
        let status =
            "Name:\tnfctag-bench\nVmPeak:\t  300000 kB\nVmHWM:\t   45678 kB\nVmRSS:\t   40000 kB\nThreads:\t4\n"
        #expect(ProcessMemory(status: status) == ProcessMemory(residentKiB: 40000, peakKiB: 45678))
        #expect(
            ProcessMemory(status: "VmHWM:\t123456789 kB\nVmRSS:\t99 kB\n")
                == ProcessMemory(residentKiB: 99, peakKiB: 123_456_789))
        #expect(ProcessMemory(status: "Name:\tx\n") == ProcessMemory(residentKiB: 0, peakKiB: 0))
        #expect(ProcessMemory.now().residentKiB > 0)
    }
}
