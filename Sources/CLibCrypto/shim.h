// OpenSSL libcrypto: ECDSA on secp128r1 (originality signatures), 3DES (Ultralight C).
#ifndef NFCTAGKIT_CLIBCRYPTO_SHIM_H
#define NFCTAGKIT_CLIBCRYPTO_SHIM_H
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/obj_mac.h>
#include <openssl/err.h>
#endif
