import NFCTagKit

/// The Errors article's example, compiled outside the package: a `switch` over an error that
/// may gain cases, handling a few of them, ends with `default` (without it, this file does not
/// build; `@unknown default` would leave a warning for every known case not handled).
func errorsThatGrow(ntag: NFCType2Tag) async {
    do {
        try await ntag.write(page: 4, bytes: [0x01, 0x02, 0x03, 0x04])
    } catch {  // a TagSessionError (typed throws)
        switch error {
        case .tagLost: print("Hold the tag still and try again")
        case .readerLost(_, let reason): print("Reader lost: \(reason.map { "\($0)" } ?? "unknown")")
        default: print(error)  // a sentence a person understands
        }
    }
}
