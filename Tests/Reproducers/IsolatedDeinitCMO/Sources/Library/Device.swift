/// A public actor whose deinit runs isolated to it (SE-0371).
public actor Device {
    public init() {}
    isolated deinit { print("closed") }
}
