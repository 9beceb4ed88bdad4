/// The C1 C2 C3 bits of one block (or of the trailer) of a Classic sector.
public struct AccessBits: Hashable, Sendable {
    /// C1.
    public var c1: Bool
    /// C2.
    public var c2: Bool
    /// C3.
    public var c3: Bool

    /// Creates the bits.
    public init(c1: Bool, c2: Bool, c3: Bool) {
        self.c1 = c1
        self.c2 = c2
        self.c3 = c3
    }

    /// `C1C2C3` as the tables write it, e.g. `"011"`.
    public var code: String { (c1 ? "1" : "0") + (c2 ? "1" : "0") + (c3 ? "1" : "0") }

    /// Parses `"011"`; `nil` for anything else.
    public init?(code: String) {
        let bits = Array(code)
        guard bits.count == 3, bits.allSatisfy({ $0 == "0" || $0 == "1" }) else { return nil }
        self.init(c1: bits[0] == "1", c2: bits[1] == "1", c3: bits[2] == "1")
    }
}

/// The access conditions of a Classic sector: C1C2C3 for groups 0–2 and the trailer (3),
/// decoded from and encoded to the 3 access-bit bytes (trailer bytes 6–8).
///
/// Byte 6 = ¬C2₃..¬C2₀ ‖ ¬C1₃..¬C1₀, byte 7 = C1₃..C1₀ ‖ ¬C3₃..¬C3₀,
/// byte 8 = C3₃..C3₀ ‖ C2₃..C2₀ (MF1S50 §8.7.1).
///
/// ```swift
/// let access = try await classic.readSectorTrailer(1).access   // FF 07 80 on a new card
/// access.trailer.code   // "001" (transport)
/// access.groups[0].code // "000"
/// AccessConditions(groups: [g, g, g], trailer: t).accessBytes // round-trips
/// ```
public struct AccessConditions: Hashable, Sendable {
    /// C1C2C3 of the data groups 0, 1, 2 (blocks 0–2, or the 5-block groups of a 4K large sector).
    public var groups: [AccessBits]
    /// C1C2C3 of the sector trailer.
    public var trailer: AccessBits

    /// Why 3 access-bit bytes could not be decoded.
    package enum DecodeError: Error, Equatable, Sendable {
        /// Not exactly 3 bytes.
        case wrongLength(Int)
        /// The inverted copy of a bit disagrees; the card treats the sector as blocked.
        /// `byte` is the offset (0–2) inside the access bytes holding the inverted copy.
        case inversionMismatch(byte: Int, bit: Int)
    }

    /// Creates conditions from three data groups and the trailer.
    public init(groups: [AccessBits], trailer: AccessBits) {
        precondition(groups.count == 3, "a sector has three data access groups")
        self.groups = groups
        self.trailer = trailer
    }

    /// Decodes the 3 access-bit bytes, checking every inverted copy.
    package init(accessBytes bytes: [UInt8]) throws(DecodeError) {
        guard bytes.count == 3 else { throw .wrongLength(bytes.count) }
        let c1 = bytes[1] >> 4
        let c2 = bytes[2] & 0x0F
        let c3 = bytes[2] >> 4
        let notC1 = bytes[0] & 0x0F
        let notC2 = bytes[0] >> 4
        let notC3 = bytes[1] & 0x0F
        for n in 0..<4 {
            let bit = UInt8(1) << UInt8(n)
            if (c1 & bit == 0) == (notC1 & bit == 0) { throw .inversionMismatch(byte: 0, bit: n) }
            if (c2 & bit == 0) == (notC2 & bit == 0) { throw .inversionMismatch(byte: 0, bit: n + 4) }
            if (c3 & bit == 0) == (notC3 & bit == 0) { throw .inversionMismatch(byte: 1, bit: n) }
        }
        let all = (0..<4).map { n -> AccessBits in
            let bit = UInt8(1) << UInt8(n)
            return AccessBits(c1: c1 & bit != 0, c2: c2 & bit != 0, c3: c3 & bit != 0)
        }
        self.init(groups: Array(all[0..<3]), trailer: all[3])
    }

    /// The 3 access-bit bytes with their inverted copies.
    public var accessBytes: [UInt8] {
        var c1: UInt8 = 0
        var c2: UInt8 = 0
        var c3: UInt8 = 0
        for (n, bits) in (groups + [trailer]).enumerated() {
            let bit = UInt8(1) << UInt8(n)
            if bits.c1 { c1 |= bit }
            if bits.c2 { c2 |= bit }
            if bits.c3 { c3 |= bit }
        }
        return [((~c2 & 0x0F) << 4) | (~c1 & 0x0F), (c1 << 4) | (~c3 & 0x0F), (c3 << 4) | c2]
    }
}
