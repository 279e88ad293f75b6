"""The Koppeltaal 2.0 part of the emulator: an auth service (backend-services tokens, SMART HTI on FHIR launches,
token introspection) and an in-memory FHIR R4 server with resource-origin, versioning, paging and rest-hook
subscriptions. Everything lives under /koppeltaal2. The wire sheet is shared/protocols/koppeltaal2.md (sections in
brackets); "RI" is the reference implementation (the Koppeltaal auth service and HAPI FHIR server).

Auth service rules (/koppeltaal2/auth):
- apps are registered by the domain admin (here a control endpoint) with a role, a JWKS URL they host themselves,
  redirect URIs and a Device; client_id names the Device [1, 2];
- a client assertion (RFC 7523 private_key_jwt) has iss = a registered client, aud = the token endpoint's URL as
  an exact string, a jti never seen before (consumed before the signature is checked, as the RI does), exp not past
  and at most 5 minutes ahead, and is signed RS384, ES384 or RS512 by the key its kid names in the client's JWKS,
  fetched from the client's jwks_url (cached per Cache-Control max-age, 60 s by default, fetched again once for an
  unknown kid) [2]; any failure answers 401 "Access Denied" in plain text, as the RI does [2, 9.13];
- client_credentials answers a JWT access token (RS512, aud "fhir-server", azp = client) with the scope of the
  app's role and no refresh token [2];
- authorize (GET) takes an HTI launch signed by a registered portal, aud Device/<the client's device>, and the
  scope "launch openid fhirUser"; failures stay in the browser as 400 plain text [4.3, 9.13]. A stand-in IdP signs
  the user in and the auth service requires the IdP identity among the identifiers of the HTI sub [4.4];
- authorization_code redeems the code with the PKCE verifier and a client assertion from the same client, and
  answers the NOOP access token, an id token and the launch context [4.5-4.7];
- introspection takes a client assertion whose aud is the token endpoint (RI) or the introspection endpoint (spec),
  and answers an HTI active only for its audience Device, once [5, 9.3].

FHIR rules (/koppeltaal2/fhir):
- discovery: .well-known/smart-configuration (can be switched off) and the CapabilityStatement's oauth-uris [2];
- every other request needs a bearer access token of this auth service whose scope allows the interaction;
- create adds the resource-origin extension (the caller's Device) and refuses one sent by the client; update needs
  If-Match, answers 409 (or 412) on a stale version, restores an omitted resource-origin and refuses a changed one;
  search answers a searchset Bundle paged through link[next]; trace headers are echoed; a create or update matching
  an active rest-hook Subscription is announced by an empty POST to its endpoint, once [6].

Where this server is stricter than the RI, and why:
- PKCE (S256) is required at authorize, as the spec says; the RI skips the check when no challenge was sent [9.9];
- codes are single use and live 60 s (the RI never invalidates or expires them) [9.9]; a failed redemption also
  uses the code up;
- an HTI needs exp and iat, with exp at most hti_max_lifetime (300 s) after iat, as the spec says; the RI requires
  neither [9.2]; an assertion's exp must also be at most 5 minutes ahead (the RI checks no maximum) [2];
- a redirect_uri must be registered; the RI accepts any when none is registered [2];
- an assertion's sub, when present, must equal iss (RFC 7523);
- an access token is refused once expired, with no leeway (the RI FHIR server allows 60 s).
Where it is more lenient: subscription endpoints may be http:// on the loopback interface (the RI requires https),
so that tests can receive notifications without certificates; access-token introspection answers active (the RI
answers inactive because of an audience mismatch) [9.4].
"""
import base64
import copy
import datetime
import hashlib
import http.client
import json
import re
import threading
import time
import urllib.request
import uuid
from collections import deque
from urllib.parse import parse_qsl, urlencode, urlsplit

from flask import Blueprint, Response, g, jsonify, request
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import RSAKey, import_key

BASE = "/koppeltaal2"
AUTH = BASE + "/auth"
FHIR = BASE + "/fhir"
IDP = BASE + "/idp"
TOKEN_PATH = AUTH + "/oauth2/token"
AUTHORIZE_PATH = AUTH + "/oauth2/authorize"
INTROSPECT_PATH = AUTH + "/oauth2/introspect"
JWKS_PATH = AUTH + "/.well-known/jwks.json"

ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
RESOURCE_ORIGIN = "http://koppeltaal.nl/fhir/StructureDefinition/resource-origin"
INSTANTIATES = "http://vzvz.nl/fhir/StructureDefinition/instantiates"
CLIENT_ID_SYSTEM = "http://vzvz.nl/fhir/NamingSystem/koppeltaal-client-id"
OAUTH_URIS = "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris"
FHIR_JSON = "application/fhir+json;charset=utf-8"
NOTIFICATION_TYPE = "application/fhir+json; fhirVersion=4.0; charset=utf-8"

ASSERTION_ALGORITHMS = ["RS384", "ES384", "RS512"]  # the RI's OIDC_SMART_CONFIG_SIGNING_ALGS
HTI_ALGORITHMS = ["RS256", "RS384", "RS512", "ES256", "ES384", "ES512"]  # HTI:core
LAUNCH_SCOPE_TEXT = "launch openid fhirUser"
LAUNCH_SCOPE = set(LAUNCH_SCOPE_TEXT.split())
ACCESS_AUDIENCE = "fhir-server"
ASSERTION_MAX_LIFETIME = 300
LIFETIME_LEEWAY = 10  # seconds allowed beyond a 5-minute maximum
IAT_SKEW = 2  # an iat up to 2 s ahead: a client that rounds the time up to whole seconds
CODE_LIFETIME = 60
JWKS_DEFAULT_MAX_AGE = 60
TRACE_LIMIT = 50
ROLE_SCOPES = {"admin": "system/*.cruds", "module": "system/*.cruds", "portal": "system/*.cruds"}
DEFAULT_SETTINGS = {
    "token_lifetime": 300, "smart_configuration": True, "conflict_status": 409, "page_size": 50,
    "expires_in_as_string": False, "hti_max_lifetime": 300, "idp_user": None,
}
SIGNING_KEY = RSAKey.generate_key(2048)
SIGNING_KID = SIGNING_KEY.thumbprint()  # RFC 7638, as the RI

blueprint = Blueprint("koppeltaal2", __name__)


class Refused(Exception):
    """A token, assertion or request that breaks a rule: the reason the stats record, and what the answer says when
    that is shorter (the RI names only "invalid launch token", for example)."""

    def __init__(self, reason, answer=None):
        super().__init__(reason)
        self.answer = answer or reason


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.settings = dict(DEFAULT_SETTINGS)
            self.apps = {}  # client_id -> registration
            self.hosted = {}  # name -> {"jwks", "max_age"}, JWKS this emulator hosts for tests
            self.jwks_cache = {}  # client_id -> {"url", "jwks", "expires"}
            self.assertion_jtis = set()  # (iss, jti) of client assertions
            self.hti_jtis = set()  # (iss, jti) of HTI launches, shared by introspection and authorize
            self.issued = {}  # access token jti -> exp (expire-tokens lowers it)
            self.sessions = {}  # authorize session id -> the launch waiting for the IdP
            self.codes = {}  # authorization code -> the launch it stands for
            self.resources = {}  # (type, id) -> {"versions": [...], "deleted": bool}
            self.pages = {}  # search id -> the matches, for paging
            self.stats = {
                "token": {"client_credentials": 0, "authorization_code": 0, "other": 0},
                "token_refused": [], "assertions_refused": [], "jwks_fetches": {}, "introspections": [],
                "authorizations": {"started": 0, "refused": [], "idp_logins": 0, "idp_mismatch": 0, "codes": 0},
                "fhir": {}, "fhir_refused": {}, "trace": deque(maxlen=TRACE_LIMIT), "notifications": [],
                "ignored_search_params": [],
            }

    def count(self, table, key):
        with self.lock:
            self.stats[table][key] = self.stats[table].get(key, 0) + 1

    def record(self, table, item):
        with self.lock:
            self.stats[table].append(item)


STATE = State()


def now():
    return time.time()


def origin():
    return request.host_url.rstrip("/")


def token_url():
    return origin() + TOKEN_PATH


def introspect_url():
    return origin() + INTROSPECT_PATH


def issuer():
    return origin() + AUTH


def fhir_base():
    return origin() + FHIR


def plain(text, status):
    return Response(text, status=status, mimetype="text/plain")


# MARK: - JWTs

def b64url_json(part):
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def peek(token):
    """The header and claims of a compact JWS, unverified; Refused when it is not one."""
    parts = (token or "").split(".")
    if len(parts) != 3:
        raise Refused("not a compact JWS")
    try:
        header, claims = b64url_json(parts[0]), b64url_json(parts[1])
    except ValueError as error:
        raise Refused("malformed JWT") from error
    if not isinstance(header, dict) or not isinstance(claims, dict):
        raise Refused("malformed JWT")
    return header, claims


def sign(claims):
    header = {"alg": "RS512", "kid": SIGNING_KID, "typ": "JWT"}
    return jwt.encode(header, claims, SIGNING_KEY, algorithms=["RS512"])


def verify_signature(token, jwk, alg):
    try:
        jwt.decode(token, import_key(jwk), algorithms=[alg])
    except (JoseError, ValueError, TypeError) as error:
        raise Refused("bad signature") from error


def number(claims, name):
    value = claims.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise Refused(f"{name} missing")
    return value


# MARK: - Client JWKS, fetched from the app

def max_age(cache_control):
    if re.search(r"no-store|no-cache", cache_control or ""):
        return 0
    match = re.search(r"max-age=(\d+)", cache_control or "")
    return int(match.group(1)) if match else JWKS_DEFAULT_MAX_AGE


def fetch_jwks(client_id, url):
    """GETs the JWKS the app hosts and caches it for its Cache-Control max-age."""
    STATE.count("jwks_fetches", client_id)
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept": "application/json"}),
                                    timeout=5) as response:
            jwks = json.loads(response.read())
            lifetime = max_age(response.headers.get("Cache-Control"))
    except (OSError, ValueError) as error:
        raise Refused(f"JWKS fetch failed: {error}") from error
    if not isinstance(jwks, dict) or not isinstance(jwks.get("keys"), list):
        raise Refused("JWKS without keys")
    with STATE.lock:
        STATE.jwks_cache[client_id] = {"url": url, "jwks": jwks, "expires": now() + lifetime}
    return jwks


def key_in(jwks, kid):
    return next((key for key in jwks["keys"] if isinstance(key, dict) and key.get("kid") == kid), None)


def client_key(client_id, kid):
    """The JWK `kid` names in the app's JWKS: from the cache while fresh, else fetched; fetched again once when the
    cached set lacks it (a rotated key)."""
    url = STATE.apps[client_id].get("jwks_url")
    if not url:
        raise Refused("no jwks_url registered")
    with STATE.lock:
        cached = STATE.jwks_cache.get(client_id)
    fresh = cached is None or cached["url"] != url or cached["expires"] <= now()
    jwks = fetch_jwks(client_id, url) if fresh else cached["jwks"]
    key = key_in(jwks, kid)
    if key is None and not fresh:
        key = key_in(fetch_jwks(client_id, url), kid)
    if key is None:
        raise Refused("unknown kid")
    return key


def check_algorithm(header, allowed):
    if header.get("alg") not in allowed:
        raise Refused(f"algorithm {header.get('alg')!r} not accepted")
    if not header.get("kid"):
        raise Refused("kid missing")


# MARK: - Client assertions

def verify_assertion(form, audiences):
    """The client_id of a valid client assertion in `form` (aud one of `audiences`), else Refused."""
    if form.get("client_assertion_type") != ASSERTION_TYPE:
        raise Refused("client_assertion_type missing or wrong")
    assertion = form.get("client_assertion")
    header, claims = peek(assertion)
    client_id = claims.get("iss")
    if client_id not in STATE.apps:
        raise Refused("unknown client")
    if "sub" in claims and claims["sub"] != client_id:
        raise Refused("sub differs from iss")
    if claims.get("aud") not in audiences:
        raise Refused("wrong aud")
    consume_jti(STATE.assertion_jtis, client_id, claims.get("jti"))
    check_lifetime(claims, ASSERTION_MAX_LIFETIME)
    check_algorithm(header, ASSERTION_ALGORITHMS)
    verify_signature(assertion, client_key(client_id, header["kid"]), header["alg"])
    return client_id


def consume_jti(store, issuer_id, jti):
    if not isinstance(jti, str) or not jti:
        raise Refused("jti missing")
    with STATE.lock:
        if (issuer_id, jti) in store:
            raise Refused("replayed jti")
        store.add((issuer_id, jti))


def check_lifetime(claims, maximum, require_iat=False):
    """exp present and not past; iat (required or when present) not ahead; exp at most `maximum` seconds (when
    given, with a small leeway) after iat, or after now when there is no iat."""
    moment = now()
    exp = number(claims, "exp")
    if exp <= moment:
        raise Refused("expired")
    start = moment
    if "iat" in claims or require_iat:
        start = number(claims, "iat")
        if start > moment + IAT_SKEW:
            raise Refused("iat in the future")
    if maximum is not None and exp - start > maximum + LIFETIME_LEEWAY:
        raise Refused(f"exp more than {maximum} s after iat")


def authenticate(form, audiences, endpoint):
    """verify_assertion, recording a refusal with its reason."""
    try:
        return verify_assertion(form, audiences)
    except Refused as refusal:
        try:
            client_id = peek(form.get("client_assertion"))[1].get("iss")
        except Refused:
            client_id = None
        STATE.record("assertions_refused", {"endpoint": endpoint, "client_id": client_id, "reason": str(refusal)})
        raise


# MARK: - HTI launches

def device_of(client_id):
    return "Device/" + STATE.apps[client_id]["device_id"]


def verify_hti(token, audience):
    """The claims of a valid HTI launch token for `audience` (Device/<id>): signed by a registered portal with a key
    of its JWKS, iat and exp within the lifetime rule, a jti never used (at introspection or authorize) before."""
    header, claims = peek(token)
    check_algorithm(header, HTI_ALGORITHMS)
    portal = claims.get("iss")
    if portal not in STATE.apps:
        raise Refused("unknown issuer")
    if claims.get("aud") != audience:
        raise Refused("wrong aud")
    check_lifetime(claims, STATE.settings["hti_max_lifetime"], require_iat=True)
    consume_jti(STATE.hti_jtis, portal, claims.get("jti"))
    verify_signature(token, client_key(portal, header["kid"]), header["alg"])
    return claims


# MARK: - Access tokens

def granted_scope(client_id):
    app = STATE.apps[client_id]
    return app.get("scope") if app.get("scope") is not None else ROLE_SCOPES.get(app["role"], "")


def expires_in(seconds):
    return str(seconds) if STATE.settings["expires_in_as_string"] else seconds


def issue_access_token(client_id):
    lifetime = int(STATE.settings["token_lifetime"])
    moment = int(now())
    claims = {"iss": issuer(), "aud": ACCESS_AUDIENCE, "iat": moment, "nbf": moment, "exp": moment + lifetime,
              "nonce": uuid.uuid4().hex, "jti": str(uuid.uuid4()), "type": "access",
              "scope": granted_scope(client_id), "azp": client_id}
    with STATE.lock:
        STATE.issued[claims["jti"]] = claims["exp"]
    return sign(claims), claims


def access_claims(token):
    """The claims of a live access token of this auth service, else Refused: the signature, iss, aud "fhir-server",
    type, exp (no leeway), issued since the last reset and not expired by expire-tokens, by a registered app."""
    header, claims = peek(token)
    if header.get("alg") != "RS512" or header.get("kid") != SIGNING_KID:
        raise Refused("not signed by this auth service")
    verify_signature(token, SIGNING_KEY.as_dict(private=False), "RS512")
    if claims.get("iss") != issuer() or claims.get("aud") != ACCESS_AUDIENCE or claims.get("type") != "access":
        raise Refused("not an access token of this auth service")
    with STATE.lock:
        exp = STATE.issued.get(claims.get("jti"))
    if exp is None or min(exp, number(claims, "exp")) <= now():
        raise Refused("expired")
    if claims.get("azp") not in STATE.apps:
        raise Refused("unknown client")
    return claims


# MARK: - Auth service routes

@blueprint.get(JWKS_PATH)
def auth_jwks():
    key = dict(SIGNING_KEY.as_dict(private=False), kid=SIGNING_KID, use="sig", alg="RS512")
    return jsonify({"keys": [key]})


@blueprint.post(TOKEN_PATH)
def token():
    grant_type = request.form.get("grant_type")
    handler = {"client_credentials": client_credentials, "authorization_code": authorization_code}.get(grant_type)
    STATE.count("token", grant_type if handler else "other")
    if handler is None:
        return plain("Bad Request", 400)
    try:
        return handler()
    except Refused as refusal:
        STATE.record("token_refused", {"grant_type": grant_type, "reason": str(refusal)})
        return plain("Access Denied", 401)


def client_credentials():
    client_id = authenticate(request.form, [token_url()], "token")
    access_token, claims = issue_access_token(client_id)
    body = {"access_token": access_token, "token_type": "Bearer",
            "expires_in": expires_in(claims["exp"] - claims["iat"])}
    if claims["scope"]:
        body["scope"] = claims["scope"]
    return jsonify(body)


def authorization_code():
    """SHOF step 5: the code (single use, 60 s), the same redirect_uri, the PKCE verifier and an assertion of the
    client the code was issued to."""
    client_id = authenticate(request.form, [token_url()], "token")
    with STATE.lock:
        launch = STATE.codes.pop(request.form.get("code", ""), None)
    if launch is None or launch["expires"] <= now():
        raise Refused("unknown, used or expired code")
    if launch["client_id"] != client_id:
        raise Refused("code issued to another client")
    if request.form.get("redirect_uri") != launch["redirect_uri"]:
        raise Refused("redirect_uri differs from the authorize request's")
    if not pkce_matches(request.form.get("code_verifier"), launch["code_challenge"]):
        raise Refused("code_verifier does not match the code_challenge")
    lifetime = int(STATE.settings["token_lifetime"])
    body = {"access_token": "NOOP", "token_type": "Bearer", "expires_in": expires_in(lifetime),
            "scope": LAUNCH_SCOPE_TEXT, "id_token": id_token(client_id, launch, lifetime)}
    hti = launch["hti"]
    body.update({name: hti[name] for name in ("resource", "definition", "sub", "patient", "intent") if name in hti})
    return jsonify(body)


def pkce_matches(verifier, challenge):
    if not verifier:
        return False
    digest = hashlib.sha256(verifier.encode("ascii", "replace")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode() == challenge


def id_token(client_id, launch, lifetime):
    moment = int(now())
    return sign({"iss": issuer(), "aud": client_id, "azp": client_id, "sub": launch["hti"]["sub"], "iat": moment,
                 "nbf": moment, "exp": moment + lifetime, "nonce": launch["nonce"] or uuid.uuid4().hex,
                 "jti": str(uuid.uuid4())})


@blueprint.get(AUTHORIZE_PATH)
def authorize():
    """SHOF steps 2-4: check the request and the HTI, then send the browser to the IdP stand-in."""
    with STATE.lock:
        STATE.stats["authorizations"]["started"] += 1
    try:
        launch = authorize_request(request.args)
    except Refused as refusal:
        with STATE.lock:
            STATE.stats["authorizations"]["refused"].append(str(refusal))
        return plain(f"Bad Request, {refusal.answer}", 400)
    session = str(uuid.uuid4())
    with STATE.lock:
        STATE.sessions[session] = launch
    return "", 302, {"Location": origin() + IDP + "/login?" + urlencode({"session": session})}


def authorize_request(args):
    """The launch an authorize request stands for, else Refused with the RI's wording where it has one. The HTI is
    checked last, so that a request refused for another reason does not use up its jti."""
    client_id = args.get("client_id")
    if client_id not in STATE.apps:
        raise Refused("unknown client")
    if args.get("redirect_uri") not in STATE.apps[client_id]["redirect_uris"]:
        raise Refused("invalid redirect_uri")
    if args.get("response_type") != "code":
        raise Refused("unsupported response_type")
    if args.get("aud") != fhir_base():
        raise Refused("assertion failed: Invalid audience")
    if set((args.get("scope") or "").split()) != LAUNCH_SCOPE:
        raise Refused("invalid scope")
    if not args.get("state"):
        raise Refused("state missing")
    if not args.get("code_challenge") or args.get("code_challenge_method") != "S256":
        raise Refused("code_challenge with code_challenge_method S256 required")
    try:
        hti = verify_hti(args.get("launch"), device_of(client_id))
    except Refused as refusal:
        raise Refused(f"invalid launch token: {refusal}", answer="invalid launch token") from refusal
    if not isinstance(hti.get("sub"), str):
        raise Refused("invalid launch token: sub missing", answer="invalid launch token")
    return {"client_id": client_id, "redirect_uri": args["redirect_uri"], "state": args["state"],
            "code_challenge": args["code_challenge"], "nonce": args.get("nonce"), "hti": hti}


@blueprint.get(IDP + "/login")
def idp_login():
    """The identity provider stand-in: signs the browser's user in at once, as the configured identity (idp_user)
    or, by default, as the person the HTI sub names (the first identifier of that resource)."""
    session = request.args.get("session", "")
    with STATE.lock:
        launch = STATE.sessions.get(session)
    if launch is None:
        return plain("Bad Request, unknown session", 400)
    user = STATE.settings["idp_user"] or default_identity(launch["hti"]["sub"])
    with STATE.lock:
        launch["idp_user"] = user
        STATE.stats["authorizations"]["idp_logins"] += 1
    return "", 302, {"Location": origin() + AUTH + "/idp/callback?" + urlencode({"session": session})}


def default_identity(reference):
    resource = current(*split_reference(reference))
    values = identifier_values(resource) if resource else []
    return values[0] if values else "unknown-user@idp.example"


@blueprint.get(AUTH + "/idp/callback")
def idp_callback():
    """Back from the IdP: the signed-in identity must be an identifier of the HTI sub; then the code goes to the
    module's redirect_uri with its state."""
    with STATE.lock:
        launch = STATE.sessions.pop(request.args.get("session", ""), None)
    if launch is None or "idp_user" not in launch:
        return plain("Bad Request, unknown session", 400)
    sub = launch["hti"]["sub"]
    resource = current(*split_reference(sub))
    if resource is None or launch["idp_user"] not in identifier_values(resource):
        with STATE.lock:
            STATE.stats["authorizations"]["idp_mismatch"] += 1
        return plain(f"Forbidden, patient identifier [{launch['idp_user']}] not found on [{sub}]", 403)
    code = str(uuid.uuid4())
    with STATE.lock:
        STATE.codes[code] = dict(launch, expires=now() + CODE_LIFETIME)
        STATE.stats["authorizations"]["codes"] += 1
    separator = "&" if "?" in launch["redirect_uri"] else "?"
    return "", 302, {"Location": launch["redirect_uri"] + separator + urlencode({"code": code,
                                                                                  "state": launch["state"]})}


@blueprint.post(INTROSPECT_PATH)
def introspect():
    """RFC 7662 for HTI launches (and this service's access tokens)."""
    try:
        caller = authenticate(request.form, [token_url(), introspect_url()], "introspect")
    except Refused:
        return plain("Access Denied", 401)
    token_value = request.form.get("token")
    if not token_value:
        return plain("Bad Request, required field token missing", 400)
    try:
        claims = introspected_claims(token_value, caller)
        result, reason = dict(claims, active=True), None
    except Refused as refusal:
        result, reason = {"active": False}, str(refusal)
    STATE.record("introspections", {"caller": caller, "active": result["active"], "reason": reason})
    return jsonify(result)


def introspected_claims(token_value, caller):
    claims = peek(token_value)[1]
    if not claims.get("iss") or not claims.get("aud"):
        raise Refused("iss or aud missing")
    if isinstance(claims["aud"], str) and claims["aud"].startswith("Device/"):
        return verify_hti(token_value, device_of(caller))
    return access_claims(token_value)


# MARK: - FHIR resources

def instant():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def split_reference(reference):
    kind, _, identifier = (reference or "").partition("/")
    return kind, identifier


def current(kind, identifier):
    """The current version of a resource (a copy), or None when unknown or deleted."""
    with STATE.lock:
        entry = STATE.resources.get((kind, identifier))
        if entry is None or entry["deleted"]:
            return None
        return copy.deepcopy(entry["versions"][-1])


def save_version(resource):
    """Stores `resource` as the next version of its id: meta.versionId and meta.lastUpdated set by the server."""
    key = (resource["resourceType"], resource["id"])
    with STATE.lock:
        entry = STATE.resources.setdefault(key, {"versions": [], "deleted": False})
        resource["meta"] = dict(resource.get("meta") or {}, versionId=str(len(entry["versions"]) + 1),
                                lastUpdated=instant())
        entry["versions"].append(copy.deepcopy(resource))
        entry["deleted"] = False
    return resource


def identifier_values(resource):
    return [item.get("value") for item in resource.get("identifier") or [] if isinstance(item, dict)]


def origin_extensions(resource):
    return [item for item in resource.get("extension") or [] if item.get("url") == RESOURCE_ORIGIN]


def origin_extension(device_reference):
    return {"url": RESOURCE_ORIGIN, "valueReference": {"reference": device_reference, "type": "Device"}}


def origin_reference(extension):
    return (extension.get("valueReference") or {}).get("reference")


# MARK: - FHIR search

def reference_matches(reference, wanted):
    """A search value matches a reference as written, by id alone, or as an absolute URL on this server."""
    if not isinstance(reference, str):
        return False
    reference = reference.removeprefix(fhir_base() + "/")
    return reference == wanted or ("/" not in wanted and reference.endswith("/" + wanted))


def extension_reference(resource, url):
    return [(item.get("valueReference") or {}).get("reference")
            for item in resource.get("extension") or [] if item.get("url") == url]


def identifier_matches(resource, wanted):
    system, bar, value = wanted.rpartition("|")
    for item in resource.get("identifier") or []:
        if item.get("value") == value and (not bar or not system or item.get("system") == system):
            return True
    return False


def patient_references(resource):
    return [(resource.get(field) or {}).get("reference") for field in ("for", "subject", "patient")]


MATCHERS = {
    "_id": lambda resource, value: resource.get("id") == value,
    "status": lambda resource, value: resource.get("status") == value,
    "patient": lambda resource, value: any(reference_matches(ref, value) for ref in patient_references(resource)),
    "for": lambda resource, value: reference_matches((resource.get("for") or {}).get("reference"), value),
    "owner": lambda resource, value: reference_matches((resource.get("owner") or {}).get("reference"), value),
    "instantiates": lambda resource, value: any(
        reference_matches(ref, value) for ref in extension_reference(resource, INSTANTIATES)),
    "identifier": identifier_matches,
    "resource-origin": lambda resource, value: any(
        reference_matches(ref, value) for ref in extension_reference(resource, RESOURCE_ORIGIN)),
}


def matches(resource, params):
    """Every known parameter matches (AND); a comma-separated value matches any of its parts (OR)."""
    return all(any(MATCHERS[name](resource, part) for part in value.split(","))
               for name, value in params if name in MATCHERS)


def search(kind, params):
    with STATE.lock:
        entries = [entry["versions"][-1] for (stored_kind, _), entry in STATE.resources.items()
                   if stored_kind == kind and not entry["deleted"]]
        found = [copy.deepcopy(resource) for resource in entries if matches(resource, params)]
    return found


def searchset(matches_found, offset, count, page_id, self_url):
    """A searchset Bundle of `count` matches from `offset`, with self, next and previous links."""
    def page_url(start):
        return fhir_base() + "?" + urlencode({"_getpages": page_id, "_getpagesoffset": start, "_count": count,
                                              "_bundletype": "searchset"})

    links = [{"relation": "self", "url": self_url}]
    if offset + count < len(matches_found) and count > 0:
        links.append({"relation": "next", "url": page_url(offset + count)})
    if offset > 0:
        links.append({"relation": "previous", "url": page_url(max(0, offset - count))})
    entries = [{"fullUrl": f"{fhir_base()}/{item['resourceType']}/{item['id']}", "resource": item,
                "search": {"mode": "match"}} for item in matches_found[offset:offset + count]]
    return {"resourceType": "Bundle", "id": str(uuid.uuid4()), "meta": {"lastUpdated": instant()},
            "type": "searchset", "total": len(matches_found), "link": links, "entry": entries}


# MARK: - FHIR responses

def fhir(body, status=200, headers=None):
    return Response(json.dumps(body), status=status, headers=headers or {}, content_type=FHIR_JSON)


def outcome(status, code, diagnostics, headers=None):
    body = {"resourceType": "OperationOutcome",
            "issue": [{"severity": "error", "code": code, "diagnostics": diagnostics}]}
    return fhir(body, status, headers)


def with_version(resource, status=200):
    """The resource with its ETag, and where this version lives: Location after a create, else Content-Location."""
    version = resource["meta"]["versionId"]
    location = f"{fhir_base()}/{resource['resourceType']}/{resource['id']}/_history/{version}"
    where = "Location" if status == 201 else "Content-Location"
    return fhir(resource, status, {"ETag": f'W/"{version}"', where: location})


@blueprint.before_request
def trace_fhir_request():
    """Records the trace headers of a FHIR request and decides the ones to answer (and to pass on)."""
    if not request.path.startswith(FHIR):
        return
    received = {name: request.headers.get(name) for name in ("X-Request-Id", "X-Correlation-Id", "X-Trace-Id")}
    g.trace = {"request_id": received["X-Request-Id"] or str(uuid.uuid4()),
               "correlation_id": received["X-Correlation-Id"],
               "trace_id": received["X-Trace-Id"] or str(uuid.uuid4())}
    with STATE.lock:
        STATE.stats["trace"].append({
            "method": request.method, "path": request.full_path.rstrip("?"), "x_request_id": received["X-Request-Id"],
            "x_correlation_id": received["X-Correlation-Id"], "x_trace_id": received["X-Trace-Id"],
            "x_b3_traceid": request.headers.get("X-B3-TraceId")})


@blueprint.after_request
def echo_trace_headers(response):
    trace = g.get("trace")
    if trace is not None:
        response.headers["X-Request-Id"] = trace["request_id"]
        if trace["correlation_id"]:
            response.headers["X-Correlation-Id"] = trace["correlation_id"]
        response.headers["X-Trace-Id"] = trace["trace_id"]
    return response


OPERATIONS = {"read": "r", "vread": "r", "history": "r", "search": "s", "create": "c", "update": "u", "delete": "d"}


def caller_for(kind, interaction):
    """The registered app behind the bearer token when its scope allows `interaction` on `kind`, else the 401 or
    403 response. A scope is system/<Type or *>.<cruds letters>, a resource-origin suffix not enforced here."""
    STATE.count("fhir", request.method)
    header = request.headers.get("Authorization", "")
    try:
        if not header.startswith("Bearer "):
            raise Refused("no bearer token")
        claims = access_claims(header[len("Bearer "):].strip())
    except Refused as refusal:
        STATE.count("fhir_refused", f"401 {refusal}")
        return None, outcome(401, "login", "Authentication failed", {"WWW-Authenticate": "Bearer"})
    letter = OPERATIONS[interaction]
    for scope in claims.get("scope", "").split():
        match = re.fullmatch(r"system/(\*|[A-Za-z]+)\.([cruds]+)(\?.*)?", scope)
        if match and match.group(1) in ("*", kind) and letter in match.group(2):
            return claims["azp"], None
    STATE.count("fhir_refused", "403")
    return None, outcome(403, "forbidden", "Access denied by scope")


def media_type_problem(has_body):
    """415 for a body that is not FHIR JSON, 406 for an Accept that allows no JSON."""
    if has_body and request.mimetype not in ("application/fhir+json", "application/json"):
        return outcome(415, "not-supported", f"Unsupported media type {request.mimetype or '(none)'}")
    accept = request.headers.get("Accept")
    if accept:
        ranges = [item.split(";")[0].strip() for item in accept.split(",")]
        if not set(ranges) & {"application/fhir+json", "application/json", "*/*", "application/*"}:
            return outcome(406, "not-supported", f"Cannot answer {accept}")
    return None


def request_resource(kind):
    """The JSON resource of the request body, or a 400 OperationOutcome."""
    try:
        resource = json.loads(request.get_data() or b"null")
    except ValueError:
        return None, outcome(400, "structure", "The body is not JSON")
    if not isinstance(resource, dict) or resource.get("resourceType") != kind:
        return None, outcome(400, "invalid", f"The body is not a {kind} resource")
    return resource, None


def interaction(kind, name, has_body=False):
    """The checks every interaction starts with: a resource type, the token and its scope, the media types."""
    if not re.fullmatch(r"[A-Z][A-Za-z]+", kind):
        return None, outcome(404, "not-found", f"Unknown resource type {kind}")
    caller, failure = caller_for(kind, name)
    if failure is not None:
        return None, failure
    problem = media_type_problem(has_body)
    return (None, problem) if problem is not None else (caller, None)


# MARK: - FHIR routes

@blueprint.get(FHIR + "/.well-known/smart-configuration")
def smart_configuration():
    if not STATE.settings["smart_configuration"]:
        return plain("Not Found", 404)
    root = origin()
    return jsonify({
        "issuer": issuer(), "jwks_uri": root + JWKS_PATH, "authorization_endpoint": root + AUTHORIZE_PATH,
        "token_endpoint": root + TOKEN_PATH, "introspection_endpoint": root + INTROSPECT_PATH,
        "grant_types_supported": ["authorization_code", "client_credentials"],
        "token_endpoint_auth_methods_supported": ["private_key_jwt"],
        "token_endpoint_auth_signing_alg_values_supported": ASSERTION_ALGORITHMS,
        "scopes_supported": ["openid", "launch", "fhirUser", "system/*.cruds", "system/*.cruds?resource-origin="],
        "response_types_supported": ["code"],
        "capabilities": ["launch-ehr", "authorize-post", "client-confidential-asymmetric", "sso-openid-connect",
                         "context-ehr-hti", "permission-v2"],
        "code_challenge_methods_supported": ["S256"],
    })


@blueprint.get(FHIR + "/metadata")
def metadata():
    root = origin()
    uris = [{"url": name, "valueUri": value} for name, value in [
        ("token", root + TOKEN_PATH), ("authorize", root + AUTHORIZE_PATH), ("introspect", root + INTROSPECT_PATH),
        ("jwks", root + JWKS_PATH), ("issuer", issuer())]]
    return fhir({
        "resourceType": "CapabilityStatement", "status": "active", "date": "2026-01-01", "kind": "instance",
        "fhirVersion": "4.0.1", "format": ["application/fhir+json", "json"],
        "implementation": {"description": "Koppeltaal 2.0 emulator", "url": fhir_base()},
        "rest": [{"mode": "server", "security": {"extension": [{"url": OAUTH_URIS, "extension": uris}]}}],
    })


@blueprint.post(FHIR + "/<kind>")
def create(kind):
    caller, failure = interaction(kind, "create", has_body=True)
    if failure is not None:
        return failure
    resource, failure = request_resource(kind)
    if failure is not None:
        return failure
    if origin_extensions(resource):
        return outcome(400, "business-rule", "Not allowed to set extension resource-origin")
    existing = conditional_existing(kind)
    if isinstance(existing, Response):
        return existing
    if existing is not None:
        return with_version(existing, 200)
    problem = subscription_problem(resource)
    if problem is not None:
        return outcome(422, "business-rule", problem)
    resource["id"] = str(uuid.uuid4())
    resource["extension"] = (resource.get("extension") or []) + [origin_extension(device_of(caller))]
    stored = save_version(resource)
    notify_subscriptions(stored)
    return with_version(stored, 201)


def conditional_existing(kind):
    """If-None-Exist: the one existing match, a 412 response when several match, or None."""
    condition = request.headers.get("If-None-Exist")
    if not condition:
        return None
    found = search(kind, parse_qsl(condition.partition("?")[2] or condition))
    if len(found) > 1:
        return outcome(412, "duplicate", "If-None-Exist matches more than one resource")
    return found[0] if found else None


@blueprint.get(FHIR + "/<kind>/<identifier>")
def read(kind, identifier):
    _, failure = interaction(kind, "read")
    if failure is not None:
        return failure
    with STATE.lock:
        entry = STATE.resources.get((kind, identifier))
        deleted = entry is not None and entry["deleted"]
    if deleted:
        return outcome(410, "deleted", f"{kind}/{identifier} was deleted")
    resource = current(kind, identifier)
    if resource is None:
        return outcome(404, "not-found", f"Resource {kind}/{identifier} is not known")
    return with_version(resource)


def version_of(if_match):
    match = re.fullmatch(r'\s*(?:W/)?"([^"]*)"\s*', if_match or "")
    return match.group(1) if match else (if_match or "").strip()


@blueprint.put(FHIR + "/<kind>/<identifier>")
def update(kind, identifier):
    _, failure = interaction(kind, "update", has_body=True)
    if failure is not None:
        return failure
    if "If-Match" not in request.headers:
        return outcome(412, "processing", "If-Match header is required on updates")
    resource, failure = request_resource(kind)
    if failure is not None:
        return failure
    if resource.get("id") != identifier:
        return outcome(400, "invalid", "The body's id must equal the URL's")
    stored = current(kind, identifier)
    if stored is None:
        return outcome(404, "not-found", f"Resource {kind}/{identifier} is not known")
    if version_of(request.headers["If-Match"]) != stored["meta"]["versionId"]:
        return outcome(int(STATE.settings["conflict_status"]), "conflict",
                       f"Version {request.headers['If-Match']} is not the current version "
                       f"W/\"{stored['meta']['versionId']}\" of {kind}/{identifier}")
    failure = keep_resource_origin(resource, stored)
    if failure is not None:
        return failure
    problem = subscription_problem(resource)
    if problem is not None:
        return outcome(422, "business-rule", problem)
    updated = save_version(resource)
    notify_subscriptions(updated)
    return with_version(updated)


def keep_resource_origin(resource, stored):
    """An update may leave resource-origin out (it is restored) or send it unchanged; a changed one is 403 and
    more than one 400."""
    sent, kept = origin_extensions(resource), origin_extensions(stored)
    if len(sent) > 1:
        return outcome(400, "business-rule", "More than one resource-origin extension")
    if sent and [origin_reference(item) for item in sent] != [origin_reference(item) for item in kept]:
        return outcome(403, "forbidden", "Not allowed to change extension resource-origin")
    if not sent:
        resource["extension"] = (resource.get("extension") or []) + kept
    return None


@blueprint.delete(FHIR + "/<kind>/<identifier>")
def delete(kind, identifier):
    _, failure = interaction(kind, "delete")
    if failure is not None:
        return failure
    stored = current(kind, identifier)
    if stored is None:
        return outcome(404, "not-found", f"Resource {kind}/{identifier} is not known")
    if "If-Match" in request.headers and version_of(request.headers["If-Match"]) != stored["meta"]["versionId"]:
        return outcome(int(STATE.settings["conflict_status"]), "conflict", "Version is not the current version")
    with STATE.lock:
        STATE.resources[(kind, identifier)]["deleted"] = True
    return outcome(200, "informational", f"Successfully deleted {kind}/{identifier}")


@blueprint.get(FHIR + "/<kind>/<identifier>/_history")
def history(kind, identifier):
    _, failure = interaction(kind, "history")
    if failure is not None:
        return failure
    with STATE.lock:
        entry = STATE.resources.get((kind, identifier))
        versions = copy.deepcopy(entry["versions"]) if entry else []
    if not versions:
        return outcome(404, "not-found", f"Resource {kind}/{identifier} is not known")
    entries = [{"fullUrl": f"{fhir_base()}/{kind}/{identifier}", "resource": item} for item in reversed(versions)]
    return fhir({"resourceType": "Bundle", "type": "history", "total": len(entries), "entry": entries})


@blueprint.get(FHIR + "/<kind>/<identifier>/_history/<version>")
def vread(kind, identifier, version):
    _, failure = interaction(kind, "vread")
    if failure is not None:
        return failure
    with STATE.lock:
        entry = STATE.resources.get((kind, identifier))
        versions = copy.deepcopy(entry["versions"]) if entry else []
    found = next((item for item in versions if item["meta"]["versionId"] == version), None)
    if found is None:
        return outcome(404, "not-found", f"Version {version} of {kind}/{identifier} is not known")
    return with_version(found)


@blueprint.get(FHIR + "/<kind>")
def search_type(kind):
    _, failure = interaction(kind, "search")
    if failure is not None:
        return failure
    params = [(name, value) for name, value in request.args.items(multi=True)]
    ignored = sorted({name for name, _ in params if name not in MATCHERS and name != "_count"})
    if ignored:
        STATE.record("ignored_search_params", {"type": kind, "params": ignored})
    try:
        count = max(0, int(request.args.get("_count", STATE.settings["page_size"])))
    except ValueError:
        return outcome(400, "invalid", "_count is not a number")
    found = search(kind, params)
    page_id = str(uuid.uuid4())
    with STATE.lock:
        STATE.pages[page_id] = {"kind": kind, "matches": found}
    return fhir(searchset(found, 0, count, page_id, request.url))


@blueprint.get(FHIR)
@blueprint.get(FHIR + "/")
def next_page():
    """The pages after the first (link[next]); the base itself has no whole-system search."""
    page_id = request.args.get("_getpages")
    with STATE.lock:
        page = STATE.pages.get(page_id)
    kind = page["kind"] if page else "Bundle"
    _, failure = interaction(kind, "search")
    if failure is not None:
        return failure
    if page is None:
        return outcome(410 if page_id else 400, "not-found", "Unknown or expired search" if page_id
                       else "Whole-system search is not supported")
    try:
        offset = int(request.args.get("_getpagesoffset", 0))
        count = int(request.args.get("_count", STATE.settings["page_size"]))
    except ValueError:
        return outcome(400, "invalid", "_getpagesoffset and _count must be numbers")
    return fhir(searchset(page["matches"], offset, count, page_id, request.url))


# MARK: - Subscriptions

def loopback_http(url):
    parts = urlsplit(url)
    return parts.scheme == "http" and parts.hostname in ("127.0.0.1", "localhost", "::1")


def subscription_problem(resource):
    """A Subscription must be a rest-hook without payload to an https endpoint (http on the loopback interface is
    allowed here, for tests)."""
    if resource.get("resourceType") != "Subscription":
        return None
    channel = resource.get("channel") or {}
    if channel.get("type") != "rest-hook":
        return "Subscription.channel.type must be rest-hook"
    if "payload" in channel:
        return "Subscription.channel.payload is not allowed"
    endpoint = channel.get("endpoint") or ""
    if not (endpoint.startswith("https://") or loopback_http(endpoint)):
        return "Subscription.channel.endpoint must be https"
    return None


def criteria_match(criteria, resource):
    kind, _, query = (criteria or "").partition("?")
    return kind == resource["resourceType"] and matches(resource, parse_qsl(query))


def notify_subscriptions(resource):
    """A created or updated resource that matches an active Subscription's criteria is announced to its endpoint
    on a background thread."""
    subscriptions = search("Subscription", [("status", "active,requested")])
    trace = dict(g.get("trace") or {})
    for subscription in subscriptions:
        if criteria_match(subscription.get("criteria"), resource):
            threading.Thread(target=deliver, args=(subscription, resource, trace), daemon=True).start()


def deliver(subscription, resource, trace):
    """One attempt: POST with an empty body, the channel's header lines and the trace headers."""
    channel = subscription["channel"]
    headers = {"Content-Type": NOTIFICATION_TYPE, "X-Request-Id": str(uuid.uuid4()),
               "X-Trace-Id": trace.get("trace_id") or str(uuid.uuid4())}
    if trace.get("request_id"):
        headers["X-Correlation-Id"] = trace["request_id"]
    for line in channel.get("header") or []:
        name, _, value = line.partition(":")
        headers[name.strip()] = value.strip()
    record = {"subscription": "Subscription/" + subscription["id"], "endpoint": channel["endpoint"],
              "resource": f"{resource['resourceType']}/{resource['id']}", "x_request_id": headers["X-Request-Id"],
              "x_correlation_id": headers.get("X-Correlation-Id"), "x_trace_id": headers["X-Trace-Id"]}
    try:
        record["status"] = post_empty(channel["endpoint"], headers)
    except (OSError, ValueError, http.client.HTTPException) as error:
        record["error"] = str(error)
    STATE.record("notifications", record)


def post_empty(url, headers):
    """POSTs an empty body (Content-Length: 0) with the header names spelled as given; answers the status."""
    parts = urlsplit(url)
    kind = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = kind(parts.hostname, parts.port, timeout=10)
    try:
        connection.request("POST", (parts.path or "/") + ("?" + parts.query if parts.query else ""), body=b"",
                           headers=headers)
        return connection.getresponse().status
    finally:
        connection.close()


# MARK: - JWKS hosted for tests

@blueprint.get(BASE + "/hosted/<name>/jwks.json")
def hosted_jwks(name):
    """A JWKS a test asked this emulator to host (for an app that has no HTTP server of its own)."""
    with STATE.lock:
        hosted = STATE.hosted.get(name)
    if hosted is None:
        return plain("Not Found", 404)
    response = jsonify(hosted["jwks"])
    response.headers["Cache-Control"] = f"public, max-age={hosted['max_age']}"
    return response


# MARK: - Control

@blueprint.post("/_control/koppeltaal2")
def settings():
    changes = request.get_json(force=True) or {}
    unknown = set(changes) - set(DEFAULT_SETTINGS)
    if unknown:
        return jsonify(error=f"unknown settings {sorted(unknown)}"), 400
    if changes.get("conflict_status", 409) not in (409, 412):
        return jsonify(error="conflict_status must be 409 or 412"), 400
    with STATE.lock:
        STATE.settings.update(changes)
    return jsonify(ok=True)


@blueprint.post("/_control/koppeltaal2/apps")
def register_app():
    """Registers an app as the domain admin does, and creates its Device."""
    body = request.get_json(force=True) or {}
    client_id = body.get("client_id")
    role = body.get("role", "module")
    if not client_id:
        return jsonify(error="client_id is required"), 400
    if role not in ROLE_SCOPES and body.get("scope") is None:
        return jsonify(error=f"unknown role {role!r}; expected one of {sorted(ROLE_SCOPES)} or a scope"), 400
    app = {"client_id": client_id, "jwks_url": body.get("jwks_url"), "role": role,
           "redirect_uris": list(body.get("redirect_uris") or []), "device_id": body.get("device_id") or client_id,
           "scope": body.get("scope")}
    with STATE.lock:
        STATE.apps[client_id] = app
        STATE.jwks_cache.pop(client_id, None)
    device = save_version({
        "resourceType": "Device", "id": app["device_id"],
        "meta": {"profile": ["http://koppeltaal.nl/fhir/StructureDefinition/KT2Device"]},
        "identifier": [{"system": CLIENT_ID_SYSTEM, "value": client_id}], "status": "active",
        "deviceName": [{"name": body.get("name") or client_id, "type": "user-friendly-name"}],
    })
    return jsonify(client_id=client_id, device="Device/" + device["id"], scope=granted_scope(client_id))


@blueprint.post("/_control/koppeltaal2/resources")
def put_resource():
    """Stores a resource directly (test setup), keeping its id or assigning one; `origin` (a Device reference or
    id) adds the resource-origin extension."""
    body = request.get_json(force=True) or {}
    resource = body.get("resource")
    if not isinstance(resource, dict) or not resource.get("resourceType"):
        return jsonify(error="resource with a resourceType is required"), 400
    resource = copy.deepcopy(resource)
    resource.setdefault("id", str(uuid.uuid4()))
    if body.get("origin") and not origin_extensions(resource):
        device = body["origin"] if body["origin"].startswith("Device/") else "Device/" + body["origin"]
        resource["extension"] = (resource.get("extension") or []) + [origin_extension(device)]
    return jsonify(save_version(resource))


@blueprint.post("/_control/koppeltaal2/jwks")
def host_jwks():
    """Hosts a JWKS at /koppeltaal2/hosted/<name>/jwks.json (replacing one of the same name: a key rotation);
    answers its URL, to register as an app's jwks_url."""
    body = request.get_json(force=True) or {}
    name, jwks = body.get("name"), body.get("jwks")
    if not name or not isinstance(jwks, dict) or not isinstance(jwks.get("keys"), list):
        return jsonify(error="name and jwks {keys: [...]} are required"), 400
    with STATE.lock:
        STATE.hosted[name] = {"jwks": jwks, "max_age": int(body.get("max_age", JWKS_DEFAULT_MAX_AGE))}
    return jsonify(jwks_url=f"{origin()}{BASE}/hosted/{name}/jwks.json")


@blueprint.post("/_control/koppeltaal2/expire-tokens")
def expire_tokens():
    with STATE.lock:
        for jti in STATE.issued:
            STATE.issued[jti] = now() - 1
    return jsonify(ok=True)


@blueprint.get("/_control/koppeltaal2/stats")
def stats():
    with STATE.lock:
        return jsonify(dict(copy.deepcopy({name: value for name, value in STATE.stats.items() if name != "trace"}),
                            trace=list(STATE.stats["trace"])))
