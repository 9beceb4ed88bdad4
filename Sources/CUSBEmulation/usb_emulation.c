/*
 * The 14 libusb-0.1 functions Debian's libnfc 1.8.0 calls (nm -D --undefined-only on
 * libnfc.so.6), standing in for libusb in the client process through LD_PRELOAD.
 * Structures come from libusb-0.1's own <usb.h>, so libnfc reads them as it reads the
 * real ones. See include/nfctag_usb_emulation.h for the protocol to the emulator.
 */
#include "nfctag_usb_emulation.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <usb.h>

#define MAX_MESSAGE 4096
#define MAX_ENDPOINTS 8
/* How long an emulator may take to describe its device or answer a claim. A dead one is
 * refused at connect() at once; a live one on a machine loaded by other work may not get
 * the CPU for a while, and a device missing from the list fails libnfc's open. */
#define DESCRIBE_TIMEOUT_MS 5000

/* One virtual device: libusb's structures first, then what the emulator told us. */
struct virtual_device {
  struct usb_device device;
  struct usb_config_descriptor config;
  struct usb_interface interface;
  struct usb_interface_descriptor altsetting;
  struct usb_endpoint_descriptor endpoints[MAX_ENDPOINTS];
  char socket_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
  char strings[3][128]; /* manufacturer, product, serial: string indexes 1, 2, 3 */
  unsigned bus_number;
};

struct usb_dev_handle {
  int fd;
  struct virtual_device *device;
};

/* The published list. A new one is built aside and published whole, under the lock: a
 * process may list devices from several threads (one libnfc context each), and a caller
 * still walking an earlier list keeps it (lists are never freed). */
static struct usb_bus *busses;
static int device_count;
static pthread_mutex_t listing = PTHREAD_MUTEX_INITIALIZER;

int nfctag_usb_emulation_device_count(void) {
  pthread_mutex_lock(&listing);
  int count = device_count;
  pthread_mutex_unlock(&listing);
  return count;
}

static int connect_socket(const char *path) {
  struct sockaddr_un address;
  memset(&address, 0, sizeof(address));
  address.sun_family = AF_UNIX;
  if (strlen(path) >= sizeof(address.sun_path))
    return -1;
  strcpy(address.sun_path, path);
  int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
  if (fd < 0)
    return -1;
  if (connect(fd, (struct sockaddr *)&address, sizeof(address)) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

/* Waits up to timeout_ms (0: for ever) for one message; returns its length, 0 on timeout,
 * -1 when the emulator went away. */
static ssize_t receive_message(int fd, uint8_t *buffer, size_t size, int timeout_ms) {
  struct pollfd entry = { .fd = fd, .events = POLLIN, .revents = 0 };
  for (;;) {
    int ready = poll(&entry, 1, timeout_ms == 0 ? -1 : timeout_ms);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready < 0)
      return -1;
    if (ready == 0)
      return 0;
    ssize_t count = recv(fd, buffer, size, 0);
    if (count < 0 && errno == EINTR)
      continue;
    return count <= 0 ? -1 : count;
  }
}

static int send_message(int fd, uint8_t kind, const void *bytes, size_t count) {
  uint8_t message[MAX_MESSAGE];
  if (count + 1 > sizeof(message))
    return -EINVAL;
  message[0] = kind;
  if (count)
    memcpy(message + 1, bytes, count);
  if (send(fd, message, count + 1, MSG_NOSIGNAL) < 0)
    return -ENODEV;
  return 0;
}

static uint16_t le16(const uint8_t *bytes) { return (uint16_t)(bytes[0] | (bytes[1] << 8)); }

/* Asks the emulator at path to describe its device; NULL when nobody answers there. */
static struct virtual_device *describe(const char *path) {
  int fd = connect_socket(path);
  if (fd < 0)
    return NULL;
  uint8_t message[MAX_MESSAGE];
  ssize_t count = -1;
  if (send_message(fd, 'D', NULL, 0) == 0)
    count = receive_message(fd, message, sizeof(message), DESCRIBE_TIMEOUT_MS);
  close(fd);
  if (count < 11 || message[0] != 'D')
    return NULL;
  size_t endpoint_count = message[10];
  size_t offset = 11 + 4 * endpoint_count;
  if (endpoint_count > MAX_ENDPOINTS || (size_t)count < offset)
    return NULL;

  struct virtual_device *virtual = calloc(1, sizeof(*virtual));
  if (!virtual)
    return NULL;
  snprintf(virtual->socket_path, sizeof(virtual->socket_path), "%s", path);
  struct usb_device *device = &virtual->device;
  device->descriptor.bLength = USB_DT_DEVICE_SIZE;
  device->descriptor.bDescriptorType = USB_DT_DEVICE;
  device->descriptor.bcdUSB = 0x0110;
  device->descriptor.bMaxPacketSize0 = 8;
  device->descriptor.idVendor = le16(message + 1);
  device->descriptor.idProduct = le16(message + 3);
  device->descriptor.bcdDevice = le16(message + 5);
  device->descriptor.bNumConfigurations = 1;
  virtual->bus_number = message[7];
  device->devnum = message[8];
  snprintf(device->filename, sizeof(device->filename), "%03u", message[8]);
  device->config = &virtual->config;

  virtual->config.bLength = USB_DT_CONFIG_SIZE;
  virtual->config.bDescriptorType = USB_DT_CONFIG;
  virtual->config.bNumInterfaces = 1;
  virtual->config.bConfigurationValue = 1;
  virtual->config.interface = &virtual->interface;
  virtual->interface.num_altsetting = 1;
  virtual->interface.altsetting = &virtual->altsetting;
  virtual->altsetting.bLength = USB_DT_INTERFACE_SIZE;
  virtual->altsetting.bDescriptorType = USB_DT_INTERFACE;
  virtual->altsetting.bInterfaceClass = message[9];
  virtual->altsetting.bNumEndpoints = (uint8_t)endpoint_count;
  virtual->altsetting.endpoint = virtual->endpoints;
  for (size_t n = 0; n < endpoint_count; n++) {
    const uint8_t *entry = message + 11 + 4 * n;
    virtual->endpoints[n].bLength = USB_DT_ENDPOINT_SIZE;
    virtual->endpoints[n].bDescriptorType = USB_DT_ENDPOINT;
    virtual->endpoints[n].bEndpointAddress = entry[0];
    virtual->endpoints[n].bmAttributes = entry[1];
    virtual->endpoints[n].wMaxPacketSize = le16(entry + 2);
  }
  /* Three NUL-terminated strings; an empty one has no string index. */
  uint8_t *indexes[3] = { &device->descriptor.iManufacturer, &device->descriptor.iProduct,
                          &device->descriptor.iSerialNumber };
  for (int n = 0; n < 3 && offset < (size_t)count; n++) {
    const char *text = (const char *)message + offset;
    size_t length = strnlen(text, (size_t)count - offset);
    snprintf(virtual->strings[n], sizeof(virtual->strings[n]), "%.*s", (int)length, text);
    *indexes[n] = length ? (uint8_t)(n + 1) : 0;
    offset += length + 1;
  }
  return virtual;
}

void usb_init(void) {}

/* The buses come with the devices: usb_find_devices() builds both. */
int usb_find_busses(void) { return 0; }

/* The bus numbered n in the list at *head, added when first met. */
static struct usb_bus *bus_numbered(struct usb_bus **head, unsigned number) {
  struct usb_bus *last = NULL;
  for (struct usb_bus *bus = *head; bus; bus = bus->next) {
    if (bus->location == number)
      return bus;
    last = bus;
  }
  struct usb_bus *bus = calloc(1, sizeof(*bus));
  if (!bus)
    return NULL;
  bus->location = number;
  snprintf(bus->dirname, sizeof(bus->dirname), "%03u", number);
  bus->prev = last;
  if (last)
    last->next = bus;
  else
    *head = bus;
  return bus;
}

/* Adds the device whose emulator listens at path, if one answers there; returns 1 if it did. */
static int add_device(struct usb_bus **head, const char *path) {
  struct virtual_device *virtual = describe(path);
  if (!virtual)
    return 0;
  struct usb_bus *bus = bus_numbered(head, virtual->bus_number);
  if (!bus) {
    free(virtual);
    return 0;
  }
  struct usb_device *device = &virtual->device;
  device->bus = bus;
  struct usb_device **tail = &bus->devices;
  while (*tail) {
    device->prev = *tail;
    tail = &(*tail)->next;
  }
  *tail = device;
  return 1;
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

/* Every socket in directory, in name order: readers that come and go while the process runs. */
static int add_devices_in(struct usb_bus **head, const char *directory) {
  struct dirent **entries = NULL;
  int added = 0;
  int count = scandir(directory, &entries, NULL, by_name);
  for (int index = 0; index < count; index++) {
    char path[sizeof(((struct virtual_device *)0)->socket_path)];
    struct stat status;
    if (snprintf(path, sizeof(path), "%s/%s", directory, entries[index]->d_name) < (int)sizeof(path)
        && stat(path, &status) == 0 && S_ISSOCK(status.st_mode))
      added += add_device(head, path);
    free(entries[index]);
  }
  free(entries);
  return added;
}

int usb_find_devices(void) {
  const char *paths = getenv(NFCTAG_USB_EMULATION_ENV);
  char *copy = paths ? strdup(paths) : NULL;
  if (paths && !copy)
    return -ENOMEM;
  /* Earlier lists stay allocated: a caller may still hold a device from them. */
  struct usb_bus *found = NULL;
  int count = 0;
  char *saved = NULL;
  for (char *path = copy ? strtok_r(copy, ":", &saved) : NULL; path; path = strtok_r(NULL, ":", &saved)) {
    struct stat status;
    if (stat(path, &status) == 0 && S_ISDIR(status.st_mode))
      count += add_devices_in(&found, path);
    else
      count += add_device(&found, path);
  }
  free(copy);
  pthread_mutex_lock(&listing);
  int previous = device_count;
  busses = found;
  device_count = count;
  pthread_mutex_unlock(&listing);
  return abs(count - previous);
}

struct usb_bus *usb_get_busses(void) {
  pthread_mutex_lock(&listing);
  struct usb_bus *list = busses;
  pthread_mutex_unlock(&listing);
  return list;
}

usb_dev_handle *usb_open(struct usb_device *device) {
  struct virtual_device *virtual = (struct virtual_device *)device;
  usb_dev_handle *handle = calloc(1, sizeof(*handle));
  if (!handle)
    return NULL;
  handle->fd = connect_socket(virtual->socket_path);
  if (handle->fd < 0) {
    free(handle);
    return NULL;
  }
  handle->device = virtual;
  return handle;
}

int usb_close(usb_dev_handle *handle) {
  if (!handle)
    return -EINVAL;
  close(handle->fd);
  free(handle);
  return 0;
}

/* One configuration, one interface, one alternate setting: nothing to choose. */
int usb_set_configuration(usb_dev_handle *handle, int configuration) {
  return handle && configuration == 1 ? 0 : -EINVAL;
}

int usb_set_altinterface(usb_dev_handle *handle, int alternate) {
  return handle && alternate == 0 ? 0 : -EINVAL;
}

int usb_claim_interface(usb_dev_handle *handle, int interface) {
  if (!handle || interface != 0)
    return -EINVAL;
  int res = send_message(handle->fd, 'C', NULL, 0);
  if (res < 0)
    return res;
  uint8_t answer[2];
  ssize_t count = receive_message(handle->fd, answer, sizeof(answer), DESCRIBE_TIMEOUT_MS);
  if (count != 2 || answer[0] != 'C')
    return -ENODEV;
  return -(int)answer[1];
}

int usb_release_interface(usb_dev_handle *handle, int interface) {
  if (!handle || interface != 0)
    return -EINVAL;
  return send_message(handle->fd, 'L', NULL, 0);
}

int usb_reset(usb_dev_handle *handle) {
  if (!handle)
    return -EINVAL;
  return send_message(handle->fd, 'R', NULL, 0);
}

int usb_get_string_simple(usb_dev_handle *handle, int index, char *buffer, size_t length) {
  if (!handle || !buffer || length == 0)
    return -EINVAL;
  if (index < 1 || index > 3 || !handle->device->strings[index - 1][0])
    return -EPIPE; /* a stalled control request, as for a string the device lacks */
  snprintf(buffer, length, "%s", handle->device->strings[index - 1]);
  return (int)strlen(buffer);
}

int usb_bulk_write(usb_dev_handle *handle, int endpoint, const char *bytes, int size, int timeout) {
  (void)endpoint;
  (void)timeout; /* the socket takes a transfer at once, as an idle bulk OUT endpoint does */
  if (!handle || size < 0)
    return -EINVAL;
  if (size == 0)
    return 0; /* a zero-length packet only ends a transfer */
  int res = send_message(handle->fd, 'O', bytes, (size_t)size);
  return res < 0 ? res : size;
}

/* One IN transfer, or -ETIMEDOUT when the device sends nothing within timeout (0: wait for
 * ever, as libusb does); what is not read stays queued for the next read, as in the pipe. */
int usb_bulk_read(usb_dev_handle *handle, int endpoint, char *bytes, int size, int timeout) {
  (void)endpoint;
  if (!handle || size < 0)
    return -EINVAL;
  uint8_t message[MAX_MESSAGE];
  for (;;) {
    ssize_t count = receive_message(handle->fd, message, sizeof(message), timeout);
    if (count == 0)
      return -ETIMEDOUT;
    if (count < 0)
      return -ENODEV;
    if (message[0] != 'I')
      continue;
    size_t length = (size_t)count - 1;
    if (length > (size_t)size)
      return -EOVERFLOW;
    memcpy(bytes, message + 1, length);
    return (int)length;
  }
}
