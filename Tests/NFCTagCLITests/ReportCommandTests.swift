import Foundation
import Testing
import TestSupport

/// `nfctag report` on hand-written logs: every rule of cli.md's `report` row.
@Suite("nfctag report", .blockingCalls)
struct ReportCommandTests {
    func write(_ lines: [String]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "nfctag-report-\(UUID().uuidString).jsonl"
        ).path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func line(_ time: String, _ station: String?, _ uid: String, _ result: String, step: String? = nil) -> String {
        var members = ["\"time\":\"2026-12-01T\(time).000Z\""]
        if let station { members.append("\"station\":\"\(station)\"") }
        members += [
            "\"uid\":\"\(uid)\"", "\"chip\":\"ntag215\"", "\"result\":\"\(result)\"", "\"actions\":[]", "\"ms\":100",
        ]
        if let step { members += ["\"step\":\"\(step)\"", "\"error\":\"x\"", "\"state\":\"y\""] }
        return "{" + members.joined(separator: ",") + "}"
    }

    @Test("counts per station and outcome, duplicates, last-attempt failures, throughput; no station counts under \"\"")
    func merges() throws {
        let a = try write([
            line("10:00:00", "a", "01", "ok"),
            line("10:01:00", "a", "02", "failed", step: "write"),
            line("10:02:00", "a", "02", "ok"),  // failed, then done: not failed
            line("10:03:00", "a", "03", "failed", step: "verify"),
            line("10:04:00", "a", "04", "skipped"),
            "a line cut short {\"uid",
        ])
        let b = try write([
            line("10:00:30", "b", "01", "ok"),  // done at two stations
            line("10:02:30", "b", "05", "ok"),
            line("10:03:30", nil, "06", "ok"),
        ])
        defer { for path in [a, b] { try? FileManager.default.removeItem(atPath: path) } }
        let result = try ToolRunner.run(["report", a, b, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("1 line could not be read"), "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let stations = try #require(object["stations"] as? [String: [String: Any]])
        #expect(stations["a"]?["ok"] as? Int == 2)
        #expect(stations["a"]?["failed"] as? Int == 1)
        #expect(stations["a"]?["skipped"] as? Int == 1)
        #expect(stations["a"]?["per_minute"] as? Double == 0.5, "2 tags done in 4 minutes: \(stations)")
        #expect(stations["b"]?["ok"] as? Int == 2)
        #expect(stations[""]?["ok"] as? Int == 1, "a line without a station")
        #expect(object["outcomes"] as? [String: Int] == ["ok": 5, "failed": 2, "skipped": 1])
        let duplicates = try #require(object["duplicates"] as? [[String: Any]])
        #expect(duplicates.count == 1)
        #expect(duplicates.first?["uid"] as? String == "01")
        #expect(duplicates.first?["stations"] as? [String] == ["a", "b"])
        let failed = try #require(object["failed"] as? [[String: Any]])
        #expect(failed.count == 1)
        #expect(failed.first?["uid"] as? String == "03")
        #expect(failed.first?["station"] as? String == "a")
        #expect(failed.first?["step"] as? String == "verify")

        let text = try ToolRunner.run(["report", a, b])
        #expect(text.status == 0)
        #expect(text.stdout.contains("a: ok 2 · failed 1 · skipped 1 · 0.5/min"), "\(text.stdout)")
        #expect(text.stdout.contains("01 2× at a, b"), "\(text.stdout)")
        #expect(text.stdout.contains("03 at a: verify"), "\(text.stdout)")
    }

    @Test("no log given, an unreadable file or an unknown option exit 2")
    func usage() throws {
        #expect(try ToolRunner.run(["report"]).status == 2)
        #expect(try ToolRunner.run(["report", "/nonexistent/log.jsonl"]).status == 2)
        #expect(try ToolRunner.run(["report", "--bogus"]).status == 2)
    }
}
