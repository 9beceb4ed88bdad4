import Foundation
import NFCTagKit
#if canImport(Glibc)
import Glibc
#endif

/// A progress bar on stderr, drawn only when stderr is a terminal and `--json` is off:
/// scripts and logs never see it.
struct ProgressBar: Sendable {
    let isEnabled: Bool
    let label: String

    init(label: String, output: Output) {
        self.label = label
        isEnabled = !output.json && isatty(STDERR_FILENO) == 1
    }

    /// Redraws the bar (`label [#####-----]  50 %`).
    func update(_ progress: TagSessionProgress) {
        guard isEnabled else { return }
        let width = 30
        let filled = Int(progress.fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let percent = String(Int(progress.fraction * 100))
        let padded = String(repeating: " ", count: max(0, 3 - percent.count)) + percent
        FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(padded) %".utf8))
        if progress.isFinished { clear() }
    }

    /// Erases the bar's line.
    func clear() {
        guard isEnabled else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
    }
}
