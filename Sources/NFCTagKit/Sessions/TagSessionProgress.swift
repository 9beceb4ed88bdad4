import NFCChips
import NFCTags
internal import Locking

/// How far a long operation (NDEF write, dump, restore) has come, in exchanges with the tag.
///
/// `expected` is an estimate made before the first exchange (a restore does not know in
/// advance how many pages differ); ``fraction`` stays below 1 until the operation reports
/// ``isFinished``.
///
/// ```swift
/// let dump = try await ntag.dump { progress in
///     print("\(Int(progress.fraction * 100)) %")
/// }
/// ```
public struct TagSessionProgress: Sendable {
    /// Exchanges done so far.
    public var completed: Int
    /// Exchanges expected in all (an estimate).
    public var expected: Int
    /// Whether the operation has finished.
    public var isFinished: Bool

    /// A progress value.
    package init(completed: Int, expected: Int, isFinished: Bool) {
        self.completed = completed
        self.expected = expected
        self.isFinished = isFinished
    }

    /// An NDEF write's progress: its write commands acknowledged out of all it needs.
    package init(_ write: NDEFWriteProgress) {
        self.init(completed: write.written, expected: write.total, isFinished: write.written >= write.total)
    }

    /// 0…1: 1 only once finished.
    public var fraction: Double {
        if isFinished { return 1 }
        guard expected > 0 else { return 0 }
        return min(Double(completed) / Double(expected), 0.99)
    }
}

/// A transport that passes everything through and counts the exchanges, for progress.
final class TagSessionProgressTransport: TagTransport {
    let base: any TagTransport
    let expected: Int
    let report: (@Sendable (TagSessionProgress) -> Void)?
    private let completed = Locked(0)

    init(base: any TagTransport, expected: Int, report: (@Sendable (TagSessionProgress) -> Void)?) {
        self.base = base
        self.expected = expected
        self.report = report
    }

    var target: TagTarget { base.target }
    var maximumFrameLength: Int { base.maximumFrameLength }
    var maximumCommandLength: Int { base.maximumCommandLength }
    var maximumAnswerLength: Int { base.maximumAnswerLength }

    func transceive(_ frame: [UInt8], framing: TagFraming, timeout: Duration) async throws(TagTransportError)
        -> TagResponse
    {
        defer { step() }
        return try await base.transceive(frame, framing: framing, timeout: timeout)
    }

    func reselect() async throws(TagTransportError) {
        try await base.reselect()
    }

    func authenticateClassic(block: UInt8, keyType: ClassicKeyType, key: [UInt8]) async throws(TagTransportError) {
        defer { step() }
        try await base.authenticateClassic(block: block, keyType: keyType, key: key)
    }

    /// Reports the end.
    func finish() {
        let done = completed.withLock { $0 }
        report?(TagSessionProgress(completed: done, expected: max(expected, done), isFinished: true))
    }

    private func step() {
        guard let report else { return }
        let done = completed.withLock { value -> Int in
            value += 1
            return value
        }
        report(TagSessionProgress(completed: done, expected: max(expected, done + 1), isFinished: false))
    }
}
