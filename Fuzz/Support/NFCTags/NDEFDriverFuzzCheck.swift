// Shared by the fuzz targets that drive an NDEF tag driver (linked into every target that
// lists the NFCTags module): run status + read once, then check what must hold whatever
// the tag's memory holds.
import Glibc
import NDEF
import NFCTags
import Synchronization

/// What `queryStatus()` and then `readMessage()` returned on one tag.
struct NDEFDriverRun: Sendable {
    var status: Result<NDEFStatus, NDEFTagError>
    var message: Result<NDEFMessage, NDEFTagError>
}

/// Runs `queryStatus()` then `readMessage()` on the driver `makeDriver` returns, blocking
/// until both finish (see ``fuzzRunBlocking(_:)``).
func fuzzRunNDEFDriver(_ makeDriver: @escaping @Sendable () throws(NDEFTagError) -> any NDEFTagDriver) -> NDEFDriverRun
{
    fuzzRunBlocking {
        let driver: any NDEFTagDriver
        do throws(NDEFTagError) {
            driver = try makeDriver()
        } catch {
            return NDEFDriverRun(status: .failure(error), message: .failure(error))
        }
        let status: Result<NDEFStatus, NDEFTagError>
        do throws(NDEFTagError) { status = .success(try await driver.queryStatus()) } catch { status = .failure(error) }
        let message: Result<NDEFMessage, NDEFTagError>
        do throws(NDEFTagError) { message = .success(try await driver.readMessage()) } catch {
            message = .failure(error)
        }
        return NDEFDriverRun(status: status, message: message)
    }
}

/// Checks the properties every driver run has, for any tag content:
/// - every error is one a tag with this content may cause (`isExpected`), and an error
///   that names a tag offset names one inside the tag (`0...offsetLimit(error)`: the end
///   itself is where a truncated structure stops);
/// - a status has `0 <= length <= capacity`, and a tag without NDEF reports nothing;
/// - the two calls agree: the read fails when the status fails or says "no NDEF", and an
///   empty NDEF (length 0) reads as a message without records;
/// - a message read re-encodes, and the encoding decodes to the same message.
func fuzzCheckNDEFDriverRun(
    _ run: NDEFDriverRun, input: [UInt8],
    offsetLimit: (NDEFTagError) -> Int,
    isExpected: (NDEFTagError) -> Bool
) {
    // `FUZZ_TRACE=1 .build/fuzz/bin/<target> <file>` shows what a seed reads as.
    if getenv("FUZZ_TRACE") != nil { print("status: \(run.status)\nread:   \(run.message)") }
    for result in [run.status.map { _ in () }, run.message.map { _ in () }] {
        guard case .failure(let error) = result else { continue }
        fuzzCheck(isExpected(error), "unexpected error \(error) for \(fuzzHex(input))")
        if let offset = error.tagOffset {
            fuzzCheck(
                (0...offsetLimit(error)).contains(offset),
                "offset \(offset) outside the tag in \(error) for \(fuzzHex(input))")
        }
    }
    if case .success(let status) = run.status {
        fuzzCheck(status.length >= 0 && status.length <= status.capacity, "status \(status) for \(fuzzHex(input))")
        if status.availability == .notSupported {
            fuzzCheck(status.capacity == 0 && status.length == 0, "no NDEF but \(status) for \(fuzzHex(input))")
        }
    }
    guard case .success(let message) = run.message else { return }
    guard case .success(let status) = run.status, status.availability != .notSupported else {
        fuzzCheck(false, "readMessage succeeded but queryStatus gave \(run.status) for \(fuzzHex(input))")
        return
    }
    if status.length == 0 {
        fuzzCheck(message.records.isEmpty, "an empty NDEF read as \(message) for \(fuzzHex(input))")
    }
    guard !message.records.isEmpty else { return }
    do {
        let reEncoded = try message.encoded()
        let again = try NDEFMessage(bytes: reEncoded)
        fuzzCheck(again == message, "message \(message) re-encodes as \(fuzzHex(reEncoded)), which decodes to \(again)")
    } catch {
        fuzzCheck(false, "message \(message) read from \(fuzzHex(input)) does not round-trip: \(error)")
    }
}

extension NDEFTagError {
    /// The tag offset the error names, if it names one.
    var tagOffset: Int? {
        switch self {
        case .invalidNDEF(let offset, _), .invalidTLV(let offset, _),
            .invalidCapabilityContainer(let offset, _), .invalidApplicationDirectory(let offset, _):
            offset
        default:
            nil
        }
    }
}

/// Commands a harness transport saw that a real chip would refuse whatever its memory
/// holds (a page past the end, a block outside the open sector…): the driver must never
/// send one.
final class ProtocolViolations: Sendable {
    private let seen = Mutex<[String]>([])

    /// Records one violation.
    func record(_ description: String) { seen.withLock { $0.append(description) } }

    /// Everything recorded.
    var all: [String] { seen.withLock { $0 } }
}
