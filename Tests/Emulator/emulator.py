"""An independent emulator of the HealthVault, Koppeltaal (1.x and 2.0), Vital and SMART servers, for the SDK's
integration tests.

It shares no code with the SDK: it checks signatures and hashes itself, and keeps all state in memory.

Usage: python emulator.py [--port N] [--exit-with-parent]
Binds 127.0.0.1 (port 0 picks a free one) and prints "READY <port>" once it accepts connections. With
--exit-with-parent it stops when its standard input closes, that is, when the process that started it ends.

Control endpoints (JSON), for tests:
  POST /_control/reset                     forget everything
  POST /_control/faults {path, kind, ...}  inject a fault into the next matching requests (see faults.py)
  POST /_control/second-origin             serve the same emulator on a second port too (another origin); answers
                                           its port
  GET  /_stream/bytes?bytes=N&announce=1   stream N bytes (1 GiB by default), with a Content-Length when announced
  GET  /_control/stream/stats              how many bytes the last stream got out before the client hung up
  GET  /_control/sandbox                   what a developer points a family at: base paths, keys, client ids, secrets and
                                           redirect URIs, read from the emulator's own configuration
  GET  /_echo/headers                      the request's header fields as a JSON object
  GET  /_stream/encoded?layers=2|1         8 GiB of zeros in gzip twice (13 KB, Content-Encoding: gzip, gzip) or
                                           once (8 MB, Content-Encoding: gzip), whatever the request accepts
  POST /_control/healthvault {...}         settings: people, page_size, skew_seconds, clock_offset_seconds,
                                           shell_decision (grant|reject), shell_instance, instance_id_key,
                                           max_ttl_seconds, session_lifetime_seconds, appauth_minimal_return,
                                           action_url, max_full_things, unrequested_thing, extra_group
  POST /_control/healthvault/<action>      expire-sessions | revoke | delete-apps
  GET  /_control/healthvault/stats         calls per method, authorizations per app, released authorizations,
                                           things per record
  POST /_control/koppeltaal {...}          settings (see koppeltaal.State.reset): token_lifetime, conformance_form,
                                           conformance_format, smart_configuration, british_spelling, ...
  POST /_control/koppeltaal/expire-tokens  expire every access token now
  GET  /_control/koppeltaal/stats          calls per endpoint and grant type
  POST /_control/koppeltaal2 {...}         settings (see koppeltaal2.DEFAULT_SETTINGS): token_lifetime (300),
                                           smart_configuration (true), conflict_status (409|412), page_size (50),
                                           expires_in_as_string, hti_max_lifetime (300, null for none), idp_user
  POST /_control/koppeltaal2/apps {...}    register an app and create its Device: client_id, jwks_url, role
                                           (admin|module|portal), redirect_uris, device_id (client_id), name, scope
  POST /_control/koppeltaal2/jwks {...}    host a JWKS (name, jwks, max_age) at /koppeltaal2/hosted/<name>/jwks.json;
                                           answers jwks_url
  POST /_control/koppeltaal2/resources     store {resource} directly (id kept or assigned, versioned); origin adds
                                           resource-origin
  POST /_control/koppeltaal2/expire-tokens expire every access token now
  GET  /_control/koppeltaal2/stats         token requests per grant type, refused tokens and assertions (reasons),
                                           JWKS fetches per client, introspections, authorizations, FHIR calls per
                                           method and refusals, trace headers of the last FHIR requests,
                                           notifications and their status, ignored search parameters
  POST /_control/vital {...}               settings: access_ttl, sign_in_token_ttl, expires_in_as_string
  POST /_control/vital/<action>            expire-tokens | revoke-sessions | mint {user_id, ttl}
  GET  /_control/vital/stats               calls per endpoint and grant type, live sessions
  POST /_control/smart {...}               settings (see smart.DEFAULT_SETTINGS): token_lifetime, pkce,
                                           keep_old_refresh_valid, id_token_tamper, id_token_issuer,
                                           strict_openid, id_token_alg (RS256|ES256), evil_redirect_uri, issuer,
                                           evil_issuer, authorize_endpoint_query, lenient_redirect_uri,
                                           token_member_depth, ...
  POST /_control/smart/clients {...}       register a client: client_id, auth_method, secret, jwks, grant_types, scopes
  POST /_control/smart/launch {...}        mint an EHR launch for client_id with its context; answers launch and iss
  POST /_control/smart/expire-tokens       expire every access token now
  GET  /_control/smart/stats               token requests per grant type (and token_refused), revocations, rejected
                                           assertions, introspections, FHIR calls, live refresh tokens, what the mix-up
                                           attacker at /evil saw (evil_authorize, evil_token)
"""
import argparse
import gzip
import os
import signal
import sys
import threading
import time

from flask import Flask, Response, jsonify, request
from werkzeug.serving import make_server

import healthvault
import koppeltaal
import koppeltaal2
import smart
import vital
from faults import Faults


def create_app():
    app = Flask(__name__)
    faults = Faults()
    app.before_request(faults.before)
    app.after_request(faults.after)
    app.register_blueprint(healthvault.blueprint)
    app.register_blueprint(koppeltaal.blueprint)
    app.register_blueprint(koppeltaal2.blueprint)
    app.register_blueprint(vital.blueprint)
    app.register_blueprint(smart.blueprint)
    koppeltaal.init_app(app)
    smart.init_app(app)

    @app.post("/_control/reset")
    def reset():
        faults.reset()
        healthvault.hv.reset()
        koppeltaal.STATE.reset()
        koppeltaal2.STATE.reset()
        vital.STATE.reset()
        smart.STATE.reset()
        return jsonify(ok=True)

    streamed = {"bytes": 0}

    @app.get("/_stream/bytes")
    def stream_bytes():
        """Streams `bytes` bytes (1 GiB by default) in 64 KiB pieces, paced like a fast network (at most about
        250 MB/s, so a client that hangs up is noticed), announcing the length with announce=1, and counts what it
        got out before the client hung up."""
        total = int(request.args.get("bytes", 1 << 30))
        piece = b"0" * 65536
        streamed["bytes"] = 0

        def generate():
            while streamed["bytes"] < total:
                chunk = piece[:min(len(piece), total - streamed["bytes"])]
                yield chunk
                streamed["bytes"] += len(chunk)
                time.sleep(0.00025)

        headers = {"Content-Length": str(total)} if request.args.get("announce") == "1" else {}
        return Response(generate(), headers=headers, mimetype="application/octet-stream")

    @app.get("/_control/sandbox")
    def sandbox():
        """The values the README's sandbox table lists, from the live configuration (a test compares the two)."""
        kt = koppeltaal.State()
        smart_clients = smart.default_clients()
        return jsonify({
            "healthvault": {"platform": "/hv/1/platform/wildcat.ashx", "shell": "/hv/shell/1",
                            "master_application_id": healthvault.MASTER_APP},
            "koppeltaal": {"fhir": koppeltaal.BASE + "/FHIR/Koppeltaal", "launch": koppeltaal.BASE + "/OAuth2/Koppeltaal",
                           "portal_user": koppeltaal.PORTAL[0], "portal_password": koppeltaal.PORTAL[1],
                           "client_id": "KTSTESTGAME", "client_secret": kt.clients["KTSTESTGAME"].secret,
                           "public_client_id": "KTPUBLIC",
                           "redirect_uris": kt.clients["KTSTESTGAME"].redirect_uris},
            "koppeltaal2": {"fhir": koppeltaal2.FHIR, "auth": koppeltaal2.AUTH},
            "vital": {"api": vital.API, "auth": vital.AUTH, "team_keys": sorted(vital.KEYS)},
            "smart": {"fhir": smart.FHIR, "public_client_id": "smart-public",
                      "confidential_client_id": "smart-confidential",
                      "confidential_client_secret": smart_clients["smart-confidential"]["secret"],
                      "backend_client_id": "smart-backend", "redirect_uris": smart.REDIRECTS},
        })

    @app.get("/_echo/headers")
    def echo_headers():
        return jsonify({name: value for name, value in request.headers.items()})

    bomb_path = os.path.join(os.path.dirname(__file__), "..", "Fixtures", "Encodings", "zeros-8GiB.gz.gz")

    @app.get("/_stream/encoded")
    def stream_encoded():
        """Answers with a compressed body however the request asked (a hostile server): 8 GiB of zeros in gzip
        twice, or once with layers=1."""
        with open(bomb_path, "rb") as file:
            body = file.read()
        if request.args.get("layers") == "1":
            body = gzip.decompress(body)
            encoding = "gzip"
        else:
            encoding = "gzip, gzip"
        return Response(body, headers={"Content-Encoding": encoding}, mimetype="application/json")

    @app.get("/_control/stream/stats")
    def stream_stats():
        return jsonify(streamed)

    second = {"server": None, "lock": threading.Lock()}

    @app.post("/_control/second-origin")
    def second_origin():
        """Serves the same emulator on a second port of 127.0.0.1, a second origin, for the tests of a client that
        talks to several servers (an attacker's among them); answers its port."""
        with second["lock"]:
            if second["server"] is None:
                server = make_server("127.0.0.1", 0, app, threaded=True)
                threading.Thread(target=server.serve_forever, daemon=True).start()
                second["server"] = server
        return jsonify(port=second["server"].port)

    @app.post("/_control/faults")
    def add_fault():
        try:
            faults.add(request.get_json(force=True) or {})
        except ValueError as error:
            return jsonify(error=str(error)), 400
        return jsonify(ok=True)

    return app


def exit_when_stdin_closes():
    sys.stdin.buffer.read()
    os._exit(0)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--exit-with-parent", action="store_true")
    arguments = parser.parse_args()
    # A parent may have blocked signals (test runners do); SIGTERM must stop the emulator.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    if arguments.exit_with_parent:
        threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    server = make_server("127.0.0.1", arguments.port, create_app(), threaded=True)
    print(f"READY {server.port}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
