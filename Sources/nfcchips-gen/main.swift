import NFCChips
print("nfcchips-gen")
