import Foundation
import NFCEmulator
@testable import NFCTagKit
import Testing
import TestSupport

/// ``ProvisioningStation`` in an app's hands, through libnfc to the emulated reader: tags
/// presented one after the other, the event stream, skipping, two tags at once, stop.
@Suite("ProvisioningStation", .tags(.reader), .serialized, .timeLimit(.minutes(2)))
struct ProvisioningStationTests {
    static let uids: [[UInt8]] = (1...3).map { [0x04, 0x51, 0x7A, 0x20, 0x3C, 0x6D, UInt8($0)] }
    static let message = NDEFMessage(records: [.uri("https://example.com/station")])

    /// A reader with an empty field and a device on it.
    private func withStation(
        _ plan: ProvisioningPlan, alreadyProvisioned: Set<[UInt8]> = [],
        _ body: @escaping @Sendable (ProvisioningStation, EmulatorFixture) async throws -> Void
    ) async throws {
        let fixture = try EmulatorFixture(tags: [])
        defer { fixture.stop() }
        try await withTimeLimit(seconds: 60) {
            let device = NFCDevice()
            try await device.connect(to: fixture.reader, configuration: fixture.configuration(liveness: nil))
            let station = ProvisioningStation(
                device: device, plan: plan, label: "line 2", alreadyProvisioned: alreadyProvisioned,
                tagTimeout: .seconds(5), pollInterval: .milliseconds(5))
            try await body(station, fixture)
            await device.close()
        }
    }

    @Test("three tags presented one after the other: each written, verified and locked; records and events agree")
    func tagAfterTag() async throws {
        var plan = ProvisioningPlan(message: Self.message)
        plan.lock = true
        try await withStation(plan) { station, fixture in
            let observed = Task {
                var records: [ProvisioningRecord] = []
                for await event in station.events {
                    if case .handled(let record) = event { records.append(record) }
                    if records.count == Self.uids.count { break }
                }
                return records
            }
            var waiting = Self.uids
            var inField: Field.TagHandle?
            var records: [ProvisioningRecord] = []
            let ending = try await station.run(count: Self.uids.count) { event in
                switch event {
                case .waitingForTag where !waiting.isEmpty:
                    inField = fixture.emulator.insert(try Type2Tag(chip: .ntag215, uid: waiting.removeFirst()))
                case .removeTag:
                    if let handle = inField { fixture.emulator.remove(handle) }
                    inField = nil
                case .handled(let record):
                    records.append(record)
                default:
                    break
                }
            }
            #expect(ending == .finished)
            #expect(records.map(\.uid) == Self.uids)
            for record in records {
                #expect(record.result == .ok && record.chip == .ntag215 && record.station == "line 2")
                #expect(record.actions == [.write, .verify, .lock], "\(record.actions)")
                #expect(record.failure == nil)
            }
            #expect(await observed.value.map(\.uid) == Self.uids)
            #expect(await station.provisionedCount == 3)
            for tag in fixture.emulator.allTags {
                let memory = try #require(tag as? Type2Tag).memory
                #expect(String(decoding: memory, as: UTF8.self).contains("example.com/station"))
                #expect(memory[10] != 0 || memory[11] != 0, "static lock bytes not set")
            }
        }
    }

    @Test("a tag listed as done is skipped and not touched; two tags in the field: nothing written until one goes")
    func skipsAndRefusesTwo() async throws {
        try await withStation(ProvisioningPlan(message: Self.message), alreadyProvisioned: [Self.uids[0]]) {
            station, fixture in
            let done = fixture.emulator.insert(try Type2Tag(chip: .ntag215, uid: Self.uids[0]))
            var extra: Field.TagHandle?
            var events: [ProvisioningStation.Event] = []
            let ending = try await station.run(count: 1) { event in
                events.append(event)
                switch event {
                case .removeTag:
                    fixture.emulator.remove(done)
                case .waitingForTag where extra == nil:
                    // Two tags at once: nothing is written until one goes.
                    fixture.emulator.insert(try Type2Tag(chip: .ntag215, uid: Self.uids[1]))
                    extra = fixture.emulator.insert(try Type2Tag(chip: .ntag215, uid: Self.uids[2]))
                case .severalTags:
                    #expect(
                        fixture.emulator.allTags.allSatisfy {
                            !String(decoding: ($0 as? Type2Tag)?.memory ?? [], as: UTF8.self).contains("example.com")
                        })
                    if let extra { fixture.emulator.remove(extra) }
                default:
                    break
                }
            }
            #expect(ending == .finished)
            let handled = events.compactMap { event -> ProvisioningRecord? in
                if case .handled(let record) = event { return record }
                return nil
            }
            #expect(handled.map(\.result) == [.skipped, .ok])
            #expect(handled.map(\.uid) == [Self.uids[0], Self.uids[1]])
            #expect(events.contains { if case .severalTags(2) = $0 { true } else { false } })
            let skipped = try #require(fixture.emulator.allTags.first { $0.identity.uid == Self.uids[0] } as? Type2Tag)
            #expect(!String(decoding: skipped.memory, as: UTF8.self).contains("example.com"))
        }
    }

    @Test("stop() ends the run between tags, and nothing is written; asked before a run, it ends that run")
    func stops() async throws {
        try await withStation(ProvisioningPlan(message: Self.message)) { station, _ in
            let ending = await station.run { event in
                if case .waitingForTag = event { station.stop() }
            }
            #expect(ending == .stopped)
            #expect(await station.provisionedCount == 0)
            // A stop asked for before a run (a signal that came first) ends that run at once.
            station.stop()
            var events = 0
            #expect(await station.run { _ in events += 1 } == .stopped)
            #expect(events == 0)
        }
    }

    @Test("an error the app throws from an event ends the run: a log that cannot be written stops the station")
    func appErrorEndsTheRun() async throws {
        struct LogFull: Error {}
        try await withStation(ProvisioningPlan(message: Self.message)) { station, fixture in
            fixture.emulator.insert(try Type2Tag(chip: .ntag215, uid: Self.uids[0]))
            do throws(LogFull) {
                _ = try await station.run { event throws(LogFull) in
                    if case .handled = event { throw LogFull() }
                }
                Issue.record("the run went on")
            } catch {}
            #expect(await station.provisionedCount == 1)
        }
    }

    @Test("an Ultralight C under an NTAG password plan: written and verified, then refused at protect, nothing sent")
    func ultralightCIsNotPasswordProtected() async throws {
        var plan = ProvisioningPlan(message: Self.message)
        plan.protection = ProvisioningPlan.Protection(password: try #require(TagPassword(hex: "12345678")))
        try await withStation(plan) { station, fixture in
            // NDEF-formatted: CC for 48 data bytes (6 × 8), an empty NDEF TLV.
            var ultralightC = try Type2Tag(chip: .ultralightC, uid: Self.uids[0])
            ultralightC.setPage(3, to: [0xE1, 0x10, 0x06, 0x00])
            ultralightC.setPage(4, to: [0x03, 0x00, 0xFE, 0x00])
            fixture.emulator.insert(ultralightC)
            var records: [ProvisioningRecord] = []
            _ = await station.run { event in
                if case .handled(let record) = event {
                    records.append(record)
                    station.stop()
                }
            }
            let record = try #require(records.first)
            #expect(record.result == .failed)
            #expect(record.actions == [.write, .verify], "\(record.actions)")
            #expect(record.failure?.step == .protect)
            #expect(record.failure?.message == "ultralight-c has no password protection (PWD_AUTH)")
            #expect(record.failure?.state == "the new message is written and verified; not protected")
        }
    }

    @Test("a record encodes as the log's flat JSON line and decodes back", arguments: [false, true])
    func recordRoundTrip(failed: Bool) throws {
        var record = ProvisioningRecord(
            uid: Self.uids[0], chip: .ntag215, result: failed ? .failed : .ok, actions: [.write, .verify],
            milliseconds: 412)
        record.station = "line 2"
        if failed {
            var failure = ProvisioningRecord.Failure(step: .lock, message: "the tag left", state: "not locked")
            failure.tagLeft = true
            record.failure = failure
        }
        let data = try JSONEncoder().encode(record)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["uid"] as? String == "04517a203c6d01")
        #expect(object["actions"] as? [String] == ["write", "verify"])
        #expect(object["ms"] as? Int == 412)
        #expect((object["step"] as? String) == (failed ? "lock" : nil))
        let back = try JSONDecoder().decode(ProvisioningRecord.self, from: data)
        #expect(back.uid == record.uid && back.chip == .ntag215 && back.result == record.result)
        #expect(back.actions == record.actions && back.milliseconds == 412 && back.station == "line 2")
        #expect(abs(back.time.timeIntervalSince(record.time)) < 0.001)
        #expect(back.failure?.step == record.failure?.step && back.failure?.state == record.failure?.state)
        #expect(back.failure?.tagLeft == record.failure?.tagLeft)
    }
}
