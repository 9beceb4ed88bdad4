import Testing
@testable import nfctag_bench

/// A reduced soak run through real libnfc: 30 tags with tears, unplugs and wrong passwords.
@Suite("Soak run", .serialized, .timeLimit(.minutes(5)))
struct SoakRunTests {
    @Test("30 tags end old, new, empty or locked out — none corrupt, none contradicting the station",
          arguments: [UInt64(8), 21])
    func reducedSoak(seed: UInt64) async throws {
        let report = try await SoakRun(tags: 30, seed: seed).run()
        #expect(report.tags == 30)
        #expect(report.isClean, "seed \(seed):\n\(report.text)")
        // The plan really produced faults and lock-outs to survive.
        #expect((report.faultsFired["tear"] ?? 0) + (report.faultsFired["unplug"] ?? 0) > 0, "seed \(seed)")
        // Resident memory is measured after the first tag and at the end.
        let first = try #require(report.memoryAfterFirstTag)
        let end = try #require(report.memoryAtEnd)
        #expect(first.residentKiB > 0 && end.peakKiB >= end.residentKiB)
        #expect(report.json.contains("\"rss_kib_growth_per_tag\""))
    }

    @Test("resident memory is read from the VmRSS and VmHWM lines of /proc/self/status")
    func processMemory() {
        let status = "Name:\tnfctag-bench\nVmPeak:\t  300000 kB\nVmHWM:\t   45678 kB\nVmRSS:\t   40000 kB\nThreads:\t4\n"
        #expect(ProcessMemory(status: status) == ProcessMemory(residentKiB: 40000, peakKiB: 45678))
        #expect(ProcessMemory(status: "VmHWM:\t123456789 kB\nVmRSS:\t99 kB\n") == ProcessMemory(residentKiB: 99, peakKiB: 123_456_789))
        #expect(ProcessMemory(status: "Name:\tx\n") == ProcessMemory(residentKiB: 0, peakKiB: 0))
        #expect(ProcessMemory.now().residentKiB > 0)
    }
}
