#ifndef HEALTHSIGNIN_LIBCRYPTO_SHIM_H
#define HEALTHSIGNIN_LIBCRYPTO_SHIM_H

// The few libcrypto entry points the runtime uses on platforms without CryptoKit.
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/x509.h>

#endif
