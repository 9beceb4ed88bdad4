import Foundation
import NFCTagKit

/// A packing line on the library's ``ProvisioningStation``: every tag presented gets the
/// URL, is verified (and locked with `--lock`), one JSON line goes to the log, and the
/// next tag is asked for. Tags an earlier run's log lists as done are skipped.
///
/// Usage: `PackingLine CONNSTRING --url URL [--count N] [--lock] [--log FILE]`.
/// `--lock` CANNOT BE UNDONE.
@main
struct PackingLine {
    static func main() async throws {
        var arguments = CommandLine.arguments.dropFirst()
        var (connectionString, url, count, lock, logPath) = ("", "https://example.com", 1, false, "packing.jsonl")
        while let argument = arguments.popFirst() {
            switch argument {
            case "--url": url = arguments.popFirst() ?? url
            case "--count": count = arguments.popFirst().flatMap { Int($0) } ?? count
            case "--lock": lock = true
            case "--log": logPath = arguments.popFirst() ?? logPath
            default: connectionString = argument
            }
        }
        // What an earlier run finished is skipped.
        let earlier = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        let done = earlier.split(separator: "\n").compactMap {
            try? JSONDecoder().decode(ProvisioningRecord.self, from: Data($0.utf8))
        }.filter { $0.result == .ok }.map(\.uid)
        if !FileManager.default.fileExists(atPath: logPath) {
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        }
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
        try log.seekToEnd()

        var plan = ProvisioningPlan(message: NDEFMessage(.uri(url)))
        plan.lock = lock
        var failed = 0
        try await NFCDevice.withReader(connectionString.isEmpty ? nil : connectionString) { device in
            let station = ProvisioningStation(device: device, plan: plan, alreadyProvisioned: Set(done))
            let ending = try await station.run(count: count) { event in
                switch event {
                case .waitingForTag: print("Present a tag")
                case .severalTags(let n): print("\(n) tags in the field: remove all but one")
                case .removeTag: print("Remove the tag, present the next one")
                case .handled(let record):
                    // In the log (and on disk) before the next tag is touched.
                    try log.write(contentsOf: try JSONEncoder().encode(record) + Data("\n".utf8))
                    try log.synchronize()
                    if record.result == .failed { failed += 1 }
                    let detail = record.failure.map { "\($0.step) failed: \($0.message); \($0.state)" }
                    print(
                        record.result, record.uid.hexString(),
                        detail ?? record.actions.map(\.rawValue).joined(separator: ", "))
                default: break
                }
            }
            print("\(ending): \(await station.provisionedCount) provisioned, \(failed) failed")
        }
        exit(failed == 0 ? 0 : 1)
    }
}
