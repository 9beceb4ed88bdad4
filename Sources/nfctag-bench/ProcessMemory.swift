import Foundation

/// The process's resident memory from `/proc/self/status`: now (VmRSS) and the peak
/// (VmHWM), in KiB. Resident memory counts pages, so a difference says where memory grew
/// by whole pages — enough to see a leak over hundreds of tags, not a single allocation.
///
/// ```swift
/// let before = ProcessMemory.now()
/// // … provision 300 tags …
/// print(ProcessMemory.now().residentKiB - before.residentKiB)
/// ```
struct ProcessMemory: Sendable, Equatable {
    var residentKiB: Int
    var peakKiB: Int

    /// The figures now; zeros where `/proc` is not there.
    static func now() -> ProcessMemory {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return ProcessMemory(residentKiB: 0, peakKiB: 0)
        }
        return ProcessMemory(status: status)
    }

    /// Reads the `VmRSS:` and `VmHWM:` lines (`VmRSS:     12345 kB`).
    init(status: String) {
        func kibibytes(_ key: String) -> Int {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else { return 0 }
            return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().compactMap { Int($0) }.first ?? 0
        }
        self.init(residentKiB: kibibytes("VmRSS"), peakKiB: kibibytes("VmHWM"))
    }

    init(residentKiB: Int, peakKiB: Int) {
        self.residentKiB = residentKiB
        self.peakKiB = peakKiB
    }
}
