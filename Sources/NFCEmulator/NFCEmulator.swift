/// An emulated PN532 reader with datasheet-faithful tags.
public enum NFCEmulatorPlaceholder {}
