import Foundation
import NFCTagKit

/// What an operation is asked to reach: a ratio to its physical floor, a ratio to its
/// tear-safe floor (writes), or a modelled duration.
enum BenchTarget: Sendable, Equatable, CustomStringConvertible {
    /// At most this many times the plain floor.
    case floorRatio(Double)
    /// At most this many times the tear-safe floor (``OperationFloors/safeWriteNDEF(oldTLVBytes:changedPages:lengthAlreadyZero:lengthPageChanged:pagesWritten:)``).
    case safeFloorRatio(Double)
    /// At most this many modelled milliseconds.
    case milliseconds(Double)

    var description: String {
        switch self {
        case .floorRatio(let ratio): String(format: "≤ %.1f× floor", ratio)
        case .safeFloorRatio(let ratio): String(format: "≤ %.1f× safe floor", ratio)
        case .milliseconds(let ms): String(format: "≤ %.0f ms", ms)
        }
    }
}

/// One benchmarked operation: what it cost on the emulated reader, its physical floor (and
/// the tear-safe floor of a write) and the target it has, if any.
struct BenchResult: Sendable {
    /// The operation's name in the table and the JSON (`read_ndef_100`).
    var name: String
    /// The reader kind it ran on (`datasheets/readers.json` names): the emulated PN532 on
    /// its UART, or an emulated USB reader.
    var reader = ReaderModelName.pn532UART.rawValue
    /// The measured cost.
    var sample: BenchSample
    /// The floor for the same work, on the link the run used.
    var floor: FloorCost
    /// A write's tear-safe floor on that link: the plain floor plus the tear-safety writes
    /// and the read-back of the pages written.
    var safeFloor: FloorCost?
    /// The least the operation can cost while keeping the library's promises (provisioning:
    /// ``OperationFloors/provisionSafetyBound(tags:oldTLVBytes:changedPages:)``), when the
    /// tear-safe floor leaves one of them out.
    var safetyBound: FloorCost?
    /// What the issue asks for, if anything.
    var target: BenchTarget?
    /// Pages a write changed (for the "only the pages that change" check), if a write.
    var changedPages: Int?
    /// The same floor on other host links (the other UART speeds, USB full speed), in the
    /// order ``BenchSuite/floorLinks`` lists them.
    var floorsByLink:
        [(link: PhysicalFloor.HostLink, floor: FloorCost, safeFloor: FloorCost?, safetyBound: FloorCost?)] = []

    init(
        name: String, sample: BenchSample, floor: FloorCost, safeFloor: FloorCost? = nil,
        target: BenchTarget? = nil, changedPages: Int? = nil
    ) {
        self.name = name
        self.sample = sample
        self.floor = floor
        self.safeFloor = safeFloor
        self.target = target
        self.changedPages = changedPages
    }

    /// Modelled time over floor time.
    var ratio: Double {
        floor.milliseconds > 0 ? sample.modelledMilliseconds / floor.milliseconds : 0
    }

    /// Modelled time over the tear-safe floor, for writes.
    var safeRatio: Double? {
        safeFloor.map { $0.milliseconds > 0 ? sample.modelledMilliseconds / $0.milliseconds : 0 }
    }

    /// The safety bound over the plain floor: the least ratio any implementation keeping
    /// the promises could reach.
    var safetyBoundRatio: Double? {
        safetyBound.map { floor.milliseconds > 0 ? $0.milliseconds / floor.milliseconds : 0 }
    }

    /// Whether the target, if any, is met.
    var meetsTarget: Bool? {
        switch target {
        case .none: nil
        case .floorRatio(let limit): ratio <= limit
        case .safeFloorRatio(let limit): safeRatio.map { $0 <= limit }
        case .milliseconds(let limit): sample.modelledMilliseconds <= limit
        }
    }
}
