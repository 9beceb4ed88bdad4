// The C side of NFCTagKit's libnfc wrapper: libnfc's public header, plus the few
// static inline helpers that Swift cannot express directly.
#ifndef NFCTAGKIT_CLIBNFC_SHIM_H
#define NFCTAGKIT_CLIBNFC_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <nfc/nfc.h>

/// Size of one libnfc connection string buffer (`nfc_connstring`), for Swift callers.
static inline size_t nfctagkit_connstring_size(void) { return sizeof(nfc_connstring); }

#endif
