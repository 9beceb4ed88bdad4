import Foundation
import Locking
import NFCChips
import NFCEmulator
import Testing
import TestSupport

/// A provisioning station killed with SIGKILL at seeded random points — mid-write, while
/// verifying, while logging, while waiting for the tag to go — and restarted each time with
/// the same log, with tags torn away mid-write and the reader unplugged mixed in. SIGKILL
/// leaves no time for anything: the UART PN532 stays at the fast speed, the log line in hand
/// may never be written. The station's promises must hold anyway.
///
/// 120 tags in `make test`; `NFCTAG_STATION_SOAK_TAGS=5000` (and `…_SEED`) for the soak
/// that BENCHMARKS.md reports.
@Suite(
    "nfctag provision killed with SIGKILL and restarted, with tears and unplugs", .timeLimit(.minutes(60)),
    .blockingCalls)
struct StationKillTests {
    static let environment = ProcessInfo.processInfo.environment
    static let seed = environment["NFCTAG_STATION_SOAK_SEED"].flatMap(UInt64.init) ?? 0x5EED_0024
    static let tags = environment["NFCTAG_STATION_SOAK_TAGS"].flatMap(Int.init) ?? 120

    enum Fault: String {
        case kill, tear, unplug
    }

    /// The log as it is on disk now, from byte `offset` on (a tag's records all come after
    /// the log's length when it was presented: reading only those keeps the soak linear).
    func logBytes(_ bench: ProvisionBench, from offset: Int = 0) -> [UInt8] {
        guard let file = FileHandle(forReadingAtPath: bench.logPath) else { return [] }
        defer { try? file.close() }
        guard (try? file.seek(toOffset: UInt64(offset))) != nil else { return [] }
        return [UInt8]((try? file.readToEnd()) ?? Data())
    }

    func logText(_ bench: ProvisionBench, from offset: Int = 0) -> String {
        String(decoding: logBytes(bench, from: offset), as: UTF8.self)
    }

    /// Whether `prefix` is the start of `bytes`, byte for byte.
    func starts(_ bytes: [UInt8], with prefix: [UInt8]) -> Bool {
        guard prefix.count <= bytes.count else { return false }
        guard !prefix.isEmpty else { return true }
        return prefix.withUnsafeBytes { a in
            bytes.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
    }

    /// The log's records of `uid` (hex) with `result`.
    func records(_ text: String, uid: String, result: String) -> Int {
        text.split(separator: "\n").filter {
            $0.contains("\"uid\":\"\(uid)\"") && $0.contains("\"result\":\"\(result)\"")
        }.count
    }

    /// The frames the reader received since the soak began. The emulator's own count
    /// starts again at every plug-in (a chip at power-on); an unplug adds what it had.
    final class FrameCount: Sendable {
        let emulator: EmulatedReader
        private let before = Locked(0)

        init(_ emulator: EmulatedReader) { self.emulator = emulator }

        var value: Int { before.withLock { $0 + emulator.statistics.commands } }

        /// Pulls the cable for `microseconds`, then plugs it in again.
        func unplug(for microseconds: UInt32) throws {
            before.withLock { $0 += emulator.statistics.commands }
            emulator.unplug()
            usleep(microseconds)
            try emulator.plug()
        }
    }

    static func uid(_ number: Int) -> [UInt8] {
        [0x04, UInt8(number >> 8), UInt8(number & 0xFF), 0x30, 0x40, 0x50, 0x60]
    }

    /// A fault that waits on a thread of its own for its frame; ``cancel()`` (when its tag is
    /// done) stops it from firing later, during the next tag, and waits for it when it is
    /// firing now.
    final class PendingFault: Sendable {
        private let cancelled = Locked(false)

        init(_ frames: FrameCount, reaches threshold: Int, _ action: @escaping @Sendable () -> Void) {
            let cancelled = cancelled
            Thread.detachNewThread {
                while frames.value < threshold, !cancelled.withLock({ $0 }) { usleep(200) }
                cancelled.withLock { if !$0 { action() } }
            }
        }

        func cancel() { cancelled.withLock { $0 = true } }
    }

    @Test(
        "every tag the log calls done holds the message and is logged done once; no tag is written again; no record on disk is lost"
    )
    func killedAndRestarted() async throws {
        var random = SplitMix64(seed: Self.seed)
        let bench = try ProvisionBench(kind: .pn532)
        let emulator = bench.emulator
        let frames = FrameCount(emulator)
        let expected = try ProvisionBench.expectedTLV()
        // The station looks at the field every 20 ms instead of a person's 150 ms; a restarted
        // one on a loaded machine may need more than a few seconds to find its reader.
        let pace = ["NFCTAG_TEST_STATION_POLL_MS": "20"]
        var station = try bench.start([], environment: pace, timeout: 30)
        var faults: [Fault: Int] = [:]
        // The log on disk at the last kill: each kill's must start with the one before, and
        // the final log with the last, so no record that reached the disk is ever lost.
        var lastSnapshot: [UInt8] = []
        var kills = 0
        var done = Set<String>()
        let started = ContinuousClock.now
        for number in 0..<Self.tags {
            let uid = Self.uid(number).hexString()
            let tagStart = logBytes(bench).count
            let handle = Locked(emulator.insert(try Type2Tag(chip: .ntag215, uid: Self.uid(number))))
            let context = Comment(rawValue: "seed \(Self.seed), tag \(number) (\(uid)), \(faults)")
            // The records of this tag the station must add before the tag is taken away.
            var awaited = (result: "ok", count: 1)
            // A point within this tag's provisioning or the wait for its removal.
            let threshold = frames.value + Int.random(in: 1...140, using: &random)
            let roll = Int.random(in: 0..<20, using: &random)
            let fault: Fault? = roll < 5 ? .kill : roll < 7 ? .tear : roll < 9 ? .unplug : nil
            if let fault { faults[fault, default: 0] += 1 }
            var pending: PendingFault?
            switch fault {
            case .kill:
                let status = await station.send(SIGKILL, once: { frames.value >= threshold })
                #expect(status == SIGKILL, context)
                let onDisk = logBytes(bench)
                #expect(
                    starts(onDisk, with: lastSnapshot), "the log lost what was on disk at kill \(kills); \(context)")
                lastSnapshot = onDisk
                kills += 1
                let mine = String(decoding: onDisk[min(tagStart, onDisk.count)...], as: UTF8.self)
                // The restarted station finds the tag still in the field: done before the
                // kill, it is skipped; otherwise it is provisioned now.
                awaited =
                    records(mine, uid: uid, result: "ok") == 1
                    ? ("skipped", records(mine, uid: uid, result: "skipped") + 1) : ("ok", 1)
                station = try bench.start([], environment: pace, timeout: 30)
            case .tear:
                // Taken away for a moment (mid-write, the write is torn) and presented again.
                pending = PendingFault(frames, reaches: threshold) {
                    handle.withLock { current in
                        guard let tag = emulator.remove(current) else { return }
                        usleep(60_000)
                        current = emulator.insert(tag)
                    }
                }
            case .unplug:
                pending = PendingFault(frames, reaches: threshold) {
                    do {
                        try frames.unplug(for: 30_000)
                    } catch {
                        Issue.record("the emulated reader did not plug in again: \(error)")
                    }
                }
            case nil:
                break
            }
            let deadline = ContinuousClock.now + .seconds(30)
            while records(logText(bench, from: tagStart), uid: uid, result: awaited.result) < awaited.count,
                ContinuousClock.now < deadline
            {
                try await Task.sleep(for: .milliseconds(5))
            }
            let text = logText(bench, from: tagStart)
            #expect(
                records(text, uid: uid, result: awaited.result) >= awaited.count,
                "\(context); the station said: \(station.standardError.suffix(1500))")
            #expect(records(text, uid: uid, result: "ok") == 1, context)
            // A fault that has not fired by now never will.
            pending?.cancel()
            let tag = try handle.withLock { current in
                try #require(emulator.remove(current) as? Type2Tag, context)
            }
            #expect(try ProvisionBench.userMemory(tag).hasPrefix(expected), context)
            done.insert(uid)
        }
        let waiting = ContinuousClock.now + .seconds(20)
        while !station.standardError.contains("Present a tag"), ContinuousClock.now < waiting {
            try await Task.sleep(for: .milliseconds(5))
        }
        let stopped = await station.interrupt(timeout: .seconds(20))
        #expect(stopped == 130, "\(String(describing: stopped)): \(station.standardError.suffix(2000))")

        let finalBytes = logBytes(bench)
        let final = String(decoding: finalBytes, as: UTF8.self)
        // Every record that was on disk at a kill is still there, in place.
        #expect(starts(finalBytes, with: lastSnapshot), "the log lost what was on disk at the last kill")
        // Each tag is logged done once: a tag whose record was on disk is skipped, not written again.
        var doneRecords: [String: Int] = [:]
        for line in final.split(separator: "\n") where line.contains("\"result\":\"ok\"") {
            guard let start = line.range(of: "\"uid\":\"")?.upperBound else { continue }
            doneRecords[String(line[start...].prefix { $0 != "\"" }), default: 0] += 1
        }
        for uid in done {
            #expect(doneRecords[uid] == 1, "\(uid) logged done \(doneRecords[uid] ?? 0) times")
        }
        #expect(done.count == Self.tags)
        #expect(faults[.kill, default: 0] >= Self.tags / 6, "seed \(Self.seed): \(faults)")
        #expect(!final.isEmpty && final.hasSuffix("\n"))
        let lines = final.split(separator: "\n")
        print(
            """
            station soak: \(Self.tags) tags, seed \(Self.seed), \
            \((ContinuousClock.now - started).components.seconds) s; \
            faults planned: \(faults[.kill, default: 0]) SIGKILL, \(faults[.tear, default: 0]) tears, \
            \(faults[.unplug, default: 0]) unplugs; log: \(lines.filter { $0.contains("\"result\":\"ok\"") }.count) ok, \
            \(lines.filter { $0.contains("\"result\":\"failed\"") }.count) failed, \
            \(lines.filter { $0.contains("\"result\":\"skipped\"") }.count) skipped; every tag holds the message
            """)
    }
}
