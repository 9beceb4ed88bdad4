import NFCChips

/// A Type 4 tag's capability container file (E103) with its NDEF File Control TLV
/// (T = `04`, or `06` for an extended NDEF file with 4-byte sizes and ENLEN).
struct Type4CapabilityContainer: Sendable, Equatable {
    /// The mapping version (`20` = 2.0).
    var version: UInt8
    /// The largest R-APDU data field (MLe).
    var maximumReadLength: Int
    /// The largest C-APDU data field (MLc).
    var maximumWriteLength: Int
    /// The NDEF file's ID.
    var ndefFileID: [UInt8]
    /// The NDEF file's maximum size, NLEN / ENLEN included.
    var maximumFileSize: Int
    /// Read access (`00` = granted).
    var readAccess: UInt8
    /// Write access (`00` = granted, `FF` = never).
    var writeAccess: UInt8
    /// Whether the file is an extended NDEF file (ENLEN of 4 bytes).
    var isExtended: Bool
    /// The NLEN / ENLEN size in bytes.
    var lengthFieldSize: Int

    /// Bytes of the CC file to read for a File Control TLV of `tag`.
    static func length(forControlTag tag: UInt8, spec: Type4Spec) -> Int {
        let writeAccess = spec.ccFields[.writeAccess]
        let short = writeAccess.offset + writeAccess.length
        return tag == spec.extendedNDEFFileControlTag ? short + 2 : short
    }

    /// Parses the CC file bytes; offsets in errors count from the start of the file.
    init(bytes: [UInt8], spec: Type4Spec) throws(NDEFTagError) {
        let fields = spec.ccFields
        func value(_ field: Type4CCField, length: Int? = nil, shift: Int = 0) throws(NDEFTagError) -> Int {
            let count = length ?? field.length
            let offset = field.offset + shift
            guard offset + count <= bytes.count else {
                throw .invalidCapabilityContainer(
                    offset: offset, reason: .malformed("the CC file ends inside \(field.name.rawValue)"))
            }
            return bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        let tag = UInt8(try value(fields[.fileControlType]))
        guard tag == spec.ndefFileControlTag || tag == spec.extendedNDEFFileControlTag else {
            throw .invalidCapabilityContainer(
                offset: fields[.fileControlType].offset,
                reason: .malformed("expected an NDEF File Control TLV, found type \(tag)"))
        }
        isExtended = tag == spec.extendedNDEFFileControlTag
        version = UInt8(try value(fields[.mappingVersion]))
        guard spec.supportedMajorVersions.contains(Int(version >> 4)) else {
            throw .invalidCapabilityContainer(
                offset: fields[.mappingVersion].offset, reason: .unsupportedVersion(version))
        }
        maximumReadLength = try value(fields[.mle])
        maximumWriteLength = try value(fields[.mlc])
        let fileID = fields[.ndefFileID]
        ndefFileID = Array(bytes[fileID.offset..<min(bytes.count, fileID.offset + fileID.length)])
        let size = fields[.maxNDEFFileSize]
        let sizeLength = isExtended ? spec.extendedMaxFileSizeLength : size.length
        maximumFileSize = try value(size, length: sizeLength)
        let extra = sizeLength - size.length
        let read = fields[.readAccess]
        let write = fields[.writeAccess]
        readAccess = UInt8(try value(read, shift: extra))
        writeAccess = UInt8(try value(write, shift: extra))
        lengthFieldSize = isExtended ? spec.extendedNLENLength : spec.nlenLength
        guard maximumReadLength > 0, maximumWriteLength > 0 else {
            throw .invalidCapabilityContainer(
                offset: fields[.mle].offset, reason: .malformed("MLe and MLc must be positive"))
        }
        guard maximumFileSize >= lengthFieldSize else {
            throw .invalidCapabilityContainer(offset: size.offset, reason: .invalidSize(maximumFileSize))
        }
    }

    /// The largest message that fits.
    var capacity: Int { maximumFileSize - lengthFieldSize }
}
