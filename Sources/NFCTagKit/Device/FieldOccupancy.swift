/// What ``NFCDevice/selectIfAlone(uid:isoDEP:reusingPoll:)`` found in the field.
package enum FieldOccupancy: Sendable, Equatable {
    /// The tag is the only one in the field, and it is selected.
    case alone(ISO14443ATarget)
    /// The FeliCa card, type B card or Type 1 tag checked is the only tag in the field; a
    /// poll for it selected it again.
    case aloneCard
    /// More than one tag answered (a PN532 tells at most two apart). None of them is the
    /// device's selected target.
    case several(count: Int)
    /// The tag did not answer: it left (another tag may be alone in the field now).
    case absent
}
