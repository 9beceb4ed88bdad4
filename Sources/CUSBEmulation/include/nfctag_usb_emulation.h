/*
 * NFCTagKit's USB stand-in: a libusb-0.1 look-alike, loaded into a client process with
 * LD_PRELOAD, that presents the emulator's virtual USB readers to libnfc and carries
 * their bulk transfers over Unix-domain sockets (SOCK_SEQPACKET, one message per transfer).
 *
 * The environment variable NFCTAG_USB_EMULATION names the sockets, separated by ':'. An entry
 * that is a directory stands for every socket in it, read again at each usb_find_devices():
 * readers that start and stop while the process runs (a test process's own readers).
 *
 * Wire protocol, one message per datagram, first byte the kind:
 *   client -> emulator   'D'            describe the device
 *                        'C'            claim the interface        (answer 'C' status)
 *                        'L'            release the interface
 *                        'R'            USB port reset
 *                        'O' bytes…     one bulk OUT transfer
 *   emulator -> client   'D' descriptor (layout below)
 *                        'C' status     0 = claimed, else an errno (EBUSY)
 *                        'I' bytes…     one bulk IN transfer
 * Descriptor: idVendor(2, LE) idProduct(2) bcdDevice(2) bus(1) address(1)
 *   bInterfaceClass(1) bNumEndpoints(1), per endpoint bEndpointAddress(1) bmAttributes(1)
 *   wMaxPacketSize(2), then manufacturer, product and serial strings, each NUL-terminated.
 *
 * No logic of a reader lives here: what a reader answers is the emulator's business.
 */
#ifndef NFCTAG_USB_EMULATION_H
#define NFCTAG_USB_EMULATION_H

#define NFCTAG_USB_EMULATION_ENV "NFCTAG_USB_EMULATION"

/* Returns the number of virtual devices found at the last usb_find_devices(). */
int nfctag_usb_emulation_device_count(void);

#endif
