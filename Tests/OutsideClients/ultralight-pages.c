/*
 * A small client of libfreefare's MIFARE Ultralight API, built and run by
 * Tests/NFCEmulatorTests/EndToEndOutsideClientTests.swift against the emulated PN532
 * (LIBNFC_DEVICE names it). Usage: ultralight-pages PAGE B0 B1 B2 B3
 * Writes the four bytes to PAGE, reads PAGE back and prints, for the first tag found:
 *   type <friendly name>
 *   uid <hex>
 *   page <PAGE> before <hex>
 *   page <PAGE> after <hex>
 * Exit status 0 when the read-back equals the bytes written.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <nfc/nfc.h>
#include <freefare.h>

static void print_page(const char *label, int page, const MifareUltralightPage data)
{
    printf("page %02x %s %02x %02x %02x %02x\n", page, label, data[0], data[1], data[2], data[3]);
}

int main(int argc, char *argv[])
{
    if (argc != 6) {
        fprintf(stderr, "usage: %s PAGE B0 B1 B2 B3 (hex)\n", argv[0]);
        return 2;
    }
    int page = (int) strtol(argv[1], NULL, 16);
    MifareUltralightPage wanted;
    for (int i = 0; i < 4; i++)
        wanted[i] = (unsigned char) strtol(argv[2 + i], NULL, 16);

    nfc_context *context;
    nfc_init(&context);
    if (!context) {
        fprintf(stderr, "nfc_init failed\n");
        return 1;
    }
    nfc_device *device = nfc_open(context, NULL);
    if (!device) {
        fprintf(stderr, "nfc_open failed\n");
        nfc_exit(context);
        return 1;
    }
    int status = 1;
    MifareTag *tags = freefare_get_tags(device);
    if (!tags || !tags[0]) {
        fprintf(stderr, "no tag\n");
        goto done;
    }
    MifareTag tag = tags[0];
    enum mifare_tag_type type = freefare_get_tag_type(tag);
    if (type != ULTRALIGHT && type != ULTRALIGHT_C) {
        fprintf(stderr, "not an Ultralight: %s\n", freefare_get_tag_friendly_name(tag));
        goto done;
    }
    char *uid = freefare_get_tag_uid(tag);
    printf("type %s\nuid %s\n", freefare_get_tag_friendly_name(tag), uid);
    free(uid);
    if (mifare_ultralight_connect(tag) < 0) {
        freefare_perror(tag, "mifare_ultralight_connect");
        goto done;
    }
    MifareUltralightPage before, after;
    if (mifare_ultralight_read(tag, page, &before) < 0) {
        freefare_perror(tag, "mifare_ultralight_read");
        goto done;
    }
    print_page("before", page, before);
    if (mifare_ultralight_write(tag, page, wanted) < 0) {
        freefare_perror(tag, "mifare_ultralight_write");
        goto done;
    }
    if (mifare_ultralight_read(tag, page, &after) < 0) {
        freefare_perror(tag, "mifare_ultralight_read");
        goto done;
    }
    print_page("after", page, after);
    mifare_ultralight_disconnect(tag);
    status = memcmp(after, wanted, sizeof(wanted)) == 0 ? 0 : 1;
done:
    freefare_free_tags(tags);
    nfc_close(device);
    nfc_exit(context);
    return status;
}
