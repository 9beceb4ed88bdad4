/// A radio modulation a reader supports in initiator mode (libnfc's `nfc_modulation_type`).
package enum Modulation: String, Sendable, Hashable, CaseIterable {
    /// ISO/IEC 14443-A: NTAG, MIFARE Ultralight, MIFARE Classic, Type 4 tags.
    case iso14443A = "ISO/IEC 14443A"
    /// Innovision Jewel / Topaz (Type 1).
    case jewel = "Innovision Jewel"
    /// ISO/IEC 14443-B.
    case iso14443B = "ISO/IEC 14443B"
    /// ISO/IEC 14443 B' (pre-standard Type B).
    case iso14443BPrime = "ISO/IEC 14443-B'"
    /// ST SRx tags (ISO/IEC 14443-2B).
    case iso14443B2SR = "ISO/IEC 14443-2B ST SRx"
    /// ASK CTx tags (ISO/IEC 14443-2B).
    case iso14443B2CT = "ISO/IEC 14443-2B ASK CTx"
    /// FeliCa (Type 3).
    case felica = "FeliCa"
    /// NFC-DEP (peer to peer).
    case dep = "D.E.P."
    /// Thinfilm NFC Barcode.
    case barcode = "Thinfilm NFC Barcode"
    /// HID iCLASS in 14443-B mode.
    case iso14443BiClass = "ISO/IEC 14443-2B-3B iClass (Picopass)"
}
