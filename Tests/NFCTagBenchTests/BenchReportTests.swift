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
        for key in [
            "name", "frames", "bytes_to_reader", "bytes_from_reader", "modeled_ms", "floor_ms", "ratio",
            "cpu_us_per_exchange",
        ] {
            #expect(first[key] != nil, "missing \(key)")
        }
        #expect(first["name"] as? String == "identify")
        #expect(first["frames"] as? Int == 6)
        #expect(first["cpu_us_per_exchange"] as? Double == 150)
        #expect(abs((first["ratio"] as? Double ?? 0) - 11 / floor.milliseconds) < 0.001)
        // A write carries its tear-safe floor and the ratio to it.
        var write = BenchResult(
            name: "write_ndef_100_small_change", sample: sample, floor: floor, safeFloor: floor + floor,
            target: .safeFloorRatio(1.2))
        write.floorsByLink = [(.uart(baud: 921_600), floor, floor + floor, nil)]
        let writeData = Data(BenchReport(results: [write]).json.utf8)
        let writeObject = try #require(try JSONSerialization.jsonObject(with: writeData) as? [String: Any])
        let entry = try #require((writeObject["operations"] as? [[String: Any]])?.first)
        #expect(abs((entry["safe_floor_ms"] as? Double ?? 0) - 2 * floor.milliseconds) < 0.001)
        #expect(entry["target_safe_ratio"] as? Double == 1.2)
        #expect(entry["meets_target"] as? Bool == (11 / (2 * floor.milliseconds) <= 1.2))
        let byLink = try #require((entry["floors_by_link"] as? [[String: Any]])?.first)
        #expect(byLink["link"] as? String == "UART 921600")
    }

    @Test("the command line: --json, --soak with --tags and --seed; unknown arguments refused")
    func options() throws {
        #expect(try BenchOptions(arguments: ["--json"]).json)
        let soak = try BenchOptions(arguments: ["--soak", "--tags", "40", "--seed", "7"])
        #expect(soak.soak && soak.tags == 40 && soak.seed == 7)
        #expect(throws: BenchOptions.UsageError.self) { try BenchOptions(arguments: ["--tags", "0"]) }
        #expect(throws: BenchOptions.UsageError.self) { try BenchOptions(arguments: ["--fast"]) }
        #expect(try BenchOptions(arguments: ["--baud", "460800"]).baud == 460_800)
        #expect(throws: BenchOptions.UsageError.self) { try BenchOptions(arguments: ["--baud", "921600"]) }
    }
}
