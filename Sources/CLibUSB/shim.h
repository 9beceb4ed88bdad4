// libusb-1.0 for reader hot-plug (arrival / departure, USB serial numbers).
#ifndef NFCTAGKIT_CLIBUSB_SHIM_H
#define NFCTAGKIT_CLIBUSB_SHIM_H
#include <libusb.h>
#endif
