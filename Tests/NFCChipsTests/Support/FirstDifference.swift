/// The path of the first leaf where two values differ (walked with `Mirror`), or `nil`.
///
/// Used so a failing table comparison names the field instead of dumping both tables.
func firstDifference(_ lhs: Any, _ rhs: Any, path: String = "") -> String? {
    let left = Mirror(reflecting: lhs)
    let right = Mirror(reflecting: rhs)
    let leftChildren = Array(left.children)
    let rightChildren = Array(right.children)
    if leftChildren.isEmpty || rightChildren.isEmpty {
        let a = String(describing: lhs)
        let b = String(describing: rhs)
        return a == b ? nil : "\(path.isEmpty ? "(root)" : path): \(a) ≠ \(b)"
    }
    if leftChildren.count != rightChildren.count {
        return "\(path): \(leftChildren.count) elements ≠ \(rightChildren.count)"
    }
    for (index, (a, b)) in zip(leftChildren, rightChildren).enumerated() {
        let label = a.label.map { "." + ($0.hasPrefix("_") ? String($0.dropFirst()) : $0) } ?? "[\(index)]"
        if let difference = firstDifference(a.value, b.value, path: path + label) { return difference }
    }
    return nil
}
