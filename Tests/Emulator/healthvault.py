"""The HealthVault part of the emulator: master application, NewApplicationCreationInfo, the Shell redirect,
GetServiceDefinition, CreateAuthenticatedSessionToken and GetAuthorizedPeople, over the SODA wire format.

Server rules, as the protocol sheet describes them:
- anonymous methods carry <app-id> (the master for provisioning, the child for CreateAuthenticatedSessionToken);
- CreateAuthenticatedSessionToken v2 proves the application secret with an HMAC-SHA256 over the exact <content>
  bytes received, and its signing time must be within the skew window;
- every other method is signed: SHA-256 of the exact <info> bytes is in <info-hash>, and HMAC-SHA256 of the exact
  <header> bytes with the session secret is in <hmac-data>;
- errors are HTTP 200 with a non-zero <status><code>.
"""
import base64
import datetime
import hashlib
import hmac
import secrets
import threading
import uuid
import xml.etree.ElementTree as ElementTree
from urllib.parse import parse_qsl, urlencode
from xml.sax.saxutils import escape

from flask import Blueprint, Response, jsonify, redirect, request

REQUEST_NS = "urn:com.microsoft.wc.request"
RESPONSE_NS = "urn:com.microsoft.wc.methods.response."
MASTER_APP = "6556d00c-cb8d-4004-90d6-8be528420ff7"
INSTANCES = {"1": "US", "2": "EU"}

OK, FAILED, INVALID_XML, BAD_SIG, BAD_METHOD, INVALID_APP, INVALID_TOKEN, ACCESS_DENIED = 0, 1, 3, 4, 5, 6, 8, 11
REQUEST_TIMED_OUT, SESSION_EXPIRED, CREATION_TOKEN_INVALID = 49, 65, 135


class Failure(Exception):
    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message


class HealthVault:
    def __init__(self):
        self.lock = threading.Lock()
        self.reset()

    def reset(self):
        with self.lock:
            self.masters = {MASTER_APP}
            self.apps = {}            # child id -> app
            self.tokens = {}          # app-token -> child id
            self.sessions = {}        # session token -> session
            self.people_count = 3
            self.default_page_size = 2
            self.skew_seconds = 300
            self.clock_offset = 0.0
            self.shell_decision = "grant"
            self.shell_instance = "1"
            self.instance_id_key = "instanceid"
            self.calls = {}

    # Settings and test controls --------------------------------------------------------------------------------

    def configure(self, settings):
        with self.lock:
            self.people_count = int(settings.get("people", self.people_count))
            self.default_page_size = int(settings.get("page_size", self.default_page_size))
            self.skew_seconds = float(settings.get("skew_seconds", self.skew_seconds))
            self.clock_offset = float(settings.get("clock_offset_seconds", self.clock_offset))
            self.shell_decision = settings.get("shell_decision", self.shell_decision)
            self.shell_instance = str(settings.get("shell_instance", self.shell_instance))
            self.instance_id_key = settings.get("instance_id_key", self.instance_id_key)

    def expire_sessions(self):
        with self.lock:
            for session in self.sessions.values():
                session["expired"] = True

    def revoke_access(self):
        with self.lock:
            for app in self.apps.values():
                app["revoked"] = True

    def delete_apps(self):
        with self.lock:
            self.apps.clear()

    def now(self):
        return datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=self.clock_offset)

    def count(self, method):
        with self.lock:
            self.calls[method] = self.calls.get(method, 0) + 1

    # People -----------------------------------------------------------------------------------------------------

    def people(self):
        result = []
        for index in range(self.people_count):
            person = uuid.uuid5(uuid.NAMESPACE_URL, f"healthvault-person-{index}")
            record = uuid.uuid5(uuid.NAMESPACE_URL, f"healthvault-record-{index}")
            result.append((str(person), f"Person {index} & Co", str(record)))
        return result


hv = HealthVault()
blueprint = Blueprint("healthvault", __name__)


# Wire helpers -------------------------------------------------------------------------------------------------

def region(body, name):
    """The exact bytes of <name>…</name> (or <name />) in body, as received."""
    empty = b"<" + name + b" />"
    start = body.find(b"<" + name + b">")
    empty_at = body.find(empty)
    if empty_at >= 0 and (start < 0 or empty_at < start):
        return empty
    if start < 0:
        return None
    end = body.find(b"</" + name + b">", start)
    if end < 0:
        return None
    return body[start:end + len(name) + 3]


def b64(data):
    return base64.b64encode(data).decode()


def parse_time(text):
    value = text.strip()
    if value.endswith("Z"):
        value = value[:-1] + "+00:00"
    moment = datetime.datetime.fromisoformat(value)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=datetime.timezone.utc)
    return moment


def respond(code=OK, info=None, method=None, version=1, message=None):
    parts = ['<?xml version="1.0" encoding="utf-8"?><response><status><code>', str(code), "</code>"]
    if code != OK:
        parts += ["<error><message>", escape(message or ""), "</message><context><server-name>emulator</server-name>",
                  "<server-ip>127.0.0.1</server-ip></context></error>"]
    parts.append("</status>")
    if info is not None:
        namespace = RESPONSE_NS + method + (str(version) if version > 1 else "")
        parts += ['<wc:info xmlns:wc="', namespace, '">', info, "</wc:info>"]
    parts.append("</response>")
    return Response("".join(parts), content_type="text/xml; charset=utf-8")


def text(element, path):
    found = element.find(path)
    return found.text if found is not None and found.text is not None else None


# The platform -------------------------------------------------------------------------------------------------

@blueprint.post("/hv/<instance>/platform/wildcat.ashx")
def platform(instance):
    body = request.get_data()
    try:
        if instance not in INSTANCES:
            raise Failure(FAILED, f"no instance {instance}")
        try:
            root = ElementTree.fromstring(body)
        except ElementTree.ParseError as error:
            raise Failure(INVALID_XML, f"malformed request: {error}")
        if root.tag != "{%s}request" % REQUEST_NS:
            raise Failure(INVALID_XML, "the root element is not wc-request:request")
        header = root.find("header")
        info = root.find("info")
        if header is None or info is None:
            raise Failure(INVALID_XML, "header and info are required")
        method = text(header, "method")
        version = int(text(header, "method-version") or 0)
        hv.count(method)
        check_message_time(header)
        handlers = {
            ("NewApplicationCreationInfo", 1): new_application_creation_info,
            ("GetServiceDefinition", 2): get_service_definition,
            ("CreateAuthenticatedSessionToken", 2): create_authenticated_session_token,
            ("GetAuthorizedPeople", 1): get_authorized_people,
        }
        handler = handlers.get((method, version))
        if handler is None:
            raise Failure(BAD_METHOD, f"unknown method {method} version {version}")
        return handler(instance, body, root, header, info)
    except Failure as failure:
        return respond(failure.code, message=failure.message)


def check_message_time(header):
    moment = text(header, "msg-time")
    ttl = int(text(header, "msg-ttl") or 0)
    if moment is None:
        raise Failure(INVALID_XML, "msg-time is required")
    if parse_time(moment) + datetime.timedelta(seconds=ttl + hv.skew_seconds) < hv.now():
        raise Failure(REQUEST_TIMED_OUT, "the request reached its time to live")


def anonymous_app_id(header):
    app_id = text(header, "app-id")
    if app_id is None or header.find("auth-session") is not None:
        raise Failure(INVALID_XML, "anonymous methods carry app-id")
    return app_id


def new_application_creation_info(instance, body, root, header, info):
    master = anonymous_app_id(header)
    if master not in hv.masters:
        raise Failure(INVALID_APP, "unknown master application")
    child = str(uuid.uuid4())
    secret = secrets.token_bytes(32)
    # Creation tokens are Base64 with '/', '+' and '=' so that clients must encode them twice in Shell URLs.
    token = b64(secrets.token_bytes(62) + b"\xfb\xff")
    with hv.lock:
        hv.apps[child] = {"master": master, "secret": secret, "token": token, "instance": None, "revoked": False}
        hv.tokens[token] = child
    return respond(info=f"<app-id>{child}</app-id><shared-secret>{b64(secret)}</shared-secret>"
                        f"<app-token>{escape(token)}</app-token>", method="NewApplicationCreationInfo")


def get_service_definition(instance, body, root, header, info):
    if anonymous_app_id(header) not in hv.masters:
        raise Failure(INVALID_APP, "unknown master application")
    base = request.host_url.rstrip("/")
    instances = "".join(
        f"<instance><id>{key}</id><name>{name}</name><description>Emulated {name} instance</description>"
        f"<platform-url>{base}/hv/{key}/platform/wildcat.ashx</platform-url>"
        f"<shell-url>{base}/hv/shell/{key}/</shell-url></instance>"
        for key, name in INSTANCES.items())
    return respond(info=f'<instances current-instance-id="{instance}">{instances}</instances>'
                        f"<updated-date>2017-08-10T12:34:56Z</updated-date>",
                   method="GetServiceDefinition", version=2)


def create_authenticated_session_token(instance, body, root, header, info):
    child = anonymous_app_id(header)
    with hv.lock:
        app = hv.apps.get(child)
    if app is None or app["instance"] != instance:
        raise Failure(INVALID_APP, "the application does not exist in this instance")
    content = region(body, b"content")
    signature = text(info, "auth-info/credential/appserver2/hmacSig")
    if content is None or signature is None:
        raise Failure(INVALID_XML, "auth-info/credential/appserver2 needs hmacSig and content")
    expected = b64(hmac.new(app["secret"], content, hashlib.sha256).digest())
    if not hmac.compare_digest(expected, signature):
        raise Failure(BAD_SIG, "the hmacSig does not match the content")
    parsed = ElementTree.fromstring(content)
    if text(parsed, "app-id") != child or text(parsed, "hmac") != "HMACSHA256":
        raise Failure(BAD_SIG, "the signed content names another application or algorithm")
    signing_time = parse_time(text(parsed, "signing-time") or "")
    if abs((hv.now() - signing_time).total_seconds()) > hv.skew_seconds:
        raise Failure(BAD_SIG, "the signing time is outside the allowed window")
    token = b64(secrets.token_bytes(49))
    secret = secrets.token_bytes(32)
    with hv.lock:
        hv.sessions[token] = {"app": child, "secret": secret, "expired": False}
    return respond(info=f'<token app-id="{child}" app-record-auth-action="NoActionRequired">{escape(token)}</token>'
                        f"<shared-secret>{b64(secret)}</shared-secret>",
                   method="CreateAuthenticatedSessionToken", version=2)


def authenticated_session(body, header):
    """Checks the info-hash and hmac-data of a signed request and returns its session."""
    token = text(header, "auth-session/auth-token")
    if token is None:
        raise Failure(INVALID_XML, "authenticated methods carry auth-session")
    with hv.lock:
        session = hv.sessions.get(token)
    if session is None:
        raise Failure(INVALID_TOKEN, "unknown session token")
    header_bytes = region(body, b"header")
    info_bytes = region(body, b"info")
    root = ElementTree.fromstring(body)
    claimed_mac = text(root, "auth/hmac-data")
    claimed_hash = text(header, "info-hash/hash-data")
    if None in (header_bytes, info_bytes, claimed_mac, claimed_hash):
        raise Failure(INVALID_XML, "signed requests need auth/hmac-data and header/info-hash")
    if not hmac.compare_digest(b64(hashlib.sha256(info_bytes).digest()), claimed_hash):
        raise Failure(BAD_SIG, "the info-hash does not match the info")
    if not hmac.compare_digest(b64(hmac.new(session["secret"], header_bytes, hashlib.sha256).digest()), claimed_mac):
        raise Failure(BAD_SIG, "the hmac-data does not match the header")
    if session["expired"]:
        raise Failure(SESSION_EXPIRED, "The authenticated session token has expired.")
    return session


def get_authorized_people(instance, body, root, header, info):
    session = authenticated_session(body, header)
    with hv.lock:
        app = hv.apps.get(session["app"])
    if app is None:
        raise Failure(INVALID_APP, "the application no longer exists")
    if app["revoked"]:
        raise Failure(ACCESS_DENIED, "Access is denied.")
    cursor = text(info, "parameters/person-id-cursor")
    size = int(text(info, "parameters/num-results") or hv.default_page_size)
    people = hv.people()
    start = 0
    if cursor is not None:
        ids = [person[0] for person in people]
        start = ids.index(cursor) + 1 if cursor in ids else len(people)
    page = people[start:start + size]
    more = start + size < len(people)
    results = "".join(
        f"<person-info><person-id>{person}</person-id><name>{escape(name)}</name>"
        f'<record id="{record}" record-custodian="true" rel-type="1" rel-name="Self" state="Active" '
        f'auth-expires="9999-12-31T23:59:59.999Z" date-created="2016-07-12T22:14:36.69Z" max-size-bytes="4294967296" '
        f'size-bytes="1024" app-record-auth-action="NoActionRequired">{escape(name)}</record></person-info>'
        for person, name, record in page)
    return respond(info=f"<response-results>{results}<more-results>{'true' if more else 'false'}</more-results>"
                        f"</response-results>", method="GetAuthorizedPeople")


# The Shell ----------------------------------------------------------------------------------------------------

@blueprint.get("/hv/shell/<instance>/redirect.aspx")
def shell(instance):
    """What the user's browser would show; the decision comes from the test through the control endpoint."""
    target = request.args.get("target", "")
    parameters = dict(parse_qsl(request.args.get("targetqs", "").lstrip("?"), keep_blank_values=True))
    chosen = hv.shell_instance
    base = request.host_url.rstrip("/")
    if target == "CREATEAPPLICATION":
        if parameters.get("appid") not in hv.masters:
            return Response("<html>unknown application</html>", status=400, content_type="text/html")
        with hv.lock:
            child = hv.tokens.pop(parameters.get("appCreationToken", ""), None)
            if child is not None and hv.shell_decision == "grant":
                hv.apps[child]["instance"] = chosen
        if child is None:
            return Response("<html>invalid application creation token</html>", status=400, content_type="text/html")
    elif target in ("APPAUTH", "CREATEACCOUNT", "CREATERECORD"):
        child = parameters.get("appid")
        with hv.lock:
            app = hv.apps.get(child)
            if app is None:
                return Response("<html>unknown application</html>", status=400, content_type="text/html")
            if hv.shell_decision == "grant":
                app["revoked"] = False
                chosen = app["instance"] or chosen
    else:
        return Response("<html>unknown target</html>", status=400, content_type="text/html")
    outcome = "AppAuthSuccess" if hv.shell_decision == "grant" else "AppAuthReject"
    query = urlencode({"appid": child, "target": outcome, hv.instance_id_key: chosen})
    return redirect(f"{base}/hv/shell/{chosen}/application/complete?{query}", code=302)


@blueprint.get("/hv/shell/<instance>/application/complete")
def complete(instance):
    return Response("<html>You can close this window.</html>", content_type="text/html")


# Control ------------------------------------------------------------------------------------------------------

@blueprint.post("/_control/healthvault")
def control():
    hv.configure(request.get_json(force=True) or {})
    return jsonify(ok=True)


@blueprint.post("/_control/healthvault/<action>")
def control_action(action):
    actions = {"expire-sessions": hv.expire_sessions, "revoke": hv.revoke_access, "delete-apps": hv.delete_apps}
    if action not in actions:
        return jsonify(error=f"unknown action {action}"), 404
    actions[action]()
    return jsonify(ok=True)


@blueprint.get("/_control/healthvault/stats")
def stats():
    with hv.lock:
        return jsonify(calls=dict(hv.calls), sessions=len(hv.sessions), apps=len(hv.apps))
