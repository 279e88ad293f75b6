#ifndef HEALTHSIGNIN_LIBCURL_SHIM_H
#define HEALTHSIGNIN_LIBCURL_SHIM_H

// libcurl's options are set through variadic functions, which Swift cannot call: each argument type gets a typed
// wrapper here. The TLS context hook also lives here, since it is called with OpenSSL's types.
#include <curl/curl.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/prctl.h>

/// Names the calling thread, as debuggers and /proc show it (at most 15 bytes are kept); prctl is variadic too.
static inline void healthsignin_name_thread(const char *name) {
    prctl(PR_SET_NAME, name, 0, 0, 0);
}

static inline CURLcode healthsignin_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode healthsignin_easy_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode healthsignin_easy_setopt_pointer(CURL *handle, CURLoption option, const void *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*healthsignin_data_callback)(char *bytes, size_t size, size_t count, void *context);
typedef int (*healthsignin_progress_callback)(void *context, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

static inline CURLcode healthsignin_easy_setopt_data_callback(
    CURL *handle, CURLoption option, healthsignin_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode healthsignin_easy_setopt_progress_callback(
    CURL *handle, healthsignin_progress_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode healthsignin_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode healthsignin_easy_getinfo_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode healthsignin_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

/// A store of the certificate authorities the system trusts (OpenSSL's default locations, which `SSL_CERT_FILE` and
/// `SSL_CERT_DIR` override) and those of `additionalFile` (may be NULL); NULL when a file cannot be read. Made once
/// per transport: reading them again for each connection costs more than its handshake.
static inline X509_STORE *healthsignin_make_store(const char *additionalFile) {
    X509_STORE *store = X509_STORE_new();
    if (store == NULL) return NULL;
    if (X509_STORE_set_default_paths(store) != 1
        || (additionalFile != NULL && X509_STORE_load_locations(store, additionalFile, NULL) != 1)) {
        X509_STORE_free(store);
        return NULL;
    }
    return store;
}

/// What the TLS context hook needs: the host the certificate must name, and the store of trusted authorities; with an
/// `https` proxy, the proxy's host too. Owned by the transfer, which outlives its connections' handshakes.
typedef struct {
    const char *host;
    int hostIsAddress;
    /// Whether the target is reached over TLS (an `https` URL).
    int hostIsTLS;
    /// The `https` proxy's host, or NULL when there is none.
    const char *proxyHost;
    int proxyHostIsAddress;
    /// How many handshakes the hook has set up, to tell the proxy's from the target's.
    long handshakes;
    X509_STORE *authorities;
} healthsignin_tls_settings;

/// Whether a TLS connection's peer said it was done (`close_notify`) before the connection ended: a body framed by
/// the connection's end is whole only then, since anyone on the path can end a TCP connection. libcurl cannot tell
/// (its OpenSSL reads take an unannounced end for a clean one), so the TLS hook keeps one of these with each
/// connection's context, and a transfer holds it too while it reads a response framed so. Counted references:
/// the connection's context and the transfer free it together.
typedef struct {
    atomic_int references;
    atomic_int closeNotified;
} healthsignin_tls_close;

static inline void healthsignin_tls_close_release(healthsignin_tls_close *close) {
    if (close != NULL && atomic_fetch_sub(&close->references, 1) == 1) free(close);
}

static inline int healthsignin_tls_close_notified(const healthsignin_tls_close *close) {
    return atomic_load(&((healthsignin_tls_close *)close)->closeNotified);
}

static inline void healthsignin_tls_close_free(
    void *parent, void *pointer, CRYPTO_EX_DATA *data, int index, long argl, void *argp) {
    (void)parent, (void)data, (void)index, (void)argl, (void)argp;
    healthsignin_tls_close_release((healthsignin_tls_close *)pointer);
}

static int healthsignin_tls_close_index_value = -1;
static pthread_once_t healthsignin_tls_close_index_once = PTHREAD_ONCE_INIT;

static inline void healthsignin_tls_close_make_index(void) {
    healthsignin_tls_close_index_value =
        SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, healthsignin_tls_close_free);
}

/// The slot of each context's `healthsignin_tls_close`, made once per process.
static inline int healthsignin_tls_close_index(void) {
    pthread_once(&healthsignin_tls_close_index_once, healthsignin_tls_close_make_index);
    return healthsignin_tls_close_index_value;
}

/// Notes a `close_notify` alert read from the peer.
static inline void healthsignin_tls_info(const SSL *ssl, int where, int value) {
    // Both bits: a written alert (libcurl's own close_notify as it closes) shares SSL_CB_ALERT.
    if ((where & SSL_CB_READ_ALERT) != SSL_CB_READ_ALERT || (value & 0xff) != SSL_AD_CLOSE_NOTIFY) return;
    healthsignin_tls_close *close =
        SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), healthsignin_tls_close_index());
    if (close != NULL) atomic_store(&close->closeNotified, 1);
}

/// Gives a new connection's context its `healthsignin_tls_close`; 0 when it cannot.
static inline int healthsignin_tls_track_close(SSL_CTX *tls) {
    int index = healthsignin_tls_close_index();
    if (index < 0) return 0;
    healthsignin_tls_close *close = malloc(sizeof(healthsignin_tls_close));
    if (close == NULL) return 0;
    atomic_init(&close->references, 1);
    atomic_init(&close->closeNotified, 0);
    if (SSL_CTX_set_ex_data(tls, index, close) != 1) {
        free(close);
        return 0;
    }
    SSL_CTX_set_info_callback(tls, healthsignin_tls_info);
    return 1;
}

/// The `healthsignin_tls_close` of the connection `handle` reads from now, with a reference the caller releases; NULL
/// when the connection is not TLS through OpenSSL or has none.
static inline healthsignin_tls_close *healthsignin_tls_close_of(CURL *handle) {
    struct curl_tlssessioninfo *info = NULL;
    if (curl_easy_getinfo(handle, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || info == NULL
        || info->backend != CURLSSLBACKEND_OPENSSL || info->internals == NULL) {
        return NULL;
    }
    int index = healthsignin_tls_close_index();
    if (index < 0) return NULL;
    healthsignin_tls_close *close = SSL_CTX_get_ex_data(SSL_get_SSL_CTX((SSL *)info->internals), index);
    if (close != NULL) atomic_fetch_add(&close->references, 1);
    return close;
}

/// Checks the server's name as RFC 9525 says, in OpenSSL's verification itself: only the subject alternative names
/// count (never the subject's common name), and a wildcard is a whole left-most label. Trusts the transport's store.
///
/// libcurl calls the hook for each TLS handshake of a new connection, an `https` proxy's included, one after the
/// other on the transfer's thread: through an `https` proxy to an `https` target, the proxy's handshake comes first
/// and the tunnelled one second, so odd calls check the proxy's name and even ones the target's. A connection that
/// is reused makes no handshake. Were the order ever other, each certificate would be checked against the other
/// peer's name and the handshake refused: the check fails closed.
static inline CURLcode healthsignin_tls_context(CURL *handle, void *context, void *settingsPointer) {
    (void)handle;
    SSL_CTX *tls = (SSL_CTX *)context;
    healthsignin_tls_settings *settings = (healthsignin_tls_settings *)settingsPointer;
    if (SSL_CTX_set_min_proto_version(tls, TLS1_2_VERSION) != 1) return CURLE_SSL_CIPHER;
    if (settings->authorities == NULL) return CURLE_SSL_CACERT_BADFILE;
    SSL_CTX_set1_cert_store(tls, settings->authorities);
    const char *host = settings->host;
    int isAddress = settings->hostIsAddress;
    if (settings->proxyHost != NULL) {
        int toProxy = !settings->hostIsTLS || settings->handshakes % 2 == 0;
        settings->handshakes += 1;
        if (toProxy) {
            host = settings->proxyHost;
            isAddress = settings->proxyHostIsAddress;
        }
    }
    X509_VERIFY_PARAM *parameters = SSL_CTX_get0_param(tls);
    X509_VERIFY_PARAM_set_hostflags(
        parameters, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS | X509_CHECK_FLAG_NEVER_CHECK_SUBJECT);
    int set = isAddress ? X509_VERIFY_PARAM_set1_ip_asc(parameters, host)
                        : X509_VERIFY_PARAM_set1_host(parameters, host, 0);
    if (set != 1 || !healthsignin_tls_track_close(tls)) return CURLE_SSL_CONNECT_ERROR;
    return CURLE_OK;
}

static inline CURLcode healthsignin_easy_set_tls_hook(CURL *handle, healthsignin_tls_settings *settings) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, healthsignin_tls_context);
    if (code != CURLE_OK) return code;
    return curl_easy_setopt(handle, CURLOPT_SSL_CTX_DATA, (void *)settings);
}

#endif
