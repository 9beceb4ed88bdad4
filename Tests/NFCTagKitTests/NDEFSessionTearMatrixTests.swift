import NDEF
import NFCChips
import NFCEmulator
@testable import NFCTagKit
import NFCTags
import Locking
import Testing
import TestSupport

/// The tear matrix through libnfc and the emulated PN532, sampled: the emulator's
/// `tear-after=N` fault takes the tag out of the field after N frames addressed to it, at
/// every third frame of a write, a lock and a format. The tag then comes back (re-inserted
/// as the tear left it), and reads as exactly the old message, the new message or empty —
/// and as the session's error said. `tear-in-write=N:SEED` cuts the Nth page write inside
/// its EEPROM cycle instead: the session must fail, and the tag may also read as corrupt,
/// but only when the error said `unknown`, and a new write repairs it. The in-process
/// matrices (NFCTagsTests) cover every frame and page write; this one proves the same
/// through the real reader stack.
@Suite("NDEFSession tear matrix through libnfc", .tags(.reader), .serialized, .timeLimit(.minutes(3)))
struct NDEFSessionTearMatrixTests {
    /// Every third frame of the operation.
    static let stride = 3
    /// A guard against a blocked libnfc call, not a speed bound: the NTAG215 write matrix
    /// takes about 40 s alone and went past 60 s under stress-ng.
    static let hangGuard = 150.0

    enum Operation: String, CustomStringConvertible, Sendable {
        case write, lock, format
        var description: String { rawValue }
    }

    /// A tag of `chip` holding the old message, prepared through a session on a separate emulator.
    static func preparedTag(_ chip: Chip, uid: [UInt8]) async throws -> any EmulatedTag {
        let fresh: any EmulatedTag =
            chip.isClassic ? try ClassicTag(chip: chip, uid: uid) : try Type2Tag(chip: chip, uid: uid)
        let harness = try await SessionHarness.start(tags: [fresh])
        defer { harness.fixture.stop() }
        let tag = try await harness.connectToOnlyTag()
        if try await tag.queryNDEFStatus().availability == .notSupported {
            try await #require(tag as? any NFCTagHandle).format()
        }
        try await tag.writeNDEF(SessionMessages.old)
        let prepared = try #require(harness.emulator.tags.first as (any EmulatedTag)?)
        await harness.stop()
        return prepared
    }

    /// What `operation` may leave the tag reading, and what the error's state allows.
    static func allowed(after operation: Operation, state: NDEFTagContentState?) -> [NDEFMessage] {
        let all: [NDEFMessage] =
            switch operation {
            case .write: [SessionMessages.old, SessionMessages.new, SessionMessages.empty]
            case .lock: [SessionMessages.old]
            case .format: [SessionMessages.old, SessionMessages.empty]
            }
        guard let state else { return all }
        let byState: [NDEFMessage] =
            switch state {
            case .previousMessageIntact: [SessionMessages.old]
            case .emptyMessage: [SessionMessages.empty]
            case .newMessageUnverified: [SessionMessages.new]
            case .unknown: all
            }
        return byState.filter(all.contains)
    }

    /// Runs `operation` on a copy of `prepared`, with the tag leaving the field after
    /// `k` frames of the operation (nil: never). Returns the frames before the operation,
    /// the frames it sent (the emulator's statistics) and whether it completed.
    @discardableResult
    static func run(
        _ operation: Operation, on prepared: any EmulatedTag, framesBefore: Int?, k: Int?,
        tear: WriteTear? = nil
    ) async throws -> (before: Int, frames: Int, completed: Bool, pageWrites: Int) {
        var faults = try FaultPlan(
            parsing: (framesBefore.flatMap { before in k.map { ["tear-after=\(before + $0)"] } }) ?? [])
        faults.tearInWrite = tear
        var configuration = SessionHarness.quick
        configuration.pollInterval = .milliseconds(20)
        let harness = try await SessionHarness.start(tags: [prepared], configuration: configuration, faults: faults)
        defer { harness.fixture.stop() }
        let uid = prepared.identity.uid
        // The last state the emulator reported of our tag: what it holds when it is torn away.
        let lastSeen = Locked<(any EmulatedTag)?>(prepared)
        harness.emulator.observeTagChanges { tags in
            if let tag = tags.first(where: { $0.identity.uid == uid }) { lastSeen.withLock { $0 = tag } }
        }
        let tag = try #require(try await harness.connectToOnlyTag() as? any NFCTagHandle)
        if operation == .lock { _ = try await tag.readNDEF() }  // lock needs a verified read in this session
        let before = harness.emulator.statistics.framesToTags
        let writeCode = try #require(tag.chip.flatMap { ChipTables.spec(for: $0).command(.write) }).code
        let writesBefore = harness.emulator.statistics.tagFramesByCode[writeCode] ?? 0
        let afterConnect = harness.log.all.count
        if let framesBefore {
            try #require(before == framesBefore, "the connect sent \(before) frames, the dry run \(framesBefore)")
        }
        let cut =
            tear.map { "page write \($0.write) torn with seed \($0.seed)" }
            ?? "tag leaves after frame \(k.map(String.init) ?? "never")"
        let label = "\(operation) on \(tag.chip.map(\.rawValue) ?? "?"), \(cut)"

        var failure: NDEFSessionError?
        do throws(NDEFSessionError) {
            switch operation {
            case .write: try await tag.writeNDEF(SessionMessages.new)
            case .lock: try await tag.writeLock()
            case .format: try await tag.format(force: true)
            }
        } catch {
            failure = error
        }
        let frames = harness.emulator.statistics.framesToTags - before
        let pageWrites = (harness.emulator.statistics.tagFramesByCode[writeCode] ?? 0) - writesBefore
        if tear != nil { #expect(failure != nil, "\(label): a write torn mid-cycle was reported as success") }
        var state: NDEFTagContentState?
        if let failure {
            switch failure {
            case .connectionLost(_, let lost, _): state = lost
            case .tagUpdateFailure(_, let updateState, _): state = updateState
            default: Issue.record("\(label): expected connectionLost or tagUpdateFailure, got \(failure)")
            }
            // The tag comes back as the tear left it; the session polls again and finds it.
            #expect(harness.emulator.tags.isEmpty, "\(label): the tag should have left the field")
            // The session polls again and sees the field empty, then the tag comes back.
            try await harness.log.wait(from: afterConnect) { if case .tagRemoved = $0 { true } else { false } }
            let mark = harness.log.all.count
            harness.emulator.insert(try #require(lastSeen.withLock { $0 }))
            let again = try await harness.connectToOnlyTag(from: mark)
            if tear != nil {
                try await checkTorn(again, after: operation, state: state, label: label)
            } else {
                try await check(again, after: operation, state: state, label: label)
            }
        } else if k == nil {
            try await check(tag, after: operation, state: nil, label: label)
        }
        // With a tear planned, success means the operation ended before frame k (the
        // emulator counts a Classic authentication's two frames where the statistics count
        // one exchange): the tag leaves during whatever comes next, so nothing more is read.
        await harness.stop()
        return (before, frames, failure == nil, pageWrites)
    }

    /// After a write torn mid-cycle: the tag reads as `operation` and the state allow, or —
    /// only when the state is `unknown` — as corrupt; never as a valid wrong message. A new
    /// write repairs it.
    static func checkTorn(_ tag: any NFCNDEFTag, after operation: Operation, state: NDEFTagContentState?, label: String)
        async throws
    {
        let read: Result<NDEFMessage, NDEFSessionError>
        do { read = .success(try await tag.readNDEF()) } catch { read = .failure(error) }
        switch read {
        case .success(let message):
            #expect(
                allowed(after: operation, state: state).contains(message),
                "\(label): read \(message), state \(String(describing: state))")
        case .failure(.invalidNDEF):
            #expect(state == .unknown, "\(label): reads corrupt, but the error said \(String(describing: state))")
        case .failure(let error):
            Issue.record("\(label): \(error)")
        }
        guard operation == .write else { return }
        try await tag.writeNDEF(SessionMessages.new)
        #expect(try await tag.readNDEF() == SessionMessages.new, "\(label): not repaired")
    }

    /// The dry run, then page write n torn for every n: with six seeds at the first and the
    /// last write (where the length lives), one elsewhere.
    static func tornWriteMatrix(_ operation: Operation, chip: Chip, uid: [UInt8]) async throws -> Int {
        let prepared = try await preparedTag(chip, uid: uid)
        let dryRun = try await run(operation, on: prepared, framesBefore: nil, k: nil)
        #expect(dryRun.pageWrites > 0)
        var runs = 0
        for write in 1...max(1, dryRun.pageWrites) {
            let seeds = write == 1 || write == dryRun.pageWrites ? Array(UInt64(0)..<6) : [UInt64(write)]
            for seed in seeds {
                try await run(
                    operation, on: prepared, framesBefore: nil, k: nil, tear: WriteTear(write: write, seed: seed))
                runs += 1
            }
        }
        return runs
    }

    /// The tag reads as `operation` and the error's `state` allow; a tag whose lock was cut
    /// short is either read-only or still fully writable (never half-locked and writable).
    static func check(_ tag: any NFCNDEFTag, after operation: Operation, state: NDEFTagContentState?, label: String)
        async throws
    {
        let message = try await tag.readNDEF()
        let allowed = allowed(after: operation, state: state)
        #expect(allowed.contains(message), "\(label): read \(message), state \(state.map { "\($0)" } ?? "success")")
        if operation == .lock, try await tag.queryNDEFStatus().availability == .readWrite {
            try await tag.writeNDEF(SessionMessages.new)
            #expect(try await tag.readNDEF() == SessionMessages.new, "\(label): reads as writable but is half-locked")
        }
    }

    /// The dry run, then every third frame.
    static func matrix(_ operation: Operation, chip: Chip, uid: [UInt8]) async throws -> Int {
        let prepared = try await preparedTag(chip, uid: uid)
        let (before, frames, _, _) = try await run(operation, on: prepared, framesBefore: nil, k: nil)
        #expect(frames > 0)
        var runs = 0
        for k in Swift.stride(from: 0, to: frames, by: stride) {
            let completed = try await run(operation, on: prepared, framesBefore: before, k: k).completed
            runs += 1
            if completed { break }
        }
        return runs
    }

    @Test(
        "NTAG215: write, lock and format torn at every third frame read as old, new or empty, as the error said",
        arguments: [Operation.write, .lock, .format])
    func ntag215(operation: Operation) async throws {
        try await withTimeLimit(seconds: Self.hangGuard) {
            let runs = try await Self.matrix(operation, chip: .ntag215, uid: SessionUID.first)
            #expect(runs >= 1)
        }
    }

    @Test(
        "NTAG215: write, lock and format with each page write torn mid-cycle: never success, never a wrong message, repaired by a write",
        arguments: [Operation.write, .lock, .format])
    func ntag215TornInWrite(operation: Operation) async throws {
        try await withTimeLimit(seconds: Self.hangGuard) {
            let runs = try await Self.tornWriteMatrix(operation, chip: .ntag215, uid: SessionUID.first)
            #expect(runs >= 1)
        }
    }

    @Test(
        "MIFARE Classic 1K: a write with each block write torn mid-cycle: never success, never a wrong message, repaired by a write"
    )
    func classicWriteTornInWrite() async throws {
        try await withTimeLimit(seconds: Self.hangGuard) {
            let runs = try await Self.tornWriteMatrix(.write, chip: .classic1k, uid: [0x3E, 0xE0, 0x5A, 0x11])
            #expect(runs >= 1)
        }
    }

    @Test("MIFARE Classic 1K: a write torn at every third frame reads as old, new or empty, as the error said")
    func classicWrite() async throws {
        try await withTimeLimit(seconds: Self.hangGuard) {
            let runs = try await Self.matrix(.write, chip: .classic1k, uid: [0x3E, 0xE0, 0x5A, 0x11])
            #expect(runs >= 1)
        }
    }
}

private extension Chip {
    var isClassic: Bool { ChipTables.spec(for: self).family == .mifareClassic }
}
