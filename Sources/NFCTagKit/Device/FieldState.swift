/// What the device knows of its reader's RF field: the tag selected, whether a poll proved
/// it alone, and the framing settings libnfc has in force for the exchanges with it.
/// ``NFCDevice`` owns one; its `+Targets` extension acts on it.
struct FieldState {
    /// The tag selected by the last successful select or poll, until deselected or lost.
    var selectedTarget: ISO14443ATarget? {
        // Any change of selection ends what a poll proved about the field, and leaves no
        // FeliCa card, type B card or Type 1 tag selected.
        didSet {
            aloneSincePoll = nil
            selectedCard = nil
        }
    }
    /// The FeliCa card, type B card or Type 1 tag selected by the last poll for one, until
    /// another selection or a field reset.
    var selectedCard: NFCTarget?
    /// The UID of the selected tag when a poll that counts tags found it alone in the field
    /// and selected it, and nothing since then selected, deselected, reset the field or saw
    /// the tag fail: that poll is still its alone check. Nil otherwise.
    var aloneSincePoll: [UInt8]?
    /// The libnfc framing settings last applied.
    var framing = FramingState()
}
