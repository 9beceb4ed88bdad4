import NFCTagKit

/// The chip name the tool prints for a target: exact identification (GET_VERSION, the
/// Ultralight C probe, ATQA / SAK) through the device, `unknown` when the tag does not say.
enum TagNaming {
    static func chipName(of target: ISO14443ATarget, on device: NFCDevice) async -> String {
        let report = try? await TagIdentifier.identify(over: DeviceTagTransport(device: device, target: target))
        return report?.chip?.rawValue ?? "unknown"
    }
}
