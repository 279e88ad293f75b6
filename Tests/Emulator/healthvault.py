"""The HealthVault part of the emulator: master application, NewApplicationCreationInfo, the Shell redirect,
GetServiceDefinition, CreateAuthenticatedSessionToken, GetAuthorizedPeople, GetPersonInfo, GetThings v3, PutThings v2
and RemoveApplicationRecordAuthorization, over the SODA wire format.

Server rules, as the protocol sheet describes them:
- the header's elements come in schema order, with method, method-version, msg-time, msg-ttl and version required;
  msg-time must lie within msg-ttl plus the skew window of the server clock, either side, and msg-ttl may not
  exceed max_ttl_seconds;
- anonymous methods carry <app-id> (the master for provisioning, the child for CreateAuthenticatedSessionToken);
- CreateAuthenticatedSessionToken v2 proves the application secret with an HMAC-SHA256 over the exact <content>
  bytes received, and its signing time must be within the skew window;
- every other method is signed: SHA-256 of the exact <info> bytes is in <info-hash algName="SHA256">, and
  HMAC-SHA256 of the exact <header> bytes with the session secret is in <hmac-data algName="HMACSHA256">; a session
  works only on the instance that created it and expires after session_lifetime_seconds;
- an offline-person-id must name a person the application is authorized for; record-scoped methods need a record-id
  the application is still authorized for (ACCESS_DENIED once RemoveApplicationRecordAuthorization released it);
- things are kept per record, their data-xml exactly as received; an update must carry the thing's latest
  version-stamp (VERSION_STAMP_MISMATCH, 61, otherwise);
- GetThings returns a group's matches newest first: at most max in all, of which at most max-full (and never more
  than max_full_things, 240 by default) in full and the rest as unprocessed-thing-key-info keys; ids and keys are
  ORed with the filters, and a key selects its thing only at that version-stamp (the emulator keeps no history);
- attacker settings make GetThings answer with what was not asked for: unrequested_thing adds a thing that is not in
  the record to every group that selects by key (a follow-up), and extra_group puts a group of its own, holding such
  a thing, before the groups asked for;
- the Shell completes on the Shell of the instance that holds the user's account (shell_instance): a page opened on
  another instance's Shell bounces there when it carries aib=true, and is refused otherwise;
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

OK, FAILED, INVALID_XML, BAD_SIG, BAD_METHOD, INVALID_APP, INVALID_TOKEN = 0, 1, 3, 4, 5, 6, 8
INVALID_PERSON, INVALID_RECORD, ACCESS_DENIED, INVALID_THING = 9, 10, 11, 13
REQUEST_TIMED_OUT, AUTHORIZATION_DOES_NOT_EXIST, VERSION_STAMP_MISMATCH, SESSION_EXPIRED = 49, 58, 61, 65

# The header's elements in schema order (protocol sheet §2.3): each element's rank, and the ones that must be there.
# Elements that share a rank are alternatives (app-id or auth-session; language and country or culture-code).
HEADER_RANKS = {"method": 1, "method-version": 2, "target-person-id": 3, "record-id": 4, "app-id": 5,
                "auth-session": 5, "language": 6, "country": 7, "culture-code": 7, "final-xsl": 8, "msg-time": 9,
                "msg-ttl": 10, "version": 11, "info-hash": 12}
HEADER_REQUIRED = ("method", "method-version", "msg-time", "msg-ttl", "version")


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
            self.things = {}          # record id -> things, oldest first
            self.removed = []         # [child id, record id] for every released authorization, in order
            self.people_count = 3
            self.default_page_size = 2
            self.skew_seconds = 300
            self.clock_offset = 0.0
            self.shell_decision = "grant"
            self.shell_instance = "1"
            self.instance_id_key = "instanceid"
            self.max_ttl_seconds = 3600
            self.session_lifetime_seconds = 4 * 3600
            self.appauth_minimal_return = False
            self.action_url = None
            self.max_full_things = 240
            self.unrequested_thing = False
            self.extra_group = False
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
            self.max_ttl_seconds = float(settings.get("max_ttl_seconds", self.max_ttl_seconds))
            self.session_lifetime_seconds = float(settings.get("session_lifetime_seconds",
                                                               self.session_lifetime_seconds))
            self.appauth_minimal_return = bool(settings.get("appauth_minimal_return", self.appauth_minimal_return))
            self.action_url = settings.get("action_url", self.action_url)
            self.max_full_things = int(settings.get("max_full_things", self.max_full_things))
            self.unrequested_thing = bool(settings.get("unrequested_thing", self.unrequested_thing))
            self.extra_group = bool(settings.get("extra_group", self.extra_group))

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

    def people(self, app=None):
        """(person id, name, record id) of every person; with an app, only the records it is still authorized for."""
        result = []
        released = {record for child, record in self.removed if child == app}
        for index in range(self.people_count):
            person = uuid.uuid5(uuid.NAMESPACE_URL, f"healthvault-person-{index}")
            record = uuid.uuid5(uuid.NAMESPACE_URL, f"healthvault-record-{index}")
            if app is None or str(record) not in released:
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
    try:
        moment = datetime.datetime.fromisoformat(value)
    except ValueError:
        raise Failure(INVALID_XML, f"not an xsd:dateTime: {text}")
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
        hv.count(method)
        check_header_order(header)
        version = integer(text(header, "method-version"), "method-version")
        check_message_time(header)
        handlers = {
            ("NewApplicationCreationInfo", 1): new_application_creation_info,
            ("GetServiceDefinition", 2): get_service_definition,
            ("CreateAuthenticatedSessionToken", 2): create_authenticated_session_token,
            ("GetAuthorizedPeople", 1): get_authorized_people,
            ("GetPersonInfo", 1): get_person_info,
            ("GetThings", 3): get_things,
            ("PutThings", 2): put_things,
            ("RemoveApplicationRecordAuthorization", 1): remove_application_record_authorization,
        }
        handler = handlers.get((method, version))
        if handler is None:
            raise Failure(BAD_METHOD, f"unknown method {method} version {version}")
        return handler(instance, body, root, header, info)
    except Failure as failure:
        return respond(failure.code, message=failure.message)


def integer(value, name):
    try:
        return int(value)
    except (TypeError, ValueError):
        raise Failure(INVALID_XML, f"{name} is not an integer")


def check_header_order(header):
    rank = 0
    for child in header:
        child_rank = HEADER_RANKS.get(child.tag)
        if child_rank is None:
            raise Failure(INVALID_XML, f"unexpected header element {child.tag}")
        if child_rank <= rank:
            raise Failure(INVALID_XML, f"header element {child.tag} is out of schema order")
        rank = child_rank
    for name in HEADER_REQUIRED:
        if header.find(name) is None:
            raise Failure(INVALID_XML, f"the header needs {name}")
    if header.find("culture-code") is not None and header.find("language") is not None:
        raise Failure(INVALID_XML, "the header carries language or culture-code, not both")


def check_message_time(header):
    moment = parse_time(text(header, "msg-time") or "")
    ttl = integer(text(header, "msg-ttl"), "msg-ttl")
    if ttl < 0 or ttl > hv.max_ttl_seconds:
        raise Failure(INVALID_XML, f"msg-ttl must be between 0 and {hv.max_ttl_seconds:g} seconds")
    now = hv.now()
    # The window is symmetric: a message lives for its time to live, give or take the allowed skew, either side of
    # the server clock, so a client clock a few minutes off still works and a bounded msg-ttl bounds the window.
    if moment - datetime.timedelta(seconds=ttl + hv.skew_seconds) > now:
        raise Failure(REQUEST_TIMED_OUT, "the message time is in the future")
    if moment + datetime.timedelta(seconds=ttl + hv.skew_seconds) < now:
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
    if info.find("auth-info/credential/appserver2/hmacSig").get("algName") != "HMACSHA256":
        raise Failure(BAD_SIG, "hmacSig must be HMACSHA256")
    app_id = info.find("auth-info/app-id")
    multi_record = app_id.get("is-multi-record-app") if app_id is not None else None
    if multi_record not in (None, "true", "false"):
        raise Failure(INVALID_XML, "is-multi-record-app is a boolean")
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
        hv.sessions[token] = {"app": child, "secret": secret, "expired": False, "instance": instance,
                              "created": hv.now(), "multi_record": multi_record == "true"}
    return respond(info=f'<token app-id="{child}" app-record-auth-action="NoActionRequired">{escape(token)}</token>'
                        f"<shared-secret>{b64(secret)}</shared-secret>",
                   method="CreateAuthenticatedSessionToken", version=2)


def authenticated_session(instance, body, header):
    """Checks the signature of a signed request, its session and its offline person; returns the session."""
    token = text(header, "auth-session/auth-token")
    if token is None:
        raise Failure(INVALID_XML, "authenticated methods carry auth-session")
    with hv.lock:
        session = hv.sessions.get(token)
    if session is None or session["instance"] != instance:
        raise Failure(INVALID_TOKEN, "unknown session token")
    header_bytes = region(body, b"header")
    info_bytes = region(body, b"info")
    root = ElementTree.fromstring(body)
    mac = root.find("auth/hmac-data")
    hash_data = header.find("info-hash/hash-data")
    if None in (header_bytes, info_bytes, mac, hash_data) or None in (mac.text, hash_data.text):
        raise Failure(INVALID_XML, "signed requests need auth/hmac-data and header/info-hash")
    if mac.get("algName") != "HMACSHA256" or hash_data.get("algName") != "SHA256":
        raise Failure(BAD_SIG, "hmac-data must be HMACSHA256 and hash-data SHA256")
    if not hmac.compare_digest(b64(hashlib.sha256(info_bytes).digest()), hash_data.text):
        raise Failure(BAD_SIG, "the info-hash does not match the info")
    if not hmac.compare_digest(b64(hmac.new(session["secret"], header_bytes, hashlib.sha256).digest()), mac.text):
        raise Failure(BAD_SIG, "the hmac-data does not match the header")
    expires = session["created"] + datetime.timedelta(seconds=hv.session_lifetime_seconds)
    if session["expired"] or hv.now() >= expires:
        raise Failure(SESSION_EXPIRED, "The authenticated session token has expired.")
    with hv.lock:
        app = hv.apps.get(session["app"])
    if app is None:
        raise Failure(INVALID_APP, "the application no longer exists")
    if app["revoked"]:
        raise Failure(ACCESS_DENIED, "Access is denied.")
    return session


def offline_person(session, header):
    """The offline person of the request, which must be one the application is still authorized for."""
    person = text(header, "auth-session/offline-person-info/offline-person-id")
    if person is None:
        return None
    if person not in {entry[0] for entry in hv.people(session["app"])}:
        raise Failure(INVALID_PERSON, "the offline person is not authorized for this application")
    return person


def authorized_record(session, header):
    """The record-id of a record-scoped request, which the application and its offline person must be authorized
    for."""
    record = text(header, "record-id")
    if record is None:
        raise Failure(INVALID_XML, "record-scoped methods carry record-id")
    if record not in {entry[2] for entry in hv.people()}:
        raise Failure(INVALID_RECORD, "no such record")
    owners = [entry[0] for entry in hv.people(session["app"]) if entry[2] == record]
    if not owners:
        raise Failure(ACCESS_DENIED, "the application is not authorized for this record")
    if offline_person(session, header) not in owners:
        raise Failure(ACCESS_DENIED, "the offline person has no access to this record")
    return record


def person_info(person, name, records):
    """A person-info element with the given (record id, name) records."""
    items = "".join(
        f'<record id="{record}" record-custodian="true" rel-type="1" rel-name="Self" state="Active" '
        f'auth-expires="9999-12-31T23:59:59.999Z" date-created="2016-07-12T22:14:36.69Z" max-size-bytes="4294967296" '
        f'size-bytes="1024" app-record-auth-action="NoActionRequired">{escape(record_name)}</record>'
        for record, record_name in records)
    return f"<person-info><person-id>{person}</person-id><name>{escape(name)}</name>{items}</person-info>"


def get_authorized_people(instance, body, root, header, info):
    session = authenticated_session(instance, body, header)
    offline_person(session, header)
    cursor = text(info, "parameters/person-id-cursor")
    size = int(text(info, "parameters/num-results") or hv.default_page_size)
    people = hv.people(session["app"])
    start = 0
    if cursor is not None:
        ids = [person[0] for person in people]
        start = ids.index(cursor) + 1 if cursor in ids else len(people)
    page = people[start:start + size]
    more = start + size < len(people)
    results = "".join(person_info(person, name, [(record, name)]) for person, name, record in page)
    return respond(info=f"<response-results>{results}<more-results>{'true' if more else 'false'}</more-results>"
                        f"</response-results>", method="GetAuthorizedPeople")


def get_person_info(instance, body, root, header, info):
    session = authenticated_session(instance, body, header)
    person = offline_person(session, header)
    people = hv.people(session["app"])
    if not people:
        raise Failure(ACCESS_DENIED, "the application is not authorized for anyone")
    chosen = [entry for entry in people if entry[0] == (person or people[0][0])]
    _, name, _ = chosen[0]
    records = [(record, name) for _, _, record in chosen]
    return respond(info=person_info(chosen[0][0], name, records), method="GetPersonInfo")


def data_xml_regions(info_bytes):
    """The exact bytes between <data-xml> and its </data-xml>, for every data-xml element of info, in order."""
    regions = []
    position = 0
    while True:
        start = info_bytes.find(b"<data-xml", position)
        if start < 0:
            return regions
        close = info_bytes.find(b">", start)
        if info_bytes[close - 1:close] == b"/":
            regions.append(b"")
            position = close + 1
            continue
        depth, cursor = 1, close + 1
        while depth:
            opening = info_bytes.find(b"<data-xml", cursor)
            closing = info_bytes.find(b"</data-xml>", cursor)
            if closing < 0:
                raise Failure(INVALID_XML, "data-xml is not closed")
            if 0 <= opening < closing:
                depth, cursor = depth + 1, opening + 9
            else:
                depth, cursor = depth - 1, closing + 11
        regions.append(info_bytes[close + 1:cursor - 11])
        position = cursor


def put_things(instance, body, root, header, info):
    session = authenticated_session(instance, body, header)
    record = authorized_record(session, header)
    things = info.findall("thing")
    if not things:
        raise Failure(INVALID_XML, "PutThings needs at least one thing")
    contents = iter(data_xml_regions(region(body, b"info")))
    now = hv.now().strftime("%Y-%m-%dT%H:%M:%S")
    with hv.lock:
        stored = [dict(thing) for thing in hv.things.get(record, [])]
        keys = []
        for element in things:
            type_id = text(element, "type-id")
            if type_id is None:
                raise Failure(INVALID_XML, "a thing needs its type-id")
            data = next(contents) if element.find("data-xml") is not None else None
            key = element.find("thing-id")
            if key is None:
                thing = {"id": str(uuid.uuid4()), "type": type_id, "created": now}
                stored.append(thing)
            else:
                matches = [thing for thing in stored if thing["id"] == key.text]
                if not matches:
                    raise Failure(INVALID_THING, "no such thing in this record")
                thing = matches[0]
                if key.get("version-stamp") != thing["stamp"]:
                    raise Failure(VERSION_STAMP_MISMATCH, "the version-stamp is not the latest")
            thing.update(stamp=str(uuid.uuid4()), type=type_id)
            if data is not None:
                thing["data"] = data
            keys.append(f'<thing-id version-stamp="{thing["stamp"]}">{thing["id"]}</thing-id>')
        # All things of one request are written together or not at all.
        hv.things[record] = stored
    return respond(info="".join(keys), method="PutThings")


def get_things(instance, body, root, header, info):
    session = authenticated_session(instance, body, header)
    record = authorized_record(session, header)
    groups = info.findall("group")
    if not groups:
        raise Failure(INVALID_XML, "GetThings needs at least one group")
    with hv.lock:
        stored = list(reversed(hv.things.get(record, [])))
    results = []
    for group in groups:
        if group.find("format") is None:
            raise Failure(16, "every group needs a format")
        ids = {element.text for element in group.findall("id")}
        keys = {(element.text, element.get("version-stamp")) for element in group.findall("key")}
        if any(stamp is None for _, stamp in keys):
            raise Failure(INVALID_XML, "a key needs its version-stamp")
        filters = group.findall("filter")
        types = [{element.text for element in item.findall("type-id")} for item in filters]

        def selected(thing):
            by_id = thing["id"] in ids or (thing["id"], thing["stamp"]) in keys
            by_filter = all(not wanted or thing["type"] in wanted for wanted in types)
            # The id and key clause is ORed with the filters; with neither, every thing matches.
            if ids or keys:
                return by_id or (bool(filters) and by_filter)
            return by_filter

        matches = [thing for thing in stored if selected(thing)]
        if group.get("max") is not None:
            matches = matches[:integer(group.get("max"), "max")]
        full = hv.max_full_things
        if group.get("max-full") is not None:
            full = min(full, integer(group.get("max-full"), "max-full"))
        sections = {element.text for element in group.findall("format/section")}
        with_xml = group.find("format/xml") is not None
        rendered = "".join(render_thing(thing, "core" in sections, with_xml) for thing in matches[:full])
        rendered += "".join(render_key(thing) for thing in matches[full:])
        if hv.unrequested_thing and keys:
            rendered += render_thing(planted_thing(), "core" in sections, with_xml)
        name = group.get("name")
        opening = f'<group name="{escape(name, {chr(34): "&quot;"})}">' if name is not None else "<group>"
        if hv.extra_group:
            results.append(f"{opening}{render_thing(planted_thing(), 'core' in sections, with_xml)}</group>")
        results.append(f"{opening}{rendered}</group>")
    return respond(info="".join(results), method="GetThings", version=3)


def planted_thing():
    """A weight that no record holds, for answers that carry what nobody asked for."""
    return {"id": str(uuid.uuid4()), "stamp": str(uuid.uuid4()), "type": "3d34d87e-7fc1-4153-800f-f56592cb0d17",
            "created": hv.now().strftime("%Y-%m-%dT%H:%M:%S"),
            "data": b"<weight><value><kg>-1</kg></value></weight>"}


def render_thing(thing, core, with_xml):
    parts = [f'<thing><thing-id version-stamp="{thing["stamp"]}">{thing["id"]}</thing-id>'
             f'<type-id>{thing["type"]}</type-id>']
    if core:
        parts.append(f'<thing-state>Active</thing-state><flags>0</flags><eff-date>{thing["created"]}</eff-date>')
    if with_xml and "data" in thing:
        parts.append("<data-xml>" + thing["data"].decode("utf-8") + "</data-xml>")
    parts.append("</thing>")
    return "".join(parts)


def render_key(thing):
    return (f'<unprocessed-thing-key-info><thing-id version-stamp="{thing["stamp"]}">{thing["id"]}</thing-id>'
            f'<type-id>{thing["type"]}</type-id><eff-date>{thing["created"]}</eff-date></unprocessed-thing-key-info>')


def remove_application_record_authorization(instance, body, root, header, info):
    session = authenticated_session(instance, body, header)
    try:
        record = authorized_record(session, header)
    except Failure as failure:
        if failure.code == ACCESS_DENIED and text(header, "record-id") not in {e[2] for e in hv.people(session["app"])}:
            raise Failure(AUTHORIZATION_DOES_NOT_EXIST, "the application is not authorized for this record")
        raise
    with hv.lock:
        hv.removed.append([session["app"], record])
    return respond()


# The Shell ----------------------------------------------------------------------------------------------------

@blueprint.get("/hv/shell/<instance>/redirect.aspx")
def shell(instance):
    """What the user's browser would show; the decision comes from the test through the control endpoint.

    The user's account lives in `shell_instance` (or in the instance of the application named): a Shell of another
    instance bounces the browser to that instance's Shell with the same query when the page allows it (aib=true), and
    refuses the page otherwise. The page completes on the Shell that showed it."""
    target = request.args.get("target", "")
    parameters = dict(parse_qsl(request.args.get("targetqs", "").lstrip("?"), keep_blank_values=True))
    home = hv.shell_instance
    base = request.host_url.rstrip("/")
    if target in ("APPAUTH", "CREATEACCOUNT", "CREATERECORD"):
        with hv.lock:
            app = hv.apps.get(parameters.get("appid"))
            if app is not None and app["instance"] is not None:
                home = app["instance"]
    if home != instance:
        if parameters.get("aib", "").lower() != "true":
            return Response(f"<html>the account is in instance {home}, and the application does not allow bounce</html>",
                            status=400, content_type="text/html")
        return redirect(f"{base}/hv/shell/{home}/redirect.aspx?{request.query_string.decode()}", code=302)
    if target == "CREATEAPPLICATION":
        if parameters.get("appid") not in hv.masters:
            return Response("<html>unknown application</html>", status=400, content_type="text/html")
        with hv.lock:
            child = hv.tokens.pop(parameters.get("appCreationToken", ""), None)
            if child is not None and hv.shell_decision == "grant":
                hv.apps[child]["instance"] = instance
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
    else:
        return Response("<html>unknown target</html>", status=400, content_type="text/html")
    outcome = "AppAuthSuccess" if hv.shell_decision == "grant" else "AppAuthReject"
    if target == "APPAUTH" and outcome == "AppAuthSuccess" and hv.appauth_minimal_return:
        query = urlencode({"target": outcome})
    else:
        query = urlencode({"appid": child, "target": outcome, hv.instance_id_key: instance})
    if hv.action_url:
        return redirect(f"{hv.action_url}{'&' if '?' in hv.action_url else '?'}{query}", code=302)
    return redirect(f"{base}/hv/shell/{instance}/application/complete?{query}", code=302)


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
        authorizations = {child: [entry[2] for entry in hv.people(child)]
                          for child, app in hv.apps.items() if app["instance"] is not None}
        return jsonify(calls=dict(hv.calls), sessions=len(hv.sessions), apps=len(hv.apps), removed=list(hv.removed),
                       authorizations=authorizations,
                       things={record: len(things) for record, things in hv.things.items()})
