/// NDEF messages and records (NFC Forum NDEF 1.0).
public enum NDEFPlaceholder {}
