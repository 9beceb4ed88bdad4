// Helpers shared by every fuzz target (compiled into each target binary by scripts/fuzz).

/// The bytes libFuzzer passes to `LLVMFuzzerTestOneInput`, as the package's byte type.
func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Stops the fuzzer with `message` when a property of the code under test does not hold.
///
/// A trap is what libFuzzer records as a crash, so a broken property leaves a reproducer
/// just as an out-of-bounds index does. `fatalError` keeps its message in optimised builds.
func fuzzCheck(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    if !condition() { fatalError("property failed: \(message())", file: file, line: line) }
}

/// Two-digit hex of `bytes`, for property messages.
func fuzzHex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef")
    return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] })
}
