/// The public face of NFCTagKit: NFCDevice, discovery, sessions.
public enum NFCTagKitPlaceholder {}
