import NDEF
import NFCChips
print("nfctag")
