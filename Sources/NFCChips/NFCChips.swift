public enum NFCChipsPlaceholder {}
