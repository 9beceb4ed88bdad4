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
    }
}
