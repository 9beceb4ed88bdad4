/// Tag protocols over a TagTransport: Type 2, NTAG21x, Ultralight, Classic, Type 4.
public enum NFCTagsPlaceholder {}
