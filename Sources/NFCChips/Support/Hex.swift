import Foundation

/// Stores a table value that the `datasheets/` JSON files write as hexadecimal text.
///
/// The wrapper only changes how the value is coded; the property itself has the plain
/// Swift type:
///
/// ```swift
/// struct Example: Codable { @Hex var code: UInt8 }   // JSON: { "code": "0x30" }
/// ```
///
/// An optional wrapped value (`@Hex var page: Int?`) may be missing from the JSON object.
@propertyWrapper
package struct Hex<Value: HexRepresentable>: Codable, Equatable, Sendable, HexWrapper {
    /// The decoded value.
    package var wrappedValue: Value

    /// Wraps `wrappedValue`.
    package init(wrappedValue: Value) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes the hexadecimal text, or `null` for an optional value.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil(), let absent = Value.absentValue {
            wrappedValue = absent
            return
        }
        let text = try container.decode(String.self)
        do {
            wrappedValue = try Value(hexText: text)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    /// Encodes the hexadecimal text (or `null` for an absent optional).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let absent = Value.absentValue, wrappedValue == absent {
            try container.encodeNil()
        } else {
            try container.encode(wrappedValue.hexText)
        }
    }

    /// The wrapped value as a Swift literal (for `nfcchips-gen`).
    package var wrappedSwiftLiteral: String { wrappedValue.swiftLiteral }
}

/// Lets `nfcchips-gen` see through ``Hex`` when it writes a value as Swift source.
package protocol HexWrapper {
    /// The wrapped value as a Swift literal.
    var wrappedSwiftLiteral: String { get }
}

extension KeyedDecodingContainer {
    /// A missing key decodes an optional ``Hex`` value as `nil`.
    package func decode<Wrapped: HexRepresentable>(_ type: Hex<Wrapped?>.Type, forKey key: Key) throws -> Hex<Wrapped?>
    {
        try decodeIfPresent(type, forKey: key) ?? Hex(wrappedValue: nil)
    }
}

extension KeyedEncodingContainer {
    /// A `nil` optional ``Hex`` value is left out of the JSON object.
    package mutating func encode<Wrapped: HexRepresentable>(_ value: Hex<Wrapped?>, forKey key: Key) throws {
        if let wrapped = value.wrappedValue {
            try encode(wrapped.hexText, forKey: key)
        }
    }
}
