import Foundation
import Testing
@testable import nfctag_bench

/// The shape of `nfctag-bench --json`.
@Suite("Benchmark JSON")
struct BenchReportTests {
    @Test("one object whose operations carry the eight fields the issue names")
    func shape() throws {
        var sample = BenchSample()
        sample.commands = 2
        sample.frames = 6
        sample.bytesToReader = 23
        sample.bytesFromReader = 70
        sample.modelledTime = .milliseconds(11)
        sample.hostCPU = .microseconds(300)
        let floor = PhysicalFloor().command(dataOut: 0, dataIn: 4)
        let result = BenchResult(name: "identify", sample: sample, floor: floor, target: .floorRatio(1.1))
        let data = Data(BenchReport(results: [result]).json.utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let operations = try #require(object["operations"] as? [[String: Any]])
        let first = try #require(operations.first)
        for key in ["name", "frames", "bytes_to_reader", "bytes_from_reader", "modeled_ms", "floor_ms", "ratio",
                    "cpu_us_per_exchange"] {
            #expect(first[key] != nil, "missing \(key)")
        }
        #expect(first["name"] as? String == "identify")
        #expect(first["frames"] as? Int == 6)
        #expect(first["cpu_us_per_exchange"] as? Double == 150)
        #expect(abs((first["ratio"] as? Double ?? 0) - 11 / floor.milliseconds) < 0.001)
    }

    @Test("the command line: --json, --soak with --tags and --seed; unknown arguments refused")
    func options() throws {
        #expect(try BenchOptions(arguments: ["--json"]).json)
        let soak = try BenchOptions(arguments: ["--soak", "--tags", "40", "--seed", "7"])
        #expect(soak.soak && soak.tags == 40 && soak.seed == 7)
        #expect(throws: BenchOptions.UsageError.self) { try BenchOptions(arguments: ["--tags", "0"]) }
        #expect(throws: BenchOptions.UsageError.self) { try BenchOptions(arguments: ["--fast"]) }
    }
}
