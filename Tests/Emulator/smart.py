"""The SMART part of the emulator: a SMART App Launch 2.x and Backend Services authorization server built on Authlib
(its OAuth 2.0 authorization server, grants, PKCE, OpenID Connect, RFC 7523 client assertions, RFC 7009 revocation
and RFC 7662 introspection) with a small FHIR endpoint.

Server rules, as the SMART wire reference describes them (section numbers of smart.md in brackets), and where the
SMART profile changes Authlib's defaults (smart.md 15.2, E1-E30):
- discovery at {base}/.well-known/smart-configuration with absolute URLs and one member clients must keep [3];
  the CapabilityStatement at {base}/metadata carries the nested oauth-uris extension for older clients [3.5];
- authorize (GET or POST) needs a registered client and exact redirect_uri (else 400 JSON, no redirect), state,
  aud equal to the FHIR base, PKCE with S256 only, and for an EHR launch a launch id minted for this client with
  the launch scope; errors after that are redirected with state [5.3, 10.1];
- the token endpoint redeems single-use codes (60 s) with the PKCE verifier for every client type, refreshes with
  rotation (the old refresh token dies), and issues client_credentials tokens (300 s, no refresh token) [5.5-7];
- clients authenticate only by the method they registered: none (client_id in the body, also on refresh),
  client_secret_basic (id and secret percent-decoded, RFC 6749 2.3.1), or private_key_jwt: RS384 or ES384, typ JWT,
  kid, iss = sub = client, aud = the endpoint's URL, exp at most 5 minutes ahead (60 s leeway), a jti never seen
  before [6.3];
- a refresh token only with offline_access or online_access; an id token (RS256, or ES256 with id_token_alg, kid,
  aud as an array, nonce, at_hash, fhirUser) with openid [9];
- strict_openid makes it behave as a certified, strict OpenID provider [17]: offline_access is granted only with
  prompt=consent (else dropped, with no refresh token), every authorization response (errors too) carries iss and the
  metadata says so (RFC 9207), and a refresh response carries a new id token (same iss, sub, aud, azp, auth_time;
  no nonce);
- a mix-up attacker at /evil (its own SMART configuration and issuer, or the one evil_issuer claims): its authorize
  endpoint sends the browser on to this server's with the same client_id, state, PKCE challenge and redirect_uri,
  and its token endpoint records what it is sent; served on a second origin too (/_control/second-origin);
- variants for the tests of a client's trust: the issuer on another host (issuer), an authorization endpoint with a
  query of its own (authorize_endpoint_query), a lenient server that accepts a registered redirect URI with a query
  added (lenient_redirect_uri), a token response member nested token_member_depth deep;
- revocation (RFC 7009) answers 200 for unknown tokens and ends the access tokens of a revoked refresh token;
  introspection (RFC 7662) takes a bearer token issued here or client authentication [8];
- the FHIR stub answers 401 invalid_token for an expired, revoked or unknown token (with an OperationOutcome of code
  security too under fhir_refusal_outcome, as some FHIR servers explain it) and 403 insufficient_scope.
The server's clock (clock_offset_seconds) applies to codes, tokens and id tokens; Authlib checks an assertion's
exp against the real clock.
"""
import secrets
import threading
import time
from urllib.parse import parse_qs, urlencode

from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6749 import ClientMixin, InvalidClientError, InvalidRequestError, InvalidScopeError, grants
from authlib.oauth2.rfc6750 import BearerTokenGenerator, InvalidTokenError
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7523 import JWTBearerClientAssertion
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oauth2.rfc7662 import IntrospectionEndpoint
from authlib.oidc.core import AuthorizationCodeMixin
from authlib.oidc.core.grants import OpenIDCode
from flask import Blueprint, jsonify, request
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import ECKey, KeySet, RSAKey

BASE = "/smart"
FHIR = BASE + "/fhir"
REDIRECTS = ["http://127.0.0.1/smart/callback", "sdkdemo://smart/callback"]
USER_SCOPES = {"launch", "launch/patient", "launch/encounter", "openid", "fhirUser", "profile", "offline_access",
               "online_access", "patient/*.rs", "patient/Patient.rs", "patient/Observation.rs", "user/*.rs",
               "user/Patient.rs", "patient/*.read", "user/*.read"}
# The SMART IG's example public keys (RS384 and P-384), registered for the asymmetric and backend clients.
IG_KEYS = {"keys": [
    {"kty": "RSA", "alg": "RS384", "kid": "eee9f17a3b598fd86417a980b591fbe6", "e": "AQAB",
     "n": "wJq2RHIA-7RT6q4go7wjcbHdW7ck7Kz22A8wf-kN7Wi5CWvhFG2_Y7nQp1lDpb2IKMQr-Q4n_vgJ6d5rWPspJpSPY7iffUK4ipQCEbzID5DJ"
          "6fQMBZOfCTXyxkuMh3jYGKEF3Ziw2oxbM1H9j-eJAPtrj5stUG6kVoXowegdox-bSjWP0iI5PnkwUNzcekLMug4M3LRluEQgGR9O_BAML6-w3i"
          "gZ_rZA_gunyrLAMbfmCVaceW5ohLp679kyM7U6W2gDK_NbkDKcINUakVmPeoG5h8RzgGzvGrySR0k0VDFiZv60Ua07DqHTeDGH9e4NV07AECae"
          "-oykIj5NDCs3pw"},
    {"kty": "EC", "crv": "P-384", "alg": "ES384", "kid": "afb27c284f2d93959c18fa0320e32060",
     "x": "wcE8O55ro6aOuTf5Ty1k_IG4mTcuLiVercHouge1G5Ri-leevhev4uJzlHpi3U8r",
     "y": "mLRgz8Giu6XA_AqG8bywqbygShmd8jowflrdx0KQtM5X4s4aqDeCRfcpexykp3aI"},
]}
DEFAULT_SETTINGS = {
    "token_lifetime": 3600, "keep_old_refresh_valid": False, "pkce": "required", "id_token_aud": "array",
    "id_token_tamper": False, "id_token_issuer": None, "id_token_nonce": None, "id_token_expired": False,
    "fhir_user": "Practitioner/smart-practitioner-1", "standalone_patient": "smart-patient-1",
    "clock_offset_seconds": 0, "drop_offline_access_from_scope": False, "expires_in_as_string": False,
    "token_type_lowercase": False, "strict_openid": False, "id_token_alg": "RS256", "evil_redirect_uri": None,
    "issuer": None, "evil_issuer": None, "authorize_endpoint_query": None, "lenient_redirect_uri": False,
    "token_member_depth": 0, "evil_iss_supported": False, "fhir_next_link": "base", "fhir_unreadable_entry": False,
    "fhir_refusal_outcome": False,
}
SIGNING_KEY = RSAKey.generate_key(2048, parameters={"kid": "smart-emulator-1", "alg": "RS256", "use": "sig"})
EC_SIGNING_KEY = ECKey.generate_key("P-256", parameters={"kid": "smart-emulator-ec-1", "alg": "ES256", "use": "sig"})
USER = "smart-user-1"
# The methods of user-facing clients; each client may use only the one it registered.
USER_CLIENT_AUTH_METHODS = ["client_secret_basic", "none", "private_key_jwt"]

blueprint = Blueprint("smart", __name__)


def default_clients():
    user_grants = ["authorization_code", "refresh_token"]
    return {
        "smart-public": {"auth_method": "none", "grant_types": user_grants},
        "smart-confidential": {"auth_method": "client_secret_basic", "secret": "smart-secret 1+x",
                               "grant_types": user_grants},
        "smart-asymmetric": {"auth_method": "private_key_jwt", "jwks": IG_KEYS, "grant_types": user_grants},
        "smart-backend": {"auth_method": "private_key_jwt", "jwks": IG_KEYS, "grant_types": ["client_credentials"],
                          "scopes": ["system/*.rs", "system/Patient.rs", "system/Observation.rs"]},
    }


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with getattr(self, "lock", threading.Lock()):
            self.settings = dict(DEFAULT_SETTINGS)
            self.clients = default_clients()
            self.launches, self.codes, self.access, self.refresh = {}, {}, {}, {}
            self.jtis = set()
            self.resources = {}  # (type, id) -> {"resource": the stored JSON, "version": its version, an int}
            self.stats = {"token": {"authorization_code": 0, "refresh_token": 0, "client_credentials": 0},
                          "revoke": 0, "introspect": 0, "authorize": 0, "assertions_rejected": 0, "fhir": 0,
                          "fhir_write": 0, "evil_authorize": 0, "evil_token": [], "evil_fhir": [],
                          "token_refused": {}}

    def now(self):
        return time.time() + float(self.settings["clock_offset_seconds"])


STATE = State()


def origin():
    return request.host_url.rstrip("/")


def fhir_base():
    return origin() + FHIR


def issuer():
    """The issuer identifier: the FHIR base, or the one the settings give (an authorization server elsewhere)."""
    return STATE.settings["issuer"] or fhir_base()


# MARK: - Discovery

@blueprint.get(FHIR + "/.well-known/smart-configuration")
def smart_configuration():
    root = origin() + BASE
    query = STATE.settings["authorize_endpoint_query"]
    return jsonify({
        "issuer": issuer(), "jwks_uri": root + "/jwks",
        "authorization_endpoint": root + "/auth/authorize" + ("?" + query if query else ""),
        "token_endpoint": root + "/auth/token",
        "revocation_endpoint": root + "/auth/revoke", "introspection_endpoint": root + "/auth/introspect",
        "token_endpoint_auth_methods_supported": ["client_secret_basic", "private_key_jwt", "none"],
        "token_endpoint_auth_signing_alg_values_supported": ["RS384", "ES384"],
        "grant_types_supported": ["authorization_code", "client_credentials", "refresh_token"],
        "scopes_supported": sorted(USER_SCOPES) + ["system/*.rs"], "response_types_supported": ["code"],
        "code_challenge_methods_supported": ["S256"],
        "capabilities": ["launch-ehr", "launch-standalone", "client-public", "client-confidential-symmetric",
                         "client-confidential-asymmetric", "context-ehr-patient", "context-ehr-encounter",
                         "context-standalone-patient", "context-banner", "context-style", "sso-openid-connect",
                         "permission-offline", "permission-patient", "permission-user", "permission-v2"],
        "id_token_signing_alg_values_supported": ["RS256", "ES256"],
        "x-emulator-extension": {"kept": True},
        **({"authorization_response_iss_parameter_supported": True} if STATE.settings["strict_openid"] else {}),
    })


@blueprint.get(FHIR + "/.well-known/openid-configuration")
def openid_configuration():
    root = origin() + BASE
    return jsonify({"issuer": issuer(), "jwks_uri": root + "/jwks",
                    "authorization_endpoint": root + "/auth/authorize", "token_endpoint": root + "/auth/token",
                    "id_token_signing_alg_values_supported": ["RS256"], "response_types_supported": ["code"],
                    "subject_types_supported": ["public"]})


@blueprint.get(FHIR + "/metadata")
def metadata():
    root = origin() + BASE
    uris = [{"url": name, "valueUri": root + path} for name, path in
            [("authorize", "/auth/authorize"), ("token", "/auth/token"), ("revoke", "/auth/revoke"),
             ("introspect", "/auth/introspect")]]
    return jsonify({
        "resourceType": "CapabilityStatement", "status": "active", "date": "2026-01-01", "kind": "instance",
        "fhirVersion": "4.0.1", "format": ["json"],
        "rest": [{"mode": "server", "security": {"extension": [
            {"url": "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris", "extension": uris}]}}],
    })


@blueprint.get(BASE + "/jwks")
def jwks():
    return jsonify({"keys": [SIGNING_KEY.as_dict(private=False), EC_SIGNING_KEY.as_dict(private=False)]})


# MARK: - Authlib models

class Client(ClientMixin):
    """A registered client as Authlib sees it; the record stays in STATE.clients, where the control endpoint adds
    clients."""

    def __init__(self, client_id, record):
        self.client_id, self.record = client_id, record

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return self.record.get("redirect_uris", REDIRECTS)[0]

    def allows(self, scope):
        if "client_credentials" in self.record["grant_types"]:
            scopes = self.record.get("scopes", [])
            return scope in scopes or ("system/*.rs" in scopes and scope.startswith("system/"))
        return scope in USER_SCOPES

    def get_allowed_scope(self, scope):
        granted = [item for item in (scope or "").split() if self.allows(item)]
        return " ".join(granted) if granted else None

    def check_redirect_uri(self, redirect_uri):
        registered = self.record.get("redirect_uris", REDIRECTS)
        if STATE.settings["lenient_redirect_uri"]:
            # A lenient server: a registered URI with a query of the request's own added.
            return redirect_uri.split("?")[0] in registered
        return redirect_uri in registered

    def check_client_secret(self, client_secret):
        secret = self.record.get("secret")
        return secret is not None and secrets.compare_digest(secret, client_secret)

    def check_endpoint_auth_method(self, method, endpoint):
        # Each client authenticates only by the one method it registered.
        return method == self.record["auth_method"]

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type in self.record["grant_types"]


def query_client(client_id):
    record = STATE.clients.get(client_id)
    return Client(client_id, record) if record is not None else None


class AuthorizationCode(AuthorizationCodeMixin):
    def __init__(self, code, client_id, redirect_uri, scope, context, challenge, method, nonce, prompt):
        self.code, self.client_id, self.redirect_uri, self.scope = code, client_id, redirect_uri, scope
        self.context, self.code_challenge, self.code_challenge_method = context, challenge, method
        self.nonce, self.prompt, self.auth_time = nonce, prompt, int(STATE.now())
        self.expires_at = STATE.now() + 60

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope

    def get_nonce(self):
        return self.nonce

    def get_auth_time(self):
        return self.auth_time

    def get_acr(self):
        return None

    def get_amr(self):
        return None


class Credential:
    """An issued access or refresh token (an entry of STATE.access or STATE.refresh) for Authlib's grants and
    endpoints."""

    def __init__(self, value, entry, is_refresh):
        self.value, self.entry, self.is_refresh = value, entry, is_refresh

    def check_client(self, client):
        return self.entry["client_id"] == client.get_client_id()

    def get_scope(self):
        return self.entry["scope"]

    def get_expires_in(self):
        return 0 if self.is_refresh else max(0, int(self.entry["exp"] - STATE.now()))

    def is_expired(self):
        return not self.is_refresh and self.entry["exp"] <= STATE.now()

    def is_revoked(self):
        return self.entry["revoked"]

    def get_user(self):
        return USER

    def get_client(self):
        return query_client(self.entry["client_id"])


def find_credential(value, hint=None):
    tables = {"access_token": [(STATE.access, False)], "refresh_token": [(STATE.refresh, True)]}.get(
        hint, [(STATE.access, False), (STATE.refresh, True)])
    for table, is_refresh in tables:
        entry = table.get(value)
        if entry is not None:
            return Credential(value, entry, is_refresh)
    return None


# MARK: - Token issuance

def save_token(token, oauth_request):
    """Records what Authlib issued and shapes the response body (the dict is the body): a refresh token only with
    offline_access or online_access, the launch context, and the settings' variants."""
    settings = STATE.settings
    grant_type = oauth_request.payload.grant_type
    client_id = oauth_request.client.get_client_id()
    auth_time = None
    if grant_type == "authorization_code":
        context = oauth_request.authorization_code.context
        auth_time = oauth_request.authorization_code.auth_time
        prompt = (oauth_request.authorization_code.prompt or "").split()
        if settings["strict_openid"] and "consent" not in prompt:
            # OpenID Connect Core 11: offline access only with prompt=consent.
            token["scope"] = " ".join(item for item in token.get("scope", "").split() if item != "offline_access")
    elif grant_type == "refresh_token":
        context = oauth_request.refresh_token.entry["context"]
        auth_time = oauth_request.refresh_token.entry.get("auth_time")
    else:
        context = {}
    scope = token.get("scope", "")
    scopes = scope.split()
    if not {"offline_access", "online_access"} & set(scopes):
        token.pop("refresh_token", None)
    if grant_type == "refresh_token" and settings["strict_openid"] and "openid" in scopes:
        token["id_token"] = refreshed_id_token(client_id, auth_time)
    refresh_token = token.get("refresh_token")
    now = STATE.now()
    with STATE.lock:
        STATE.stats["token"][grant_type] += 1
        if refresh_token:
            STATE.refresh[refresh_token] = {"client_id": client_id, "scope": scope, "context": context,
                                            "revoked": False, "auth_time": auth_time}
        STATE.access[token["access_token"]] = {
            "client_id": client_id, "scope": scope, "exp": now + int(token["expires_in"]), "context": context,
            "refresh": refresh_token, "revoked": False, "aud": fhir_base()}
    if settings["drop_offline_access_from_scope"]:
        token["scope"] = " ".join(item for item in scopes if item != "offline_access")
    if settings["token_type_lowercase"]:
        token["token_type"] = "bearer"
    if settings["expires_in_as_string"]:
        token["expires_in"] = str(token["expires_in"])
    token["__emulatorExtension"] = "kept"
    if settings["token_member_depth"]:
        nested = "deep"
        for _ in range(int(settings["token_member_depth"]) - 1):
            nested = [nested]
        token["__nested"] = nested
    token.update(context)


class SMARTAuthorization:
    """The SMART rules of an authorization request that OAuth does not have: state, aud, and the launch. Errors are
    redirected to the client with its state (Authlib sets the redirect URI on errors raised in this hook)."""

    def __call__(self, grant):
        grant.register_hook("after_validate_authorization_request_payload", self.validate)

    def validate(self, grant, redirect_uri):
        request = grant.request
        params = request.payload.data
        if not params.get("state"):
            raise InvalidRequestError("state is required")
        if params.get("aud") != fhir_base():
            raise InvalidRequestError(f"Bad audience value {params.get('aud')!r}, expected {fhir_base()!r}")
        scopes = (params.get("scope") or "").split()
        launch = params.get("launch")
        context = {}
        if launch:
            minted = STATE.launches.get(launch)
            if (not minted or minted["client_id"] != request.client.get_client_id() or minted["expires"] < STATE.now()
                    or "launch" not in scopes):
                raise InvalidRequestError("invalid launch, or the launch scope is missing")
            context = {key: value for key, value in minted.items() if key not in ("client_id", "expires")}
        elif "launch/patient" in scopes:
            context = {"patient": STATE.settings["standalone_patient"]}
        request.launch_context = context


class SMARTCodeChallenge(CodeChallenge):
    """PKCE as SMART requires it: S256 only, and (setting pkce = required) on every authorization request; a code
    with a challenge needs the verifier whatever the client type."""
    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]

    def validate_code_challenge(self, grant, redirect_uri):
        data = grant.request.payload.data
        challenge, method = data.get("code_challenge"), data.get("code_challenge_method")
        if challenge or method or STATE.settings["pkce"] == "required":
            if not challenge or method != "S256":
                raise InvalidRequestError("PKCE with code_challenge_method S256 is required")
        super().validate_code_challenge(grant, redirect_uri)


class SMARTOpenIDCode(OpenIDCode):
    """The id token: RS256 with the server's kid, iss the FHIR base, fhirUser, and the settings' negative variants
    (another issuer or nonce, an expired token, a broken signature, aud as a string)."""

    def exists_nonce(self, nonce, oauth_request):
        with STATE.lock:
            return any(code.nonce == nonce for code in STATE.codes.values())

    def resolve_client_private_key(self, client):
        return id_token_key()

    def get_client_algorithm(self, client):
        return STATE.settings["id_token_alg"]

    def get_encode_header(self, client):
        return id_token_header()

    def get_client_claims(self, client):
        return id_token_claims(client.get_client_id(), int(STATE.now()))

    def get_authorization_code_claims(self, authorization_code):
        claims = super().get_authorization_code_claims(authorization_code)
        if STATE.settings["id_token_nonce"]:
            claims["nonce"] = STATE.settings["id_token_nonce"]
        return claims

    def generate_user_info(self, user, scope):
        return {"sub": user, "fhirUser": STATE.settings["fhir_user"]}

    def encode_id_token(self, token, oauth_request):
        encoded = super().encode_id_token(token, oauth_request)
        if not STATE.settings["id_token_tamper"]:
            return encoded
        head, payload, signature = encoded.split(".")
        return ".".join([head, payload, ("B" if signature[5] == "A" else "A").join([signature[:5], signature[6:]])])


def id_token_key():
    return EC_SIGNING_KEY if STATE.settings["id_token_alg"] == "ES256" else SIGNING_KEY


def id_token_header():
    key = id_token_key()
    return {"alg": STATE.settings["id_token_alg"], "kid": key.kid, "typ": "JWT"}


def id_token_claims(client_id, auth_time):
    """The claims every id token shares: the issuer, the audience, the times, and the settings' variants."""
    settings = STATE.settings
    now = int(STATE.now())
    lifetime = int(settings["token_lifetime"])
    return {
        "iss": settings["id_token_issuer"] or issuer(),
        "aud": [client_id] if settings["id_token_aud"] == "array" else client_id,
        "iat": now, "auth_time": auth_time, "exp": now - 3600 if settings["id_token_expired"] else now + lifetime,
    }


def refreshed_id_token(client_id, auth_time):
    """The id token of a refresh (OpenID Connect Core 12.2): the sign-in's iss, sub, aud and auth_time, a new iat,
    and no nonce."""
    claims = dict(id_token_claims(client_id, auth_time), sub=USER, fhirUser=STATE.settings["fhir_user"])
    return jwt.encode(id_token_header(), claims, id_token_key())


class SMARTCodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = USER_CLIENT_AUTH_METHODS

    def save_authorization_code(self, code, oauth_request):
        data = oauth_request.payload.data
        item = AuthorizationCode(code, oauth_request.client.get_client_id(), oauth_request.payload.redirect_uri,
                                 oauth_request.scope, oauth_request.launch_context, data.get("code_challenge"),
                                 data.get("code_challenge_method"), data.get("nonce"), data.get("prompt"))
        with STATE.lock:
            STATE.codes[code] = item

    def query_authorization_code(self, code, client):
        with STATE.lock:
            item = STATE.codes.get(code)
        if item and item.client_id == client.get_client_id() and item.expires_at > STATE.now():
            return item
        return None

    def delete_authorization_code(self, authorization_code):
        with STATE.lock:
            STATE.codes.pop(authorization_code.code, None)

    def authenticate_user(self, authorization_code):
        return USER


class RotatingRefreshGrant(grants.RefreshTokenGrant):
    """Refresh with rotation: the old refresh token dies (unless keep_old_refresh_valid), so a replay is
    invalid_grant."""
    INCLUDE_NEW_REFRESH_TOKEN = True
    TOKEN_ENDPOINT_AUTH_METHODS = USER_CLIENT_AUTH_METHODS

    def authenticate_refresh_token(self, refresh_token):
        credential = find_credential(refresh_token, "refresh_token")
        return credential if credential is not None and not credential.is_revoked() else None

    def authenticate_user(self, credential):
        return USER

    def revoke_old_credential(self, credential):
        if not STATE.settings["keep_old_refresh_valid"]:
            credential.entry["revoked"] = True


class BackendServicesGrant(grants.ClientCredentialsGrant):
    """client_credentials for backend services: private_key_jwt only, system scopes the client was registered for,
    300-second tokens without a refresh token."""
    TOKEN_ENDPOINT_AUTH_METHODS = ["private_key_jwt"]

    def validate_requested_scope(self):
        wanted = (self.request.payload.scope or "").split()
        if not wanted or not all(self.request.client.allows(scope) for scope in wanted):
            raise InvalidScopeError()


# MARK: - Client authentication

class SMARTClientAssertion(JWTBearerClientAssertion):
    """private_key_jwt as SMART asks (RFC 7523 on Authlib): RS384 or ES384, typ JWT, a kid, iss = sub = the client
    and = client_id when sent, aud = the endpoint's URL, exp at most 5 minutes ahead (60 s leeway), a jti never seen
    before. Every refusal is counted."""
    CLIENT_AUTH_METHOD = "private_key_jwt"
    ALGORITHMS = ["RS384", "ES384"]

    def __call__(self, query_client, oauth_request):
        try:
            client = super().__call__(query_client, oauth_request)
            sent = oauth_request.form.get("client_id")
            if client is not None and sent not in (None, client.get_client_id()):
                raise InvalidClientError(description="client_id does not match the assertion")
            return client
        except InvalidClientError:
            with STATE.lock:
                STATE.stats["assertions_rejected"] += 1
            raise

    def extract_assertion(self, assertion):
        header, claims = super().extract_assertion(assertion)
        if header.get("typ") != "JWT" or not header.get("kid") or header.get("alg") not in self.ALGORITHMS:
            raise InvalidClientError(description="the header needs typ JWT, a kid and alg RS384 or ES384")
        return header, claims

    def resolve_client_public_key(self, client):
        return KeySet.import_key_set(client.record.get("jwks", {"keys": []}))

    def process_assertion_claims(self, assertion, key):
        try:
            token = jwt.decode(assertion, key, algorithms=self.ALGORITHMS)
        except JoseError as error:
            raise InvalidClientError(description=error.description or error.error) from error
        self.verify_claims(token.claims)
        return token.claims

    def get_audiences(self):
        return [request.base_url]

    def verify_claims(self, claims):
        super().verify_claims(claims)
        if not isinstance(claims["exp"], (int, float)) or claims["exp"] > STATE.now() + 300 + self.leeway:
            raise InvalidClientError(description="exp is more than 5 minutes ahead")

    def validate_jti(self, claims, jti):
        with STATE.lock:
            if (claims["iss"], jti) in STATE.jtis:
                return False
            STATE.jtis.add((claims["iss"], jti))
        return True


# MARK: - Revocation and introspection

class UnsupportedTokenTypeHint(OAuth2Error):
    error = "unsupported_token_type"
    status_code = 400


class Revocation(RevocationEndpoint):
    """RFC 7009: any registered client authentication, 200 for unknown tokens, and a revoked refresh token ends the
    access tokens issued with it."""
    CLIENT_AUTH_METHODS = USER_CLIENT_AUTH_METHODS

    def check_params(self, oauth_request, client):
        if oauth_request.form.get("token_type_hint") not in (None, *self.SUPPORTED_TOKEN_TYPES):
            raise UnsupportedTokenTypeHint()
        super().check_params(oauth_request, client)

    def query_token(self, token_string, token_type_hint):
        return find_credential(token_string, token_type_hint)

    def revoke_token(self, credential, oauth_request):
        with STATE.lock:
            credential.entry["revoked"] = True
            if credential.is_refresh:
                for access in STATE.access.values():
                    if access["refresh"] == credential.value:
                        access["revoked"] = True


class Introspection(IntrospectionEndpoint):
    """RFC 7662 with SMART's fields; the caller authenticates as a client or with an access token issued here."""
    CLIENT_AUTH_METHODS = ["client_secret_basic", "private_key_jwt"]

    def authenticate_endpoint_client(self, oauth_request):
        kind, _, value = oauth_request.headers.get("Authorization", "").partition(" ")
        if kind == "Bearer":
            credential = find_credential(value, "access_token")
            if credential is None or credential.is_expired() or credential.is_revoked():
                raise InvalidTokenError(description="the bearer token is not active")
            return credential.get_client()
        return super().authenticate_endpoint_client(oauth_request)

    def query_token(self, token_string, token_type_hint):
        return find_credential(token_string, "access_token")

    def check_permission(self, credential, client, oauth_request):
        return True

    def introspect_token(self, credential):
        entry = credential.entry
        body = {"active": True, "scope": entry["scope"], "client_id": entry["client_id"], "exp": int(entry["exp"]),
                "token_type": "Bearer"}
        body.update(entry["context"])
        if "openid" in entry["scope"].split():
            body.update({"iss": issuer(), "sub": USER, "fhirUser": STATE.settings["fhir_user"]})
        return body


server = AuthorizationServer()


def init_app(app):
    server.init_app(app, query_client=query_client, save_token=save_token)
    server.register_token_generator("default", BearerTokenGenerator(
        access_token_generator=lambda **kwargs: secrets.token_urlsafe(32),
        refresh_token_generator=lambda **kwargs: secrets.token_urlsafe(32),
        expires_generator=lambda client, grant_type: (
            300 if grant_type == "client_credentials" else int(STATE.settings["token_lifetime"])),
    ))
    server.register_client_auth_method("private_key_jwt", SMARTClientAssertion())
    server.register_grant(SMARTCodeGrant, [SMARTCodeChallenge(required=True), SMARTAuthorization(), SMARTOpenIDCode()])
    server.register_grant(RotatingRefreshGrant)
    server.register_grant(BackendServicesGrant)
    server.register_endpoint(Revocation)
    server.register_endpoint(Introspection)


# MARK: - Routes

@blueprint.route(BASE + "/auth/authorize", methods=["GET", "POST"])
def authorize():
    with STATE.lock:
        STATE.stats["authorize"] += 1
    try:
        grant = server.get_consent_grant(end_user=USER)
    except OAuth2Error as error:
        return with_issuer(server.handle_error_response(request, error))
    return with_issuer(server.create_authorization_response(grant=grant, grant_user=USER))


def with_issuer(response):
    """RFC 9207 in strict mode: every redirect to the client, success or error, names this server's issuer."""
    location = response.headers.get("Location")
    if STATE.settings["strict_openid"] and location:
        response.headers["Location"] = location + ("&" if "?" in location else "?") + urlencode({"iss": issuer()})
    return response


# MARK: - The mix-up attacker

EVIL = "/evil"


@blueprint.get(EVIL + "/fhir/.well-known/smart-configuration")
def evil_configuration():
    root = origin() + EVIL
    return jsonify({
        "issuer": STATE.settings["evil_issuer"] or root + "/fhir", "jwks_uri": root + "/jwks", "authorization_endpoint": root + "/auth/authorize",
        "token_endpoint": root + "/auth/token", "code_challenge_methods_supported": ["S256"],
        "capabilities": ["launch-ehr", "launch-standalone", "client-public", "sso-openid-connect"],
        **({"authorization_response_iss_parameter_supported": True} if STATE.settings["evil_iss_supported"] else {}),
    })


@blueprint.get(EVIL + "/jwks")
def evil_jwks():
    return jsonify({"keys": []})


@blueprint.get(EVIL + "/auth/authorize")
def evil_authorize():
    """Sends the browser on to the honest server with the client's own request (aud made the honest server's, and
    the redirect URI evil_redirect_uri when set: one the client registered there)."""
    with STATE.lock:
        STATE.stats["evil_authorize"] += 1
    swapped = {"aud": fhir_base(), "redirect_uri": STATE.settings["evil_redirect_uri"]}
    query = [(name, swapped.get(name) or value) for name, value in request.args.items(multi=True) if name != "launch"]
    return "", 302, {"Location": origin() + BASE + "/auth/authorize?" + urlencode(query)}


@blueprint.post(EVIL + "/auth/token")
def evil_token():
    """Records what a misled client sends (the honest server's code, the PKCE verifier, a credential)."""
    with STATE.lock:
        STATE.stats["evil_token"].append({"fields": sorted(request.form.keys()),
                                          "authorization": "Authorization" in request.headers})
    return jsonify(error="invalid_grant"), 400


@blueprint.post(BASE + "/auth/token")
def token():
    response = server.create_token_response()
    if response.status_code >= 400:
        grant_type = request.form.get("grant_type", "")
        with STATE.lock:
            refused = STATE.stats["token_refused"]
            refused[grant_type] = refused.get(grant_type, 0) + 1
    return response


@blueprint.post(BASE + "/auth/revoke")
def revoke():
    with STATE.lock:
        STATE.stats["revoke"] += 1
    return server.create_endpoint_response(Revocation.ENDPOINT_NAME)


@blueprint.post(BASE + "/auth/introspect")
def introspect():
    with STATE.lock:
        STATE.stats["introspect"] += 1
    return server.create_endpoint_response(Introspection.ENDPOINT_NAME)


def active_access(value):
    entry = STATE.access.get(value)
    if entry is None or entry["revoked"] or entry["exp"] <= STATE.now():
        return None
    return entry




# MARK: - FHIR

def allows(permissions, permission):
    """Whether a scope's permissions (SMART 2's `cruds` letters, or SMART 1's `read`, `write` and `*`) grant one."""
    if permissions in ("*", "read", "write"):
        return permissions == "*" or permission in ("rs" if permissions == "read" else "cud")
    return permission in permissions


def bearer_for(resource_type, permission="r"):
    """The access token entry of the request when it may do `permission` (a SMART 2 letter) on `resource_type`, else
    an RFC 6750 error response."""
    STATE.stats["fhir" if permission == "r" else "fhir_write"] += 1
    header = request.headers.get("Authorization", "")
    entry = active_access(header[7:]) if header.startswith("Bearer ") else None
    if entry is None or entry["aud"] != fhir_base():
        challenge = {"WWW-Authenticate": 'Bearer error="invalid_token"'}
        with STATE.lock:
            explained = STATE.settings["fhir_refusal_outcome"]
        if explained:
            body, status = outcome(401, "security", "The access token is not valid")
            return None, (body, status, challenge)
        return None, ("", 401, challenge)
    for scope in entry["scope"].split():
        context, _, rest = scope.partition("/")
        kind, _, permissions = rest.partition(".")
        if context in ("patient", "user", "system") and kind in ("*", resource_type) and allows(
                permissions, permission):
            return entry, None
    return None, ("", 403, {"WWW-Authenticate": 'Bearer error="insufficient_scope"'})


@blueprint.get(FHIR + "/Patient/<patient_id>")
def read_patient(patient_id):
    entry, failure = bearer_for("Patient")
    if failure:
        return failure
    return jsonify({"resourceType": "Patient", "id": patient_id, "name": [{"family": "Emulator"}]})


# What every patient has measured: LOINC code, display, value and UCUM unit of each Observation.
OBSERVATION_KINDS = [("8867-4", "Heart rate", 72, "/min"), ("29463-7", "Body weight", 70.5, "kg"),
                     ("8302-2", "Body height", 180, "cm")]
DEFAULT_PAGE_SIZE = 50


def observation(patient_id, index):
    code, display, value, unit = OBSERVATION_KINDS[index]
    return {"resourceType": "Observation", "id": f"{patient_id}-obs-{index + 1}", "status": "final",
            "code": {"coding": [{"system": "http://loinc.org", "code": code, "display": display}]},
            "subject": {"reference": f"Patient/{patient_id}"},
            "valueQuantity": {"value": value, "unit": unit, "system": "http://unitsofmeasure.org", "code": unit}}


@blueprint.get(FHIR + "/Observation")
def search_observations():
    """A searchset of the patient's Observations, `_count` at a time, with `_include=Observation:subject`.

    Settings: `fhir_next_link` "evil" writes the next link onto the evil path of this origin, and "repeat" makes it
    name the page it is on; `fhir_unreadable_entry` adds a match whose `status` is a number, which no client can read
    as an Observation.
    """
    entry, failure = bearer_for("Observation")
    if failure:
        return failure
    patient_id = request.args.get("patient") or request.args.get("subject", "").removeprefix("Patient/")
    total = len(OBSERVATION_KINDS) if patient_id else 0
    try:
        count = max(1, int(request.args.get("_count", DEFAULT_PAGE_SIZE)))
        offset = max(0, int(request.args.get("_offset", 0)))
    except ValueError:
        return outcome(400, "invalid", "_count and _offset are integers")
    entries = [{"fullUrl": f"{fhir_base()}/Observation/{patient_id}-obs-{index + 1}",
                "resource": observation(patient_id, index), "search": {"mode": "match"}}
               for index in range(offset, min(offset + count, total))]
    if entries and "Observation:subject" in request.args.getlist("_include"):
        entries.append({"fullUrl": f"{fhir_base()}/Patient/{patient_id}", "search": {"mode": "include"},
                        "resource": {"resourceType": "Patient", "id": patient_id, "name": [{"family": "Emulator"}]}})
    with STATE.lock:
        settings = dict(STATE.settings)
    if settings["fhir_unreadable_entry"]:
        entries.append({"resource": {"resourceType": "Observation", "status": 7}, "search": {"mode": "match"}})
    query = [(name, value) for name, value in request.args.items(multi=True) if name != "_offset"]
    links = [{"relation": "self", "url": f"{fhir_base()}/Observation?{urlencode(query + [('_offset', offset)])}"}]
    if offset + count < total:
        base = origin() + EVIL + "/fhir" if settings["fhir_next_link"] == "evil" else fhir_base()
        following = offset if settings["fhir_next_link"] == "repeat" else offset + count
        links.append({"relation": "next", "url": f"{base}/Observation?{urlencode(query + [('_offset', following)])}"})
    return jsonify({"resourceType": "Bundle", "type": "searchset", "total": total, "link": links,
                    "entry": entries})


@blueprint.get(EVIL + "/fhir/Observation")
def evil_search():
    """Records what a client that follows a next link off its FHIR server sends."""
    with STATE.lock:
        STATE.stats["evil_fhir"].append({"authorization": "Authorization" in request.headers})
    return jsonify({"resourceType": "Bundle", "type": "searchset", "entry": []})


# MARK: - FHIR writes

def outcome(status, code, diagnostics):
    return jsonify({"resourceType": "OperationOutcome",
                    "issue": [{"severity": "error", "code": code, "diagnostics": diagnostics}]}), status


def written(resource_type, resource_id, status, version=None):
    """The answer to a write or a read: the stored resource, its current version or `version` (unless
    `Prefer: return=minimal`), Location and ETag."""
    stored = STATE.resources[(resource_type, resource_id)]
    version = version or stored["version"]
    headers = {"Location": f"{fhir_base()}/{resource_type}/{resource_id}/_history/{version}",
               "ETag": f'W/"{version}"'}
    if request.headers.get("Prefer", "") == "return=minimal":
        return "", status, headers
    return jsonify(stored["versions"][version - 1]), status, headers


def store(resource_type, resource_id, resource):
    """Stores `resource` at `resource_id` as the next version of the resource there."""
    stored = STATE.resources.setdefault((resource_type, resource_id), {"versions": [], "version": 0})
    stored["version"] += 1
    resource = dict(resource, id=resource_id)
    resource["meta"] = dict(resource.get("meta") or {}, versionId=str(stored["version"]),
                            lastUpdated=time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(STATE.now())))
    stored["versions"].append(resource)
    stored["resource"] = resource


def posted_resource(resource_type):
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or body.get("resourceType") != resource_type:
        return None
    return body


def identifier_matches(resource, search):
    """Whether `resource` has the identifier `system|value` (or `value`) of an If-None-Exist search."""
    system, bar, value = search.rpartition("|")
    return any(item.get("value") == value and (not bar or item.get("system") == system)
               for item in resource.get("identifier") or [])


@blueprint.post(FHIR + "/<resource_type>")
def create_resource(resource_type):
    """Creates a resource; `If-None-Exist: identifier=system|value` makes it conditional."""
    entry, failure = bearer_for(resource_type, "c")
    if failure:
        return failure
    resource = posted_resource(resource_type)
    if resource is None:
        return outcome(400, "invalid", f"the body is not a {resource_type}")
    condition = parse_qs(request.headers.get("If-None-Exist", ""))
    with STATE.lock:
        if condition:
            if set(condition) != {"identifier"}:
                return outcome(400, "not-supported", "If-None-Exist searches by identifier only")
            matches = [key for key, stored in STATE.resources.items() if key[0] == resource_type
                       and identifier_matches(stored["resource"], condition["identifier"][0])]
            if len(matches) > 1:
                return outcome(412, "multiple-matches", f"{len(matches)} resources match If-None-Exist")
            if matches:
                return written(*matches[0], 200)
        resource_id = f"{resource_type.lower()}-{len(STATE.resources) + 1}"
        store(resource_type, resource_id, resource)
        return written(resource_type, resource_id, 201)


@blueprint.put(FHIR + "/<resource_type>/<resource_id>")
def update_resource(resource_type, resource_id):
    """Updates (or creates) a resource at its id; `If-Match: W/"<version>"` must name the current version."""
    entry, failure = bearer_for(resource_type, "u")
    if failure:
        return failure
    resource = posted_resource(resource_type)
    if resource is None or resource.get("id") != resource_id:
        return outcome(400, "invalid", f"the body is not the {resource_type} {resource_id}")
    with STATE.lock:
        current = STATE.resources.get((resource_type, resource_id))
        expected = request.headers.get("If-Match")
        if expected is not None and (current is None or expected != f'W/"{current["version"]}"'):
            return outcome(412, "conflict", f"{resource_type}/{resource_id} is not at version {expected}")
        store(resource_type, resource_id, resource)
        return written(resource_type, resource_id, 200 if current else 201)


@blueprint.get(FHIR + "/<resource_type>/<resource_id>")
def read_resource(resource_type, resource_id):
    entry, failure = bearer_for(resource_type)
    if failure:
        return failure
    with STATE.lock:
        if (resource_type, resource_id) not in STATE.resources:
            return outcome(404, "not-found", f"{resource_type}/{resource_id} is not known")
        return written(resource_type, resource_id, 200)


@blueprint.get(FHIR + "/<resource_type>/<resource_id>/_history/<int:version>")
def vread_resource(resource_type, resource_id, version):
    entry, failure = bearer_for(resource_type)
    if failure:
        return failure
    with STATE.lock:
        stored = STATE.resources.get((resource_type, resource_id))
        if stored is None or not 1 <= version <= stored["version"]:
            return outcome(404, "not-found", f"{resource_type}/{resource_id}/_history/{version} is not known")
        return written(resource_type, resource_id, 200, version)


@blueprint.delete(FHIR + "/<resource_type>/<resource_id>")
def delete_resource(resource_type, resource_id):
    entry, failure = bearer_for(resource_type, "d")
    if failure:
        return failure
    with STATE.lock:
        STATE.resources.pop((resource_type, resource_id), None)
    return "", 204


# MARK: - Control

@blueprint.post("/_control/smart")
def settings():
    changes = request.get_json(force=True) or {}
    unknown = set(changes) - set(DEFAULT_SETTINGS)
    if unknown:
        return jsonify(error=f"unknown settings {sorted(unknown)}"), 400
    STATE.settings.update(changes)
    return jsonify(ok=True)


@blueprint.post("/_control/smart/clients")
def register_client():
    body = request.get_json(force=True) or {}
    client = {"auth_method": body.get("auth_method", "none"),
              "grant_types": body.get("grant_types", ["authorization_code", "refresh_token"])}
    for key in ("secret", "jwks", "scopes", "redirect_uris"):
        if key in body:
            client[key] = body[key]
    STATE.clients[body["client_id"]] = client
    return jsonify(ok=True)


@blueprint.post("/_control/smart/launch")
def mint_launch():
    body = request.get_json(force=True) or {}
    launch = secrets.token_urlsafe(16)
    context = {key: body[key] for key in ("patient", "encounter", "fhirContext", "intent", "need_patient_banner",
                                           "smart_style_url", "tenant") if key in body}
    STATE.launches[launch] = dict(context, client_id=body.get("client_id"),
                                  expires=STATE.now() + float(body.get("ttl", 300)))
    return jsonify(launch=launch, iss=fhir_base())


@blueprint.post("/_control/smart/expire-tokens")
def expire_tokens():
    with STATE.lock:
        for entry in STATE.access.values():
            entry["exp"] = STATE.now() - 1
    return jsonify(ok=True)


@blueprint.get("/_control/smart/stats")
def stats():
    live = sum(1 for entry in STATE.refresh.values() if not entry["revoked"])
    return jsonify(dict(STATE.stats, live_refresh_tokens=live))
