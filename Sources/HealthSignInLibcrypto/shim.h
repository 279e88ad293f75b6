#ifndef HEALTHSIGNIN_LIBCRYPTO_SHIM_H
#define HEALTHSIGNIN_LIBCRYPTO_SHIM_H

// The few libcrypto and libssl entry points the runtime uses on platforms without CryptoKit and Security.
#include <openssl/bio.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>

// Swift cannot call function-like macros, so the few the TLS client needs are wrapped here.

static inline int healthsignin_ssl_ctx_set_min_tls12(SSL_CTX *context) {
    return (int)SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
}

static inline int healthsignin_ssl_set_server_name(SSL *ssl, const char *name) {
    return (int)SSL_set_tlsext_host_name(ssl, name);
}

#endif
