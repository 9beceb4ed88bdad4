import Foundation

import NFCChips

/// Writes a table value as Swift source by walking it with `Mirror`.
///
/// Structs become memberwise-initializer calls (stored properties in declaration order,
/// `@Hex` wrappers seen through), arrays become array literals, payload-free enums
/// become `Type.case`, optionals become the wrapped literal or `nil`.
struct SwiftLiteralEmitter {
    /// The module prefix stripped from type names.
    var moduleName = "NFCChips"

    enum EmitError: Error, CustomStringConvertible {
        case unsupported(type: String, path: String)
        var description: String {
            switch self {
            case let .unsupported(type, path): "cannot write a \(type) as a Swift literal (at \(path))"
            }
        }
    }

    func literal(_ value: Any, indent: Int = 0, path: String = "") throws -> String {
        if let hex = value as? any HexWrapper { return hex.wrappedSwiftLiteral }
        if let text = value as? String { return Self.stringLiteral(text) }
        if let flag = value as? Bool { return flag ? "true" : "false" }
        if let number = value as? Int { return String(number) }
        if let number = value as? Double { return String(number) }
        if let number = value as? any HexRepresentable { return number.swiftLiteral }

        let mirror = Mirror(reflecting: value)
        let pad = String(repeating: "    ", count: indent + 1)
        let closingPad = String(repeating: "    ", count: indent)
        switch mirror.displayStyle {
        case .optional:
            guard let wrapped = mirror.children.first else { return "nil" }
            return try literal(wrapped.value, indent: indent, path: path)
        case .collection:
            if mirror.children.isEmpty { return "[]" }
            var items: [String] = []
            for (index, child) in mirror.children.enumerated() {
                items.append(pad + (try literal(child.value, indent: indent + 1, path: "\(path)[\(index)]")))
            }
            return "[\n" + items.joined(separator: ",\n") + ",\n" + closingPad + "]"
        case .struct:
            let name = typeName(of: value)
            if mirror.children.isEmpty { return name + "()" }
            var arguments: [String] = []
            for child in mirror.children {
                var label = child.label ?? "_"
                if label.hasPrefix("_") { label.removeFirst() }
                let text = try literal(child.value, indent: indent + 1, path: path + "." + label)
                arguments.append(pad + label + ": " + text)
            }
            return name + "(\n" + arguments.joined(separator: ",\n") + "\n" + closingPad + ")"
        case .enum where mirror.children.isEmpty:
            return typeName(of: value) + "." + String(describing: value)
        default:
            throw EmitError.unsupported(type: typeName(of: value), path: path)
        }
    }

    func typeName(of value: Any) -> String {
        String(reflecting: type(of: value)).replacingOccurrences(of: moduleName + ".", with: "")
    }

    static func stringLiteral(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
