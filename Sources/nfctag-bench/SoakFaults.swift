import Foundation
import NFCEmulator
import Locking

/// The fault planned for one tag of the soak run, fired from the emulator's tag-change
/// observer after the tag's memory changed `afterChanges` times (so it strikes between
/// two page writes of a real write flow, at a point the seed chooses).
enum SoakFault: Sendable, Equatable, CustomStringConvertible {
    case none
    /// The tag leaves the field.
    case tear(afterChanges: Int)
    /// The reader is unplugged, and plugged in again a moment later.
    case unplug(afterChanges: Int)

    var description: String {
        switch self {
        case .none: "none"
        case .tear(let count): "tear after \(count) page change(s)"
        case .unplug(let count): "unplug after \(count) page change(s)"
        }
    }
}

/// Carries out ``SoakFault``s on an emulator: armed per tag, fired by its tag-change observer.
final class SoakFaultInjector: Sendable {
    private struct State {
        var fault = SoakFault.none
        var changes = 0
        var fired = false
        var tornTag: (any EmulatedTag)?
    }

    private let emulator: PN532Emulator
    private let state = Locked(State())
    private let timings: SoakTimings
    /// Unplugs whose reader is not plugged in again yet (each runs on a thread of its own).
    private let unplugsInFlight = Locked(0)

    /// Faults carried out on `emulator`; each unplug is recorded in `timings` as it happens.
    init(emulator: PN532Emulator, timings: SoakTimings = SoakTimings()) {
        self.emulator = emulator
        self.timings = timings
        emulator.observeTagChanges { [weak self] _ in self?.tagChanged() }
    }

    /// Plans `fault` for the tag now entering the field.
    func arm(_ fault: SoakFault) {
        state.withLock { $0 = State(fault: fault) }
    }

    /// Waits until every unplug fired so far has been carried out and the reader plugged in
    /// again (an unplug fired by a tag's last page change may still be under way when the
    /// station is done with it).
    func waitForUnplugsToFinish() async {
        while unplugsInFlight.withLock({ $0 }) > 0 { try? await Task.sleep(for: .milliseconds(5)) }
    }

    /// Whether the planned fault happened, and the tag a tear took out of the field.
    func disarm() -> (fired: Bool, tornTag: (any EmulatedTag)?) {
        state.withLock { state in
            defer { state = State() }
            return (state.fired, state.tornTag)
        }
    }

    private func tagChanged() {
        let action = state.withLock { state -> SoakFault in
            state.changes += 1
            switch state.fault {
            case .tear(let count) where !state.fired && state.changes >= count,
                .unplug(let count) where !state.fired && state.changes >= count:
                state.fired = true
                return state.fault
            default:
                return .none
            }
        }
        switch action {
        case .none:
            break
        case .tear:
            let removed = emulator.withField { field in field.handles.compactMap { field.remove($0) } }
            state.withLock { $0.tornTag = removed.first }
        case .unplug:
            // Not from the emulator's own thread, which the unplug stops.
            let emulator = self.emulator
            let timings = self.timings
            let inFlight = unplugsInFlight
            inFlight.withLock { $0 += 1 }
            Thread.detachNewThread {
                defer { inFlight.withLock { $0 -= 1 } }
                timings.readerUnplugged()
                emulator.unplug()
                usleep(30_000)
                // Said, not swallowed: a reader that is never plugged in again fails the run
                // as "the device gave up", and this is the only trace of why.
                do throws(PseudoTerminalError) { try emulator.plug() } catch {
                    FileHandle.standardError.write(
                        Data("soak: the emulated reader could not be plugged in again: \(error)\n".utf8))
                }
            }
        }
    }
}
