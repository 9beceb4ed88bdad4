/// One benchmarked operation: what it cost on the emulated reader, its physical floor and
/// the target it has, if any.
struct BenchResult: Sendable {
    /// The operation's name in the table and the JSON (`read_ndef_100`).
    var name: String
    /// The measured cost.
    var sample: BenchSample
    /// The floor for the same work.
    var floor: FloorCost
    /// The ratio the issue asks for (1.1 for reads, 1.2 for writes), if any.
    var target: Double?
    /// Pages a write changed (for the "only the pages that change" check), if a write.
    var changedPages: Int?

    /// Modelled time over floor time.
    var ratio: Double {
        floor.milliseconds > 0 ? sample.modelledMilliseconds / floor.milliseconds : 0
    }

    /// Whether the target, if any, is met.
    var meetsTarget: Bool? {
        target.map { ratio <= $0 }
    }
}
