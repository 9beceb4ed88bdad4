// One import for an app: `import NFCTagKit` brings the types NFCTagKit's API is made of —
// NDEF messages and records, the chip tables (`Chip`, `ChipSpec`), and the tag-level values
// (`NDEFStatus`, `Type2Configuration`, `TagMemoryDump`, `OriginalityReport`, …) and the NTAG 424
// DNA cryptography (`EV2Session`, `SUNVerifier`, …) — without a
// second import. The C libraries stay internal imports of their wrapper files.
@_exported import NDEF
@_exported import NFCChips
@_exported import NFCTags
@_exported import NTAG424Crypto
