"""A tiny HTTP server for transport tests: binds 127.0.0.1 on a free port and prints READY <port>.

GET/POST /echo         200, the request as JSON (method, path, headers, body)
GET /redirect          302 to /echo (a transport must not follow it)
GET /redirect-away     307 to another host (credentials must not follow it)
GET /status/<code>     that status, with Retry-After: 7
GET /slow              waits 3 seconds, then 200
"""
import json
import os
import signal
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        try:
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (a timeout or cancellation test)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8") if length else ""
        if self.path.startswith("/echo"):
            payload = {"method": self.command, "path": self.path, "headers": dict(self.headers.items()), "body": body}
            self.reply(200, json.dumps(payload).encode(), [("Content-Type", "application/json")])
        elif self.path == "/redirect":
            self.reply(302, b"", [("Location", "/echo")])
        elif self.path == "/redirect-away":
            self.reply(307, b"", [("Location", "https://collector.example/steal")])
        elif self.path.startswith("/status/"):
            self.reply(int(self.path.rsplit("/", 1)[1]), b"<html>down</html>", [("Content-Type", "text/html"), ("Retry-After", "7")])
        elif self.path == "/slow":
            time.sleep(3)
            self.reply(200, b"late")
        else:
            self.reply(404)

    do_GET = handle_any
    do_POST = handle_any


def exit_when_stdin_closes():
    sys.stdin.buffer.read()
    os._exit(0)


# The test runner may have blocked signals; SIGTERM must stop the server. With --exit-with-parent it also stops when
# its standard input closes, that is, when the process that started it ends.
signal.pthread_sigmask(signal.SIG_SETMASK, [])
if "--exit-with-parent" in sys.argv:
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(f"READY {server.server_address[1]}", flush=True)
server.serve_forever()
