"""The Vital (Junction) part of the emulator: the team API (Create User with conflicts, resolve, delete, Create
Sign-In Token), the auth host's /v1/token (RFC 8693 token exchange and refresh_token with rotation) and a
Bearer-protected data endpoint (the user's connected providers).

Server rules, as the protocol sheet describes them:
- team keys decide the environment: sk_us_/sk_eu_ are the sandbox (issuer shorthand stg), pk_us_/pk_eu_ production
  (prd);
- a sign-in token is standard Base64 of {"public_key", "user_token"}, the user token an RS256 JWT whose issuer is
  id-signer-<env>-<region>@vital-id-<env>-<region>.iam.gserviceaccount.com; it is short-lived and single-use;
- /v1/token answers errors as {"error", "detail": {"error_type", "message"}}: invalid_token (401) for a bad, used or
  expired sign-in token and for a deleted user at refresh; reauthentication_required (400) for a rotated-out,
  unknown or revoked refresh token;
- the data API answers 401 {"detail": {"error_type": "invalid_token"}} for a missing, unknown or expired bearer
  token, and for a deleted user; 403 when the path names another user.

Routes live under /vital/api (the API host) and /vital/auth (the auth host).
"""
import base64
import json
import secrets
import threading
import time
import uuid
from datetime import datetime, timezone

from flask import Blueprint, jsonify, request
from joserfc import jwt
from joserfc.errors import JoseError
from joserfc.jwk import RSAKey

API = "/vital/api"
AUTH = "/vital/auth"
TEAM_ID = "8f1d5f5e-3c1a-4f5e-9a57-2b4f6c7d8e90"
KEYS = {"sk_us_emulator": ("stg", "us"), "sk_eu_emulator": ("stg", "eu"), "pk_us_emulator": ("prd", "us"),
        "pk_eu_emulator": ("prd", "eu")}
EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
SUBJECT_TYPE = "urn:junction:sign-in-token"


def now_text():
    return datetime.now(timezone.utc).isoformat()


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.signing_key = RSAKey.generate_key(2048)
        self.reset()

    def reset(self):
        with self.lock:
            self.users = {}            # user_id -> {client_user_id, created_on, env, deleted}
            self.used_token_ids = set()
            self.sessions = {}         # refresh_token -> {user_id, revoked}
            self.access = {}           # access_token -> {user_id, expires_at}
            self.counts = {}
            self.settings = {"access_ttl": 3600, "sign_in_token_ttl": 3600, "expires_in_as_string": False}

    def count(self, name):
        with self.lock:
            self.counts[name] = self.counts.get(name, 0) + 1


STATE = State()
blueprint = Blueprint("vital", __name__)


def error(status, error_type, message, oauth_error=None, **extra):
    detail = {"error_type": error_type, "message" if oauth_error else "error_message": message, **extra}
    body = {"detail": detail}
    if oauth_error:
        body["error"] = oauth_error
    return jsonify(body), status


def team_environment():
    """The (env, region) of the request's team key, or None."""
    return KEYS.get(request.headers.get("x-vital-api-key", ""))


def invalid_key():
    # FastAPI's shape for an HTTPException: detail is a string, not the error object.
    return jsonify(detail="Invalid API key"), 401


# Team API (backend) -------------------------------------------------------------------------------------------

@blueprint.post(API + "/v2/user")
@blueprint.post(API + "/v2/user/")
def create_user():
    STATE.count("CreateUser")
    if team_environment() is None:
        return invalid_key()
    body = request.get_json(silent=True) or {}
    client_user_id = body.get("client_user_id")
    if not isinstance(client_user_id, str) or not client_user_id:
        return jsonify(detail=[{"loc": ["body", "client_user_id"], "msg": "field required",
                                "type": "value_error.missing"}]), 422
    with STATE.lock:
        existing = next((uid for uid, user in STATE.users.items()
                         if user["client_user_id"] == client_user_id and not user["deleted"]), None)
        if existing is None:
            user_id = str(uuid.uuid4())
            STATE.users[user_id] = {"client_user_id": client_user_id, "created_on": now_text(),
                                    "env": team_environment(), "deleted": False,
                                    "providers": [{"name": "Oura", "slug": "oura",
                                                   "logo": "https://storage.example/oura.png",
                                                   "status": "connected", "created_on": now_text()}]}
            return jsonify(user_id=user_id, client_user_id=client_user_id)
        created_on = STATE.users[existing]["created_on"]
    return error(400, "INVALID_REQUEST", "Client user id already exists.", user_id=existing, created_on=created_on)


@blueprint.get(API + "/v2/user/resolve/<client_user_id>")
def resolve_user(client_user_id):
    STATE.count("ResolveUser")
    if team_environment() is None:
        return invalid_key()
    with STATE.lock:
        for user_id, user in STATE.users.items():
            if user["client_user_id"] == client_user_id and not user["deleted"]:
                return jsonify(user_id=user_id, client_user_id=client_user_id, created_on=user["created_on"])
    return error(404, "USER_NOT_FOUND", "No user has this client_user_id.")


@blueprint.delete(API + "/v2/user/<user_id>")
def delete_user(user_id):
    STATE.count("DeleteUser")
    if team_environment() is None:
        return invalid_key()
    with STATE.lock:
        user = STATE.users.get(user_id)
        if user is None or user["deleted"]:
            return error(404, "USER_NOT_FOUND", "No such user.")
        user["deleted"] = True
    return jsonify(success=True)


@blueprint.post(API + "/v2/user/<user_id>/sign_in_token")
def create_sign_in_token(user_id):
    STATE.count("CreateSignInToken")
    environment = team_environment()
    if environment is None:
        return invalid_key()
    with STATE.lock:
        user = STATE.users.get(user_id)
        if user is None or user["deleted"] or user["env"] != environment:
            return error(404, "USER_NOT_FOUND", "No such user.")
        ttl = STATE.settings["sign_in_token_ttl"]
    return jsonify(user_id=user_id, sign_in_token=mint_sign_in_token(user_id, environment, ttl))


def mint_sign_in_token(user_id, environment, ttl):
    env, region = environment
    issuer = f"id-signer-{env}-{region}@vital-id-{env}-{region}.iam.gserviceaccount.com"
    issued = int(time.time())
    claims = {"iss": issuer, "sub": issuer,
              "aud": "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit",
              "iat": issued, "exp": issued + ttl, "jti": secrets.token_hex(16), "uid": user_id,
              "tenant_id": "t-" + secrets.token_hex(4) + "-emu", "claims": {"vital_team_id": TEAM_ID}}
    user_token = jwt.encode({"alg": "RS256", "typ": "JWT"}, claims, STATE.signing_key)
    envelope = {"public_key": "AIza" + secrets.token_urlsafe(26), "user_token": user_token}
    return base64.b64encode(json.dumps(envelope).encode()).decode()


# Auth host -----------------------------------------------------------------------------------------------------

@blueprint.post(AUTH + "/v1/token")
def token():
    grant_type = request.form.get("grant_type")
    STATE.count("token:" + str(grant_type))
    if grant_type == EXCHANGE:
        return exchange()
    if grant_type == "refresh_token":
        response = refresh()
        if isinstance(response, tuple):
            STATE.count("token:refresh_token:refused")
        return response
    return error(400, "invalid_request", "unsupported grant_type", oauth_error="unsupported_grant_type")


def invalid_token(message):
    return error(401, "invalid_token", message, oauth_error="invalid_grant")


def exchange():
    if request.form.get("subject_token_type") != SUBJECT_TYPE:
        return error(400, "invalid_request", "subject_token_type must be " + SUBJECT_TYPE, oauth_error="invalid_request")
    try:
        decoded = jwt.decode(request.form.get("subject_token", ""), STATE.signing_key)
    except (JoseError, ValueError):
        return invalid_token("The sign-in token is not valid.")
    claims = decoded.claims
    if decoded.header.get("alg") != "RS256" or claims.get("exp", 0) <= time.time():
        return invalid_token("The sign-in token expired.")
    with STATE.lock:
        if claims.get("jti") in STATE.used_token_ids:
            return invalid_token("The sign-in token was already used.")
        STATE.used_token_ids.add(claims.get("jti"))
        user = STATE.users.get(claims.get("uid"))
        if user is None or user["deleted"]:
            return invalid_token("The user does not exist.")
        return issue(claims["uid"])


def refresh():
    presented = request.form.get("refresh_token", "")
    with STATE.lock:
        session = STATE.sessions.pop(presented, None)
        if session is None or session["revoked"]:
            return error(400, "reauthentication_required", "The refresh token is not valid.", oauth_error="invalid_grant")
        user = STATE.users.get(session["user_id"])
        if user is None or user["deleted"]:
            return invalid_token("The user no longer exists.")
        return issue(session["user_id"])


def issue(user_id):
    """A new access and refresh token pair; the caller holds the lock."""
    access_token = "vat_" + secrets.token_urlsafe(24)
    refresh_token = "vrt_" + secrets.token_urlsafe(32)
    ttl = STATE.settings["access_ttl"]
    STATE.access[access_token] = {"user_id": user_id, "expires_at": time.time() + ttl}
    STATE.sessions[refresh_token] = {"user_id": user_id, "revoked": False}
    lifetime = str(ttl) if STATE.settings["expires_in_as_string"] else ttl
    return jsonify(access_token=access_token, refresh_token=refresh_token, expires_in=lifetime)


# Data API ------------------------------------------------------------------------------------------------------

@blueprint.get(API + "/v2/user/providers/<user_id>")
def providers(user_id):
    STATE.count("GetConnectedProviders")
    denied = authorize_user(user_id)
    if denied is not None:
        return denied
    with STATE.lock:
        return jsonify(providers=STATE.users[user_id]["providers"])


def authorize_user(user_id):
    """None when the request may read `user_id`'s data, else the error response."""
    if "x-vital-api-key" in request.headers:
        if team_environment() is None:
            return invalid_key()
        with STATE.lock:
            user = STATE.users.get(user_id)
            return error(404, "USER_NOT_FOUND", "No such user.") if user is None or user["deleted"] else None
    scheme, _, presented = request.headers.get("Authorization", "").partition(" ")
    with STATE.lock:
        grant = STATE.access.get(presented) if scheme.lower() == "bearer" else None
        if grant is None or grant["expires_at"] <= time.time() or STATE.users[grant["user_id"]]["deleted"]:
            return error(401, "invalid_token", "The access token is not valid.")
        if grant["user_id"] != user_id:
            return error(403, "invalid_request", "The token does not grant access to this user.")
    return None


# Control -------------------------------------------------------------------------------------------------------

@blueprint.post("/_control/vital")
def control():
    settings = request.get_json(force=True) or {}
    unknown = set(settings) - set(STATE.settings)
    if unknown:
        return jsonify(error=f"unknown settings {sorted(unknown)}"), 400
    with STATE.lock:
        STATE.settings.update(settings)
    return jsonify(ok=True)


@blueprint.post("/_control/vital/expire-tokens")
def expire_tokens():
    with STATE.lock:
        for grant in STATE.access.values():
            grant["expires_at"] = 0
    return jsonify(ok=True)


@blueprint.post("/_control/vital/revoke-sessions")
def revoke_sessions():
    """Revokes every refresh token, so the next refresh answers reauthentication_required."""
    with STATE.lock:
        for session in STATE.sessions.values():
            session["revoked"] = True
    return jsonify(ok=True)


@blueprint.post("/_control/vital/mint")
def mint():
    """A sign-in token with chosen claims, for tests of expiry: {user_id, ttl}."""
    body = request.get_json(force=True) or {}
    with STATE.lock:
        user = STATE.users.get(body.get("user_id", ""))
        if user is None:
            return jsonify(error="unknown user"), 404
        environment = user["env"]
    return jsonify(sign_in_token=mint_sign_in_token(body["user_id"], environment, int(body.get("ttl", 3600))))


@blueprint.get("/_control/vital/stats")
def stats():
    with STATE.lock:
        live = sum(1 for session in STATE.sessions.values() if not session["revoked"])
        return jsonify(calls=dict(STATE.counts), live_sessions=live, users=len(STATE.users))
