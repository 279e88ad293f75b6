"""The Koppeltaal part of the emulator: a FHIR DSTU1 Conformance, MobileLaunch activation codes, and an OAuth 2.0
authorization server built on Authlib (the JSON Authorize answer of the mobile launch, authorization_code and
refresh_token grants with rotation, client authentication, RFC 7009 revocation, PKCE), plus a resource endpoint
that answers stale bearer tokens with the `expired` OperationOutcome.

Server rules, as the protocol sheet describes them:
- the portal asks MobileLaunch for a one-time six-digit activation code (Basic auth), valid for days;
- the app sends it inside the scope, `launch:<code>`, to Authorize, which consumes it and answers
  {"authorization_code": …} as JSON rather than redirecting;
- the token endpoint returns the launch context (patient, user, resource, domain, intent) with the tokens;
  refresh tokens rotate, and a rotated-out token gets invalid_grant;
- client_secret_basic is read as the Koppeltaal server reads it: the id and secret as they are (RFC 7617), so a
  secret may hold a space; the basic_decoding setting "rfc6749" form-decodes them first instead (RFC 6749 §2.3.1).
"""
import base64
import binascii
import secrets
import socket
import threading
import time
from urllib.parse import unquote_plus
from xml.sax.saxutils import quoteattr

from authlib.common.security import generate_token
from authlib.consts import default_json_headers
from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6749 import ClientMixin, InvalidScopeError, grants
from authlib.oauth2.rfc6750 import BearerTokenGenerator
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge
from flask import Blueprint, Response, jsonify, request

BASE = "/kt"
PORTAL = ("portal", "portal-secret")
FORMS = {
    "F1": "http://fhir-registry.smartplatforms.org/Profile/oauth-uris",
    "F2": "http://fhir-registry.smarthealthit.org/Profile/oauth-uris",
    "F3": "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris",
}
NESTED = "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris"


class Client(ClientMixin):
    def __init__(self, client_id, secret, auth_methods, grant_types):
        self.client_id = client_id
        self.secret = secret
        self.auth_methods = auth_methods
        self.grant_types = grant_types
        self.redirect_uris = ["http://127.0.0.1/after-auth", "koppeltaal-game://after-auth"]

    def get_client_id(self):
        return self.client_id

    def get_default_redirect_uri(self):
        return self.redirect_uris[0]

    def get_allowed_scope(self, scope):
        # The launch code travels in the scope; it is not a scope the token carries.
        wanted = [item for item in (scope or "").split() if not item.startswith("launch:")]
        allowed = {"patient/*.read", "patient/*.*", "user/*.read"}
        return " ".join(item for item in wanted if item in allowed)

    def check_redirect_uri(self, redirect_uri):
        return redirect_uri in self.redirect_uris

    def check_client_secret(self, client_secret):
        return self.secret is not None and secrets.compare_digest(self.secret, client_secret)

    def check_endpoint_auth_method(self, method, endpoint):
        return method in self.auth_methods

    def check_response_type(self, response_type):
        return response_type == "code"

    def check_grant_type(self, grant_type):
        return grant_type in self.grant_types


class AuthorizationCode:
    def __init__(self, code, client_id, redirect_uri, scope, context, challenge, method):
        self.code, self.client_id, self.redirect_uri, self.scope = code, client_id, redirect_uri, scope
        self.context, self.code_challenge, self.code_challenge_method = context, challenge, method
        self.expires_at = time.time() + 60

    def get_redirect_uri(self):
        return self.redirect_uri

    def get_scope(self):
        return self.scope


class Token:
    def __init__(self, data, client_id, scope, context):
        self.access_token = data["access_token"]
        self.refresh_token = data.get("refresh_token")
        self.expires_at = time.time() + int(data.get("expires_in", 0))
        self.client_id, self.scope, self.context = client_id, scope, context
        self.access_revoked = False
        self.refresh_revoked = False

    def check_client(self, client):
        return self.client_id == client.get_client_id()

    def get_scope(self):
        return self.scope

    def get_expires_in(self):
        return max(0, int(self.expires_at - time.time()))

    def is_expired(self):
        return False  # refresh tokens do not expire here; access tokens are checked by the resource endpoint

    def is_revoked(self):
        return self.refresh_revoked

    def get_user(self):
        return "patient"

    def get_client(self):
        return STATE.clients[self.client_id]

    def access_is_valid(self):
        return not self.access_revoked and time.time() < self.expires_at


class State:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with getattr(self, "lock", threading.Lock()):
            self.clients = {
                "KTSTESTGAME": Client("KTSTESTGAME", "kt-secret", ["client_secret_basic", "client_secret_post"],
                                      ["authorization_code", "refresh_token"]),
                "KTPUBLIC": Client("KTPUBLIC", None, ["none"], ["authorization_code", "refresh_token"]),
                "KTNOREFRESH": Client("KTNOREFRESH", "kt-secret", ["client_secret_basic"], ["authorization_code"]),
                "KTSPACE": Client("KTSPACE", "Who@re U123?", ["client_secret_basic", "client_secret_post"],
                                  ["authorization_code", "refresh_token"]),
            }
            self.activations = {}
            self.codes = {}
            self.tokens = []
            self.settings = {
                "token_lifetime": 900, "activation_ttl_seconds": 7 * 86400, "conformance_form": "F1",
                "conformance_format": "auto", "rest_as_object": False, "relative_uris": False,
                "smart_configuration": False, "british_spelling": False, "refresh_omits_context": True,
                "www_authenticate": False, "outcome_shape": "dstu1", "drop_next_refresh_response": False,
                "empty_401": False, "basic_decoding": "raw",
            }
            self.counts = {}

    def count(self, name):
        with self.lock:
            self.counts[name] = self.counts.get(name, 0) + 1

    def token_by_access(self, value):
        with self.lock:
            return next((token for token in self.tokens if token.access_token == value), None)

    def token_by_refresh(self, value):
        with self.lock:
            return next((token for token in self.tokens if token.refresh_token == value), None)


STATE = State()
blueprint = Blueprint("koppeltaal", __name__)
server = AuthorizationServer()


def save_token(token, oauth_request):
    client = oauth_request.client
    if oauth_request.payload.grant_type == "refresh_token":
        previous = oauth_request.refresh_token
        context, scope = previous.context, previous.scope
    else:
        code = oauth_request.authorization_code
        context, scope = code.context, code.scope
    with STATE.lock:
        STATE.tokens.append(Token(token, client.get_client_id(), scope, context))
    # The launch context is part of the token response (the dict is the response body).
    if oauth_request.payload.grant_type != "refresh_token" or not STATE.settings["refresh_omits_context"]:
        token.update({key: value for key, value in context.items() if value})


class LaunchCodeGrant(grants.AuthorizationCodeGrant):
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]

    def save_authorization_code(self, code, oauth_request):
        data = oauth_request.payload.data
        item = AuthorizationCode(code, oauth_request.client.get_client_id(), oauth_request.payload.redirect_uri,
                                 oauth_request.scope, oauth_request.launch_context, data.get("code_challenge"),
                                 data.get("code_challenge_method"))
        with STATE.lock:
            STATE.codes[code] = item

    def query_authorization_code(self, code, client):
        with STATE.lock:
            item = STATE.codes.get(code)
        if item and item.client_id == client.get_client_id() and item.expires_at > time.time():
            return item
        return None

    def delete_authorization_code(self, authorization_code):
        with STATE.lock:
            STATE.codes.pop(authorization_code.code, None)

    def authenticate_user(self, authorization_code):
        return "patient"

    def create_authorization_response(self, redirect_uri, grant_user):
        # Koppeltaal's mobile Authorize answers with JSON instead of redirecting.
        self.request.user = grant_user
        code = self.generate_authorization_code()
        self.save_authorization_code(code, self.request)
        key = "authorisation_code" if STATE.settings["british_spelling"] else "authorization_code"
        return 200, {key: code}, default_json_headers


class RotatingRefreshGrant(grants.RefreshTokenGrant):
    INCLUDE_NEW_REFRESH_TOKEN = True
    TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]

    def authenticate_refresh_token(self, refresh_token):
        token = STATE.token_by_refresh(refresh_token)
        return token if token is not None and not token.refresh_revoked else None

    def authenticate_user(self, credential):
        return "patient"

    def revoke_old_credential(self, credential):
        credential.refresh_revoked = True
        credential.access_revoked = True


class Revocation(RevocationEndpoint):
    CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]

    def query_token(self, token_string, token_type_hint):
        if token_type_hint == "access_token":
            return STATE.token_by_access(token_string)
        if token_type_hint == "refresh_token":
            return STATE.token_by_refresh(token_string)
        return STATE.token_by_access(token_string) or STATE.token_by_refresh(token_string)

    def revoke_token(self, token, oauth_request):
        token.access_revoked = True
        token.refresh_revoked = True


def authenticate_basic(query_client, oauth_request):
    """client_secret_basic with the id and secret decoded as the basic_decoding setting says."""
    kind, _, encoded = oauth_request.headers.get("Authorization", "").partition(" ")
    if kind.lower() != "basic":
        return None
    try:
        pair = base64.b64decode(encoded, validate=True).decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        return None
    client_id, colon, secret = pair.partition(":")
    if not colon:
        return None
    if STATE.settings["basic_decoding"] == "rfc6749":
        client_id, secret = unquote_plus(client_id), unquote_plus(secret)
    client = query_client(client_id)
    if client is not None and client.check_client_secret(secret):
        return client
    return None


def init_app(app):
    app.config["OAUTH2_REFRESH_TOKEN_GENERATOR"] = True
    server.init_app(app, query_client=lambda client_id: STATE.clients.get(client_id), save_token=save_token)
    server.register_client_auth_method("client_secret_basic", authenticate_basic)
    server.register_token_generator("default", BearerTokenGenerator(
        access_token_generator=lambda *args, **kwargs: generate_token(42),
        refresh_token_generator=lambda *args, **kwargs: generate_token(48),
        expires_generator=lambda client, grant_type: STATE.settings["token_lifetime"],
    ))
    server.register_grant(LaunchCodeGrant, [CodeChallenge(required=False)])
    server.register_grant(RotatingRefreshGrant)
    server.register_endpoint(Revocation)


def base_url():
    return request.host_url.rstrip("/") + BASE


# FHIR discovery ------------------------------------------------------------------------------------------------

@blueprint.get(BASE + "/FHIR/Koppeltaal/metadata")
def metadata():
    STATE.count("metadata")
    settings = STATE.settings
    # Relative URIs are relative to the FHIR base (…/kt/FHIR/Koppeltaal), as SMART allows.
    prefix = ".." if settings["relative_uris"] else base_url()
    endpoints = {"authorize": prefix + "/OAuth2/Koppeltaal/Authorize", "token": prefix + "/OAuth2/Koppeltaal/Token"}
    form = settings["conformance_form"]
    if form == "none":
        extensions = []
    elif form == "F4":
        extensions = [{"url": NESTED, "extension": [{"url": name, "valueUri": uri} for name, uri in
                                                    list(endpoints.items()) + [("revoke", prefix + "/OAuth2/Koppeltaal/Revoke")]]}]
    else:
        extensions = [{"url": FORMS[form] + "#" + name, "valueUri": uri} for name, uri in endpoints.items()]
    wants_xml = settings["conformance_format"] == "xml" or (
        settings["conformance_format"] == "auto" and "xml" in request.headers.get("Accept", "").split(",")[0])
    if wants_xml:
        return Response(conformance_xml(extensions), content_type="application/xml+fhir")
    rest = {"mode": "server", "security": {"service": [{"text": "OAuth2"}], "extension": extensions}}
    body = {"resourceType": "Conformance", "name": "Koppeltaal emulator", "fhirVersion": "0.0.82",
            "format": ["json", "xml"], "rest": rest if settings["rest_as_object"] else [rest]}
    return jsonify(body)


def conformance_xml(extensions):
    def extension(item):
        inner = "".join(extension(child) for child in item.get("extension", []))
        value = f"<valueUri value={quoteattr(item['valueUri'])}/>" if "valueUri" in item else ""
        return f"<extension url={quoteattr(item['url'])}>{value}{inner}</extension>"
    return ('<?xml version="1.0" encoding="UTF-8"?><Conformance xmlns="http://hl7.org/fhir">'
            '<name value="Koppeltaal emulator"/><fhirVersion value="0.0.82"/><format value="xml"/><format value="json"/>'
            f'<rest><mode value="server"/><security>{"".join(extension(item) for item in extensions)}'
            "</security></rest></Conformance>")


@blueprint.get(BASE + "/FHIR/Koppeltaal/.well-known/smart-configuration")
def smart_configuration():
    if not STATE.settings["smart_configuration"]:
        return jsonify(error="not found"), 404
    return jsonify(authorization_endpoint=base_url() + "/OAuth2/Koppeltaal/Authorize",
                   token_endpoint=base_url() + "/OAuth2/Koppeltaal/Token",
                   revocation_endpoint=base_url() + "/OAuth2/Koppeltaal/Revoke",
                   code_challenge_methods_supported=["S256"],
                   token_endpoint_auth_methods_supported=["client_secret_basic", "client_secret_post", "none"])


# Mobile launch and OAuth ---------------------------------------------------------------------------------------

@blueprint.get(BASE + "/OAuth2/Koppeltaal/MobileLaunch")
def mobile_launch():
    STATE.count("MobileLaunch")
    auth = request.authorization
    if auth is None or (auth.username, auth.password) != PORTAL:
        return Response("", status=401, headers={"WWW-Authenticate": 'Basic realm="Koppeltaal"'})
    missing = [name for name in ("client_id", "patient", "user") if not request.args.get(name)]
    if missing:
        return jsonify(error="invalid_request", error_description=f"Missing {', '.join(missing)}"), 400
    if request.args["client_id"] not in STATE.clients:
        return jsonify(error="invalid_client", error_description="Unknown target application."), 400
    with STATE.lock:
        code = f"{secrets.randbelow(900000) + 100000}"
        while code in STATE.activations:
            code = f"{secrets.randbelow(900000) + 100000}"
        STATE.activations[code] = {
            "client_id": request.args["client_id"], "patient": request.args["patient"], "user": request.args["user"],
            "resource": request.args.get("resource"), "intent": request.args.get("intent"), "domain": "Emulator",
            "expires_at": time.time() + STATE.settings["activation_ttl_seconds"],
        }
    return jsonify(activation_code=code, expires_in=7)


@blueprint.get(BASE + "/OAuth2/Koppeltaal/Authorize")
def authorize():
    STATE.count("Authorize")
    try:
        grant = server.get_consent_grant(end_user="patient")
        launch = [item[len("launch:"):] for item in request.args.get("scope", "").split() if item.startswith("launch:")]
        with STATE.lock:
            activation = STATE.activations.pop(launch[0], None) if len(launch) == 1 else None
        if activation is None or activation["expires_at"] < time.time() or activation["client_id"] != grant.request.client.get_client_id():
            raise InvalidScopeError("Unknown, used or expired launch code")
        grant.request.launch_context = {key: activation[key] for key in ("patient", "user", "resource", "intent", "domain")}
        return server.create_authorization_response(grant=grant, grant_user="patient")
    except OAuth2Error as error:
        error.redirect_uri = None  # the mobile flow has no redirect: errors are JSON too
        return server.handle_error_response(request, error)


@blueprint.post(BASE + "/OAuth2/Koppeltaal/Token")
def token():
    grant_type = request.form.get("grant_type", "")
    STATE.count("Token:" + grant_type)
    response = server.create_token_response()
    if response.status_code != 200:
        STATE.count("Token:" + grant_type + ":refused")
    if grant_type == "refresh_token" and response.status_code == 200 and STATE.settings["drop_next_refresh_response"]:
        # The rotation is committed, then the response is lost.
        STATE.settings["drop_next_refresh_response"] = False
        connection = request.environ.get("werkzeug.socket")
        if connection is not None:
            connection.shutdown(socket.SHUT_RDWR)
            connection.close()
    return response


@blueprint.post(BASE + "/OAuth2/Koppeltaal/Revoke")
def revoke():
    STATE.count("Revoke")
    return server.create_endpoint_response(Revocation.ENDPOINT_NAME)


# Resource server -----------------------------------------------------------------------------------------------

@blueprint.route(BASE + "/FHIR/Koppeltaal/<path:resource>", methods=["GET", "POST"])
def fhir(resource):
    STATE.count("FHIR")
    header = request.headers.get("Authorization", "")
    token = STATE.token_by_access(header[len("Bearer "):]) if header.startswith("Bearer ") else None
    if token is None or not token.access_is_valid():
        return expired(header[len("Bearer "):])
    patient = (token.context or {}).get("patient")
    return jsonify(resourceType="Bundle", id="urn:uuid:" + secrets.token_hex(8), entry=[
        {"id": f"{patient}/_history/1", "content": {"resourceType": "MessageHeader", "identifier": resource}}])


def expired(presented):
    settings = STATE.settings
    headers = {"WWW-Authenticate": 'Bearer error="invalid_token", error_description="The access token expired"'} \
        if settings["www_authenticate"] or settings["empty_401"] else {}
    if settings["empty_401"]:
        return Response("", status=401, headers=headers)
    details = f"Authentication failed: Bearer token {presented} has expired"
    wants_xml = "xml" in request.headers.get("Accept", "").split(",")[0]
    if settings["outcome_shape"] == "dstu2":
        if wants_xml:
            body = ('<OperationOutcome xmlns="http://hl7.org/fhir"><issue><severity value="error"/><code value="expired"/>'
                    f"<details><text value={quoteattr(details)}/></details></issue></OperationOutcome>")
            return Response(body, status=401, headers=headers, content_type="application/xml+fhir")
        body = {"resourceType": "OperationOutcome", "issue": [{"severity": "error", "code": "expired", "details": {"text": details}}]}
    else:
        if wants_xml:
            body = ('<OperationOutcome xmlns="http://hl7.org/fhir"><issue><type><system value="http://hl7.org/fhir/issue-type"/>'
                    f'<code value="expired"/></type><details value={quoteattr(details)}/></issue></OperationOutcome>')
            return Response(body, status=401, headers=headers, content_type="application/xml+fhir")
        body = {"resourceType": "OperationOutcome",
                "issue": [{"type": {"system": "http://hl7.org/fhir/issue-type", "code": "expired"}, "details": details}]}
    response = jsonify(body)
    response.status_code = 401
    response.headers.extend(headers)
    response.content_type = "application/json+fhir"
    return response


# Control -------------------------------------------------------------------------------------------------------

@blueprint.post("/_control/koppeltaal")
def control():
    settings = request.get_json(force=True) or {}
    unknown = set(settings) - set(STATE.settings)
    if unknown:
        return jsonify(error=f"unknown settings {sorted(unknown)}"), 400
    STATE.settings.update(settings)
    return jsonify(ok=True)


@blueprint.post("/_control/koppeltaal/expire-tokens")
def expire_tokens():
    with STATE.lock:
        for token in STATE.tokens:
            token.expires_at = 0
    return jsonify(ok=True)


@blueprint.get("/_control/koppeltaal/stats")
def stats():
    with STATE.lock:
        return jsonify(calls=dict(STATE.counts), activations=len(STATE.activations),
                       live_refresh_tokens=sum(1 for token in STATE.tokens if token.refresh_token and not token.refresh_revoked))
