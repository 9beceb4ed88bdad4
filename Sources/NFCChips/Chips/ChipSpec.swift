/// One chip's datasheet facts (filled in by the chip tables).
public struct ChipSpec: DatasheetValue {
    /// The product name.
    public var product: String
}
