// The C side of NFCTagKit's libnfc wrapper: libnfc's public header, plus the few
// static inline helpers that Swift cannot express directly.
#ifndef NFCTAGKIT_CLIBNFC_SHIM_H
#define NFCTAGKIT_CLIBNFC_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>
#include <nfc/nfc.h>

/// Size of one libnfc connection string buffer (`nfc_connstring`), for Swift callers.
static inline size_t nfctagkit_connstring_size(void) { return sizeof(nfc_connstring); }

/// `nfc_list_devices` into a flat buffer of `count` connection strings of
/// `nfctagkit_connstring_size()` bytes each (Swift cannot spell `nfc_connstring[]`).
static inline size_t nfctagkit_list_devices(nfc_context *context, char *buffer, size_t count) {
    return nfc_list_devices(context, (nfc_connstring *)buffer, count);
}

/// `nfc_open` with a connection string copied into a full `nfc_connstring` buffer, so
/// libnfc never reads past the end of a shorter Swift string. NULL opens the default device.
static inline nfc_device *nfctagkit_open(nfc_context *context, const char *connstring) {
    if (connstring == NULL) {
        return nfc_open(context, NULL);
    }
    nfc_connstring buffer;
    memset(buffer, 0, sizeof(buffer));
    strncpy(buffer, connstring, sizeof(buffer) - 1);
    return nfc_open(context, buffer);
}

#endif
