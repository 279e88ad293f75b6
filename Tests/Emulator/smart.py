"""The SMART part of the emulator: a SMART App Launch 2.x and Backend Services authorization server with a small
FHIR endpoint, built on Authlib's JOSE library (joserfc) and its PKCE helper.

Server rules, as the SMART wire reference describes them (section numbers of smart.md in brackets):
- discovery at {base}/.well-known/smart-configuration with absolute URLs and one member clients must keep [3];
  the CapabilityStatement at {base}/metadata carries the nested oauth-uris extension for older clients [3.5];
- authorize (GET or POST) needs a registered client and exact redirect_uri (else 400 JSON, no redirect), state,
  aud equal to the FHIR base, PKCE with S256 only, and for an EHR launch a launch id minted for this client with
  the launch scope; errors after that are redirected with state [5.3, 10.1, 15.2 E1-E9];
- the token endpoint redeems single-use codes (60 s) with the PKCE verifier for every client type, refreshes with
  rotation (the old refresh token dies), and issues client_credentials tokens (300 s, no refresh token) [5.5-7];
- clients authenticate as registered: none (client_id in the body, also on refresh), client_secret_basic (id and
  secret percent-decoded, RFC 6749 2.3.1), or private_key_jwt: RS384 or ES384, typ JWT, kid, iss = sub = client,
  aud = the token URL, exp at most 5 minutes ahead (60 s leeway), a jti never seen before [6.3, 15.2 E12-E19];
- a refresh token only with offline_access or online_access; an id token (RS256, kid, aud as an array, nonce,
  at_hash, fhirUser) with openid [9, 15.2 E20-E27];
- revocation (RFC 7009) answers 200 for unknown tokens and ends the access tokens of a revoked refresh token;
  introspection (RFC 7662) takes a bearer token issued here or client authentication [8];
- the FHIR stub answers 401 invalid_token for an expired, revoked or unknown token and 403 insufficient_scope [15.2 E30].
"""
import base64
import hashlib
import json
import secrets
import threading
import time
from urllib.parse import unquote, urlencode

from authlib.oauth2.rfc7636 import create_s256_code_challenge
from flask import Blueprint, jsonify, request
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet, RSAKey

BASE = "/smart"
FHIR = BASE + "/fhir"
ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
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
    "token_type_lowercase": False,
}
SIGNING_KEY = RSAKey.generate_key(2048, parameters={"kid": "smart-emulator-1", "alg": "RS256", "use": "sig"})

blueprint = Blueprint("smart", __name__)


class OAuthError(Exception):
    def __init__(self, error, description=None, status=400):
        super().__init__(error)
        self.error, self.description, self.status = error, description, status

    def response(self):
        body = {"error": self.error}
        if self.description:
            body["error_description"] = self.description
        headers = {"WWW-Authenticate": f'Basic error="{self.error}"'} if self.status == 401 else {}
        return jsonify(body), self.status, headers


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
            self.stats = {"token": {"authorization_code": 0, "refresh_token": 0, "client_credentials": 0},
                          "revoke": 0, "introspect": 0, "authorize": 0, "assertions_rejected": 0, "fhir": 0}

    def now(self):
        return time.time() + float(self.settings["clock_offset_seconds"])


STATE = State()


def origin():
    return request.host_url.rstrip("/")


def fhir_base():
    return origin() + FHIR


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# MARK: - Discovery

@blueprint.get(FHIR + "/.well-known/smart-configuration")
def smart_configuration():
    root = origin() + BASE
    return jsonify({
        "issuer": fhir_base(), "jwks_uri": root + "/jwks",
        "authorization_endpoint": root + "/auth/authorize", "token_endpoint": root + "/auth/token",
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
        "x-emulator-extension": {"kept": True},
    })


@blueprint.get(FHIR + "/.well-known/openid-configuration")
def openid_configuration():
    root = origin() + BASE
    return jsonify({"issuer": fhir_base(), "jwks_uri": root + "/jwks",
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
    return jsonify({"keys": [SIGNING_KEY.as_dict(private=False)]})


# MARK: - Authorize

@blueprint.route(BASE + "/auth/authorize", methods=["GET", "POST"])
def authorize():
    params = request.values
    STATE.stats["authorize"] += 1
    client_id, redirect_uri = params.get("client_id"), params.get("redirect_uri")
    client = STATE.clients.get(client_id)
    if client is None:
        return OAuthError("invalid_client", "unknown client").response()
    if redirect_uri not in client.get("redirect_uris", REDIRECTS):
        return OAuthError("invalid_request", f"Redirect URI {redirect_uri} is not supported by client.").response()
    state = params.get("state")

    def fail(error, description):
        query = {"error": error, "error_description": description}
        if state:
            query["state"] = state
        return "", 302, {"Location": redirect_uri + "?" + urlencode(query)}

    if params.get("response_type") != "code":
        return fail("unsupported_response_type", "response_type must be code")
    if not state:
        return fail("invalid_request", "state is required")
    if params.get("aud") != fhir_base():
        return fail("invalid_request", f"Bad audience value {params.get('aud')!r}, expected {fhir_base()!r}")
    challenge, method = params.get("code_challenge"), params.get("code_challenge_method")
    if challenge or method or STATE.settings["pkce"] == "required":
        if not challenge or method != "S256":
            return fail("invalid_request", "PKCE with code_challenge_method S256 is required")
    scopes = (params.get("scope") or "").split()
    context = {}
    launch = params.get("launch")
    if launch:
        minted = STATE.launches.get(launch)
        if not minted or minted["client_id"] != client_id or minted["expires"] < STATE.now() or "launch" not in scopes:
            return fail("invalid_request", "invalid launch, or the launch scope is missing")
        context = {key: value for key, value in minted.items() if key not in ("client_id", "expires")}
    elif "launch/patient" in scopes:
        context = {"patient": STATE.settings["standalone_patient"]}
    granted = [scope for scope in scopes if scope in USER_SCOPES]
    if not granted:
        return fail("invalid_scope", "none of the requested scopes can be granted")
    code = secrets.token_urlsafe(32)
    with STATE.lock:
        STATE.codes[code] = {"client_id": client_id, "redirect_uri": redirect_uri, "challenge": challenge,
                             "scope": " ".join(granted), "context": context, "nonce": params.get("nonce"),
                             "expires": STATE.now() + 60}
    return "", 302, {"Location": redirect_uri + "?" + urlencode({"code": code, "state": state})}


# MARK: - Client authentication

def authenticate_client(form, allow_none=True):
    """The client the request authenticates as, by the method it registered."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Basic "):
        try:
            decoded = base64.b64decode(header[6:]).decode()
            raw_id, raw_secret = decoded.split(":", 1)
        except (ValueError, UnicodeDecodeError):
            raise OAuthError("invalid_client", "malformed Basic credentials", 401)
        client_id, secret = unquote(raw_id), unquote(raw_secret)
        client = STATE.clients.get(client_id)
        if (client is None or client["auth_method"] != "client_secret_basic"
                or not secrets.compare_digest(client.get("secret", ""), secret)):
            raise OAuthError("invalid_client", "The client cannot authenticate with client_secret_basic", 401)
        return client_id, client
    if form.get("client_assertion_type") == ASSERTION_TYPE or "client_assertion" in form:
        return verify_assertion(form)
    client_id = form.get("client_id")
    client = STATE.clients.get(client_id)
    if client is None or client["auth_method"] != "none" or not allow_none:
        raise OAuthError("invalid_client", f"The client cannot authenticate with methods: "
                                           f"[{client['auth_method'] if client else 'unknown client'}]", 401)
    return client_id, client


def verify_assertion(form):
    def reject(description):
        STATE.stats["assertions_rejected"] += 1
        return OAuthError("invalid_client", description)

    if form.get("client_assertion_type") != ASSERTION_TYPE:
        raise reject("client_assertion_type is not jwt-bearer")
    assertion = form.get("client_assertion", "")
    try:
        # Read before verifying: the claims name the client whose keys verify the signature.
        unverified = [part + "=" * (-len(part) % 4) for part in assertion.split(".")[:2]]
        header = json.loads(base64.urlsafe_b64decode(unverified[0]))
        claims = json.loads(base64.urlsafe_b64decode(unverified[1]))
    except (ValueError, IndexError):
        raise reject("the assertion is not a JWT")
    if header.get("typ") != "JWT" or not header.get("kid") or header.get("alg") not in ("RS384", "ES384"):
        raise reject("the header needs typ JWT, a kid and alg RS384 or ES384")
    client_id = claims.get("iss")
    client = STATE.clients.get(client_id)
    if client is None or client["auth_method"] != "private_key_jwt" or claims.get("sub") != client_id:
        raise reject("The client does not exist on this server.")
    if form.get("client_id") not in (None, client_id):
        raise reject("client_id does not match the assertion")
    kty = "RSA" if header["alg"].startswith("RS") else "EC"
    keys = [key for key in client["jwks"]["keys"] if key.get("kid") == header["kid"] and key.get("kty") == kty]
    if len(keys) != 1:
        raise reject(f"No key for kid: {header['kid']!r}")
    try:
        jwt.decode(assertion, KeySet.import_key_set({"keys": keys}), algorithms=["RS384", "ES384"])
    except JoseError as error:
        raise reject(f"the signature does not verify: {error.description or error.error}")
    now = STATE.now()
    audience = claims.get("aud")
    if request.base_url not in (audience if isinstance(audience, list) else [audience]):
        raise reject("Invalid claim: 'aud'")
    exp = claims.get("exp")
    if not isinstance(exp, (int, float)) or exp < now - 60:
        raise reject("The token is expired")
    if exp > now + 300 + 60:
        raise reject("exp is more than 5 minutes ahead")
    jti = claims.get("jti")
    if not jti or (client_id, jti) in STATE.jtis:
        raise reject("JWT ID is used before.")
    STATE.jtis.add((client_id, jti))
    return client_id, client


# MARK: - Token

@blueprint.post(BASE + "/auth/token")
def token():
    form = request.form
    grant_type = form.get("grant_type")
    try:
        if grant_type not in ("authorization_code", "refresh_token", "client_credentials"):
            raise OAuthError("unsupported_grant_type")
        client_id, client = authenticate_client(form)
        if grant_type not in client["grant_types"]:
            raise OAuthError("unauthorized_client", f"{grant_type} is not allowed for this client")
        STATE.stats["token"][grant_type] += 1
        with STATE.lock:
            if grant_type == "authorization_code":
                body = redeem_code(form, client_id)
            elif grant_type == "refresh_token":
                body = redeem_refresh(form, client_id)
            else:
                body = client_credentials(form, client_id, client)
    except OAuthError as error:
        return error.response()
    response = jsonify(body)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Pragma"] = "no-cache"
    return response


def redeem_code(form, client_id):
    code = STATE.codes.pop(form.get("code", ""), None)
    if code is None or code["client_id"] != client_id or code["expires"] < STATE.now():
        raise OAuthError("invalid_grant", "Invalid 'code' in request.")
    if code["redirect_uri"] != form.get("redirect_uri"):
        raise OAuthError("invalid_grant", "Invalid 'redirect_uri' in request.")
    verifier = form.get("code_verifier")
    if code["challenge"]:
        if not verifier:
            raise OAuthError("invalid_request", "Missing 'code_verifier'")
        if create_s256_code_challenge(verifier) != code["challenge"]:
            raise OAuthError("invalid_grant", "Code challenge failed.")
    return issue(client_id, code["scope"], code["context"], nonce=code["nonce"], with_id_token=True)


def redeem_refresh(form, client_id):
    old = STATE.refresh.get(form.get("refresh_token", ""))
    if old is None or old["revoked"] or old["client_id"] != client_id:
        raise OAuthError("invalid_grant")
    scope = form.get("scope")
    if scope and not set(scope.split()) <= set(old["scope"].split()):
        raise OAuthError("invalid_scope", "The requested scope is invalid, unknown, or malformed.")
    if not STATE.settings["keep_old_refresh_valid"]:
        old["revoked"] = True
    return issue(client_id, scope or old["scope"], old["context"], with_id_token=False)


def client_credentials(form, client_id, client):
    wanted = (form.get("scope") or "").split()
    allowed = client.get("scopes", [])
    if not wanted or not all(scope in allowed or "system/*.rs" in allowed and scope.startswith("system/")
                             for scope in wanted):
        raise OAuthError("invalid_scope", "The requested scope is invalid, unknown, or malformed.")
    return issue(client_id, " ".join(wanted), {}, lifetime=300)


def issue(client_id, scope, context, nonce=None, with_id_token=False, lifetime=None):
    settings = STATE.settings
    lifetime = lifetime or int(settings["token_lifetime"])
    now = STATE.now()
    access_token = secrets.token_urlsafe(32)
    scopes = scope.split()
    refresh_token = None
    if {"offline_access", "online_access"} & set(scopes):
        refresh_token = secrets.token_urlsafe(32)
        STATE.refresh[refresh_token] = {"client_id": client_id, "scope": scope, "context": context, "revoked": False}
    STATE.access[access_token] = {"client_id": client_id, "scope": scope, "exp": now + lifetime, "context": context,
                                  "refresh": refresh_token, "revoked": False, "aud": fhir_base()}
    shown_scope = scope
    if settings["drop_offline_access_from_scope"]:
        shown_scope = " ".join(item for item in scopes if item != "offline_access")
    body = {"access_token": access_token, "token_type": "bearer" if settings["token_type_lowercase"] else "Bearer",
            "expires_in": str(lifetime) if settings["expires_in_as_string"] else lifetime, "scope": shown_scope,
            "__emulatorExtension": "kept"}
    body.update(context)
    if refresh_token:
        body["refresh_token"] = refresh_token
    if with_id_token and "openid" in scopes:
        body["id_token"] = id_token(client_id, access_token, nonce, now, lifetime)
    return body


def id_token(client_id, access_token, nonce, now, lifetime):
    settings = STATE.settings
    claims = {
        "iss": settings["id_token_issuer"] or fhir_base(), "sub": "smart-user-1",
        "aud": [client_id] if settings["id_token_aud"] == "array" else client_id,
        "iat": int(now), "exp": int(now - 3600 if settings["id_token_expired"] else now + lifetime),
        "at_hash": b64url(hashlib.sha256(access_token.encode()).digest()[:16]),
        "fhirUser": settings["fhir_user"],
    }
    if settings["id_token_nonce"] or nonce:
        claims["nonce"] = settings["id_token_nonce"] or nonce
    token = jwt.encode({"alg": "RS256", "kid": SIGNING_KEY.kid, "typ": "JWT"}, claims, SIGNING_KEY)
    if settings["id_token_tamper"]:
        head, payload, signature = token.split(".")
        token = ".".join([head, payload, ("B" if signature[5] == "A" else "A").join([signature[:5], signature[6:]])])
    return token


# MARK: - Revocation and introspection

@blueprint.post(BASE + "/auth/revoke")
def revoke():
    form = request.form
    STATE.stats["revoke"] += 1
    try:
        client_id, _ = authenticate_client(form)
        if form.get("token_type_hint") not in (None, "access_token", "refresh_token"):
            raise OAuthError("unsupported_token_type")
        value = form.get("token", "")
        with STATE.lock:
            for table in (STATE.refresh, STATE.access):
                entry = table.get(value)
                if entry is None:
                    continue
                if entry["client_id"] != client_id:
                    raise OAuthError("invalid_grant")
                entry["revoked"] = True
                if table is STATE.refresh:
                    for access in STATE.access.values():
                        if access["refresh"] == value:
                            access["revoked"] = True
    except OAuthError as error:
        return error.response()
    return jsonify({})


def active_access(value):
    entry = STATE.access.get(value)
    if entry is None or entry["revoked"] or entry["exp"] <= STATE.now():
        return None
    return entry


@blueprint.post(BASE + "/auth/introspect")
def introspect():
    STATE.stats["introspect"] += 1
    header = request.headers.get("Authorization", "")
    try:
        if header.startswith("Bearer "):
            if active_access(header[7:]) is None:
                raise OAuthError("invalid_token", "the bearer token is not active", 401)
        else:
            authenticate_client(request.form, allow_none=False)
    except OAuthError as error:
        return error.response()
    entry = active_access(request.form.get("token", ""))
    if entry is None:
        return jsonify({"active": False})
    body = {"active": True, "scope": entry["scope"], "client_id": entry["client_id"], "exp": int(entry["exp"]),
            "token_type": "Bearer"}
    body.update(entry["context"])
    if "openid" in entry["scope"].split():
        body.update({"iss": fhir_base(), "sub": "smart-user-1", "fhirUser": STATE.settings["fhir_user"]})
    return jsonify(body)


# MARK: - FHIR

def bearer_for(resource_type):
    """The access token entry of the request when it may read `resource_type`, else an RFC 6750 error response."""
    STATE.stats["fhir"] += 1
    header = request.headers.get("Authorization", "")
    entry = active_access(header[7:]) if header.startswith("Bearer ") else None
    if entry is None or entry["aud"] != fhir_base():
        return None, ("", 401, {"WWW-Authenticate": 'Bearer error="invalid_token"'})
    for scope in entry["scope"].split():
        context, _, rest = scope.partition("/")
        kind, _, permissions = rest.partition(".")
        if context in ("patient", "user", "system") and kind in ("*", resource_type) and (
                "r" in permissions or permissions in ("read", "*")):
            return entry, None
    return None, ("", 403, {"WWW-Authenticate": 'Bearer error="insufficient_scope"'})


@blueprint.get(FHIR + "/Patient/<patient_id>")
def read_patient(patient_id):
    entry, failure = bearer_for("Patient")
    if failure:
        return failure
    return jsonify({"resourceType": "Patient", "id": patient_id, "name": [{"family": "Emulator"}]})


@blueprint.get(FHIR + "/Observation")
def search_observations():
    entry, failure = bearer_for("Observation")
    if failure:
        return failure
    return jsonify({"resourceType": "Bundle", "type": "searchset", "total": 0, "entry": []})


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
