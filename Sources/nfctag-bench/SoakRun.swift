import Foundation
import NFCEmulator
import NFCTagKit

/// The soak run of issue 8 §4: a provisioning station on the emulated reader over many
/// tags, with random tears, reader unplugs (automatic reconnection) and wrong passwords,
/// ending with a count of tags per final state. A clean run has no tag ``SoakTagState/corrupt``
/// and no tag the station called written that does not hold the new message.
///
/// ```swift
/// let report = try await SoakRun(tags: 300, seed: 8).run()
/// print(report.text)   // exit 1 unless report.isClean
/// ```
struct SoakRun {
    var tags: Int
    var seed: UInt64
    var log: @Sendable (String) -> Void = { _ in }

    /// The station's password for protected tags, and the wrong one it tries first.
    static let password = TagPassword(uncheckedBytes: [0x5A, 0x17, 0xC3, 0x08])
    static let wrongPassword = TagPassword(uncheckedBytes: [0x00, 0x00, 0x00, 0x00])
    static let pack = PACK(uncheckedBytes: [0x6B, 0x21])

    /// What one tag brings to the station.
    enum TagKind: Equatable, CustomStringConvertible {
        case fresh
        case holdsMessage
        /// Write-protected from the first user page with `authLimit` (0 = unlimited).
        case protected(authLimit: Int)

        var description: String {
            switch self {
            case .fresh: "fresh"
            case .holdsMessage: "old message"
            case .protected(let limit): "protected (AUTHLIM \(limit))"
            }
        }
    }

    /// Memory growth is counted from the end of this tag on (or the first tag, in a shorter
    /// run): the first tags still fill caches that a long run never grows again.
    static let memoryBaselineTag = 100

    func run() async throws -> SoakReport {
        var random = SplitMix64(seed: seed)
        let timings = SoakTimings()
        let reader = try await BenchReader.start(tags: [], eventHandler: { timings.record($0) })
        let injector = SoakFaultInjector(emulator: reader.emulator, timings: timings)
        var report = SoakReport(seed: seed)
        let baselineTag = tags > Self.memoryBaselineTag ? Self.memoryBaselineTag : 1
        for serial in 1...tags {
            timings.startTag(serial)
            let kind = Self.kind(&random)
            let fault = Self.fault(&random)
            let old = kind == .fresh ? nil : BenchMessages.provisioning(serial: 900_000 + serial)
            let new = BenchMessages.provisioning(serial: serial)
            let tag = try Self.prepare(kind: kind, serial: serial, message: old)
            injector.arm(fault)
            let handle = reader.emulator.insert(tag)
            let outcome = await SoakStation(device: reader.device, timings: timings)
                .provision(new, protected: kind != .fresh && kind != .holdsMessage)
            let (fired, torn) = injector.disarm()
            let final = reader.emulator.remove(handle) ?? torn
            // The emulator remembers every tag that left its field; judged here, it is forgotten.
            reader.emulator.withField { $0.forgetDepartedTags() }
            guard let finalTag = final as? Type2Tag else {
                throw BenchFailure("tag \(serial) vanished from the emulator")
            }
            let state = SoakTagState.classify(finalTag, old: old, new: new)
            let consistent = outcome != .written || state == .newMessage
            report.record(state: state, consistent: consistent, fault: fired ? fault : .none, outcome: outcome)
            if state == .corrupt || !consistent {
                log("tag \(serial): \(kind), fault \(fault) (fired: \(fired)), station \(outcome) → \(state.rawValue)")
            }
            try await Self.waitForReader(reader.device, timings: timings)
            if serial == baselineTag { report.memoryBaseline = (tag: serial, memory: ProcessMemory.now()) }
        }
        report.memoryAtEnd = ProcessMemory.now()
        // An unplug fired by the last tag's last page change may still be under way: it is
        // counted among the unplugs, so it must be in the account too.
        await injector.waitForUnplugsToFinish()
        report.timings = timings.summary
        await reader.stop()
        return report
    }

    // MARK: - The plan, from the seed

    static func kind(_ random: inout SplitMix64) -> TagKind {
        switch random.next() % 10 {
        case 0...3: .fresh
        case 4...7: .holdsMessage
        case 8: .protected(authLimit: 1)  // the wrong password locks it out
        default: .protected(authLimit: Int(random.next() % 2) * 7)  // 0 (unlimited) or 7
        }
    }

    static func fault(_ random: inout SplitMix64) -> SoakFault {
        switch random.next() % 20 {
        case 0...5: .tear(afterChanges: 1 + Int(random.next() % 10))
        case 6...8: .unplug(afterChanges: 1 + Int(random.next() % 10))
        default: .none
        }
    }

    /// A factory NTAG216, formatted, holding `message` when given, and protected as `kind` says.
    static func prepare(kind: TagKind, serial: Int, message: NDEFMessage?) throws -> Type2Tag {
        var tag = try BenchSuite.ntag216(serial: 0x10_0000 + serial)
        guard let memory = tag.spec.memory else { throw BenchFailure("no NTAG216 page map") }
        let pageSize = memory.pageSize
        if let message {
            let encoded = try message.encoded()
            guard encoded.count < ChipTables.type2.tlvLength.shortMaximum else {
                throw BenchFailure("the old message does not fit a short TLV")
            }
            let tlvs = ChipTables.type2.tlvs
            var tlv = [tlvs[.ndef].type, UInt8(encoded.count)] + encoded + [tlvs[.terminator].type]
            while tlv.count % pageSize != 0 { tlv.append(0) }
            for index in stride(from: 0, to: tlv.count, by: pageSize) {
                tag.setPage(memory.firstUserPage + index / pageSize, to: Array(tlv[index..<(index + pageSize)]))
            }
        }
        guard case .protected(let limit) = kind else { return tag }
        guard let configuration = memory.configuration, let password = configuration.password,
            let auth0 = configuration.field(.auth0), let authLimit = configuration.field(.authLimit)
        else {
            throw BenchFailure("no NTAG216 configuration table")
        }
        tag.setPage(password.pwdPage, to: Self.password.bytes)
        tag.setPage(password.packPage, to: Self.pack.bytes + [0, 0])
        tag.setPage(authLimit.page, to: authLimit.setting(UInt8(limit), in: tag.page(authLimit.page)))
        tag.setPage(auth0.page, to: auth0.setting(UInt8(memory.firstUserPage), in: tag.page(auth0.page)))
        return tag
    }

    /// After an unplug the device reconnects by itself; the next tag waits for it.
    static func waitForReader(_ device: NFCDevice, timings: SoakTimings) async throws {
        if let failure = await readerFailure(device, timings: timings) { throw failure }
    }

    /// Nil once the device is connected. The wait lasts as long as the device keeps
    /// reconnecting — its ``ReconnectionPolicy`` is the patience, not a clock of the soak's
    /// own that a busy machine would run out (ten seconds here once stopped a loaded run
    /// while the device was still trying) — and fails when the device gives up; `limit`
    /// only guards against a device that never decides.
    static func readerFailure(_ device: NFCDevice, timings: SoakTimings, limit: Duration = .seconds(120)) async
        -> BenchFailure?
    {
        let deadline = ContinuousClock.now + limit
        while true {
            if await device.isConnected { return nil }
            let events = timings.recentEvents.joined(separator: ", ")
            if await device.status == .notConnected {
                return BenchFailure("the device gave up reconnecting after an unplug (events: \(events))")
            }
            if ContinuousClock.now >= deadline {
                return BenchFailure("the reader was not back \(limit) after an unplug (events: \(events))")
            }
            try? await Task.sleep(for: .milliseconds(25))
        }
    }
}
