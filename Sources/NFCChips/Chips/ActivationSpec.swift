/// What a chip answers during ISO/IEC 14443-3A activation.
package struct ActivationSpec: Codable, Equatable, Sendable {
    /// ATQA (SENS_RES) as a value; on air it is sent LSB first (`0x0044` → `44 00`).
    @Hex package var atqa: UInt16
    /// The final SAK (SEL_RES).
    @Hex package var sak: UInt8
    /// UID length in bytes (4 or 7).
    package var uidLength: Int
    /// The first UID byte (manufacturer code, `04` = NXP), when fixed.
    @Hex package var manufacturerCode: UInt8?
    /// The ATS an ISO-DEP chip answers to RATS, length byte TL first; `nil` for chips
    /// without ISO/IEC 14443-4.
    @Hex package var ats: [UInt8]?
    /// Where the values come from.
    package var source: DatasheetSource

    /// The ATQA bytes in transmission order (LSB first).
    package var atqaBytes: [UInt8] { [UInt8(atqa & 0xFF), UInt8(atqa >> 8)] }

    /// The number of cascade levels the UID needs (1 for 4 bytes, 2 for 7, 3 for 10).
    package var cascadeLevels: Int { uidLength <= 4 ? 1 : (uidLength <= 7 ? 2 : 3) }
}
