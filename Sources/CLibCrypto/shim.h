// OpenSSL libcrypto: ECDSA on secp128r1 (originality signatures), 3DES (Ultralight C), HMAC-SHA256 (per-tag passwords, through EVP_Q_mac).
#ifndef NFCTAGKIT_CLIBCRYPTO_SHIM_H
#define NFCTAGKIT_CLIBCRYPTO_SHIM_H
#include <stddef.h>
#include <stdint.h>
#include <openssl/evp.h>
#include <openssl/ec.h>
#include <openssl/ecdsa.h>
#include <openssl/bn.h>
#include <openssl/obj_mac.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

/// Verifies an ECDSA signature r ‖ s (each `half` bytes, big-endian) over `digest`, used
/// as is (no hashing), with the uncompressed public point `pub` on the named curve.
/// Returns 1 when valid, 0 when invalid, -1 when the key or curve cannot be used.
/// Only non-deprecated OpenSSL 3 EVP calls are used.
static inline int nfctagkit_ecdsa_verify_prehashed(const char *curve,
                                                   const unsigned char *pub, size_t publen,
                                                   const unsigned char *digest, size_t digestlen,
                                                   const unsigned char *sig, size_t half) {
    int result = -1;
    EVP_PKEY_CTX *keyctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    EVP_PKEY *pkey = NULL;
    EVP_PKEY_CTX *verifyctx = NULL;
    ECDSA_SIG *signature = NULL;
    BIGNUM *r = NULL, *s = NULL;
    unsigned char *der = NULL;
    int derlen = 0;
    OSSL_PARAM params[3];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME, (char *)curve, 0);
    params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY, (void *)pub, publen);
    params[2] = OSSL_PARAM_construct_end();
    if (keyctx == NULL || EVP_PKEY_fromdata_init(keyctx) <= 0) goto done;
    if (EVP_PKEY_fromdata(keyctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0 || pkey == NULL) goto done;
    signature = ECDSA_SIG_new();
    r = BN_bin2bn(sig, (int)half, NULL);
    s = BN_bin2bn(sig + half, (int)half, NULL);
    if (signature == NULL || r == NULL || s == NULL) goto done;
    if (ECDSA_SIG_set0(signature, r, s) != 1) goto done;
    r = NULL; s = NULL; /* owned by signature now */
    derlen = i2d_ECDSA_SIG(signature, &der);
    if (derlen <= 0) goto done;
    verifyctx = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
    if (verifyctx == NULL || EVP_PKEY_verify_init(verifyctx) <= 0) goto done;
    result = EVP_PKEY_verify(verifyctx, der, (size_t)derlen, digest, digestlen) == 1 ? 1 : 0;
done:
    OPENSSL_free(der);
    BN_free(r);
    BN_free(s);
    ECDSA_SIG_free(signature);
    EVP_PKEY_CTX_free(verifyctx);
    EVP_PKEY_free(pkey);
    EVP_PKEY_CTX_free(keyctx);
    ERR_clear_error();
    return result;
}

/// Encrypts (`encrypt` = 1) or decrypts (0) `length` bytes (a multiple of the block size)
/// with the named block cipher in CBC mode, without padding. Returns 1 on success.
static inline int nfctagkit_cipher_cbc(const char *cipher, int encrypt,
                                       const unsigned char *key, const unsigned char *iv,
                                       const unsigned char *input, size_t length, unsigned char *output) {
    int ok = 0, written = 0, final = 0;
    EVP_CIPHER *algorithm = EVP_CIPHER_fetch(NULL, cipher, NULL);
    EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
    if (algorithm == NULL || ctx == NULL) goto done;
    if (EVP_CipherInit_ex2(ctx, algorithm, key, iv, encrypt, NULL) != 1) goto done;
    if (EVP_CIPHER_CTX_set_padding(ctx, 0) != 1) goto done;
    if (EVP_CipherUpdate(ctx, output, &written, input, (int)length) != 1) goto done;
    if (EVP_CipherFinal_ex(ctx, output + written, &final) != 1) goto done;
    ok = (size_t)(written + final) == length;
done:
    EVP_CIPHER_CTX_free(ctx);
    EVP_CIPHER_free(algorithm);
    ERR_clear_error();
    return ok;
}
#endif
