"""A tiny HTTP server for transport tests: binds 127.0.0.1 on a free port and prints READY <port>.

GET/POST /echo         200, the request as JSON (method, path, headers, body)
GET /redirect          302 to /echo (a transport must not follow it)
POST /see-other        303 to /echo
GET /redirect-away     307 to another host (credentials must not follow it)
GET /status/<code>     that status, with Retry-After: 7
GET /slow              waits 3 seconds, then 200
GET /chunked           200 in chunked transfer coding, with a chunk extension
GET /chunked-trailer   the same with a trailer field (which URLSession on Linux crashes on)
GET /gzip              200 with a small gzip body, whatever the request accepts
GET /challenge         401 with WWW-Authenticate: Basic
GET /interim           103 Early Hints, then 200
GET /bad-header        200 with a header value holding a control character
GET /cut-length        Content-Length: 63, then 30 bytes and the end of the connection
GET /cut-close         a body framed by the end of the connection, cut without TLS's close_notify
GET /close-notify      a body framed by the end of the connection, whole, then TLS's close_notify (over TLS)
GET /bad-length        Content-Length: , (no length)
GET /endless-trailers  200 `hello` in chunked coding, then 1 KiB trailer fields until the client goes away (64 MiB at most)

With --tls DIR it serves HTTPS with a certificate of a test authority (DIR/ca.pem, made on first use with the
openssl command): for IP 127.0.0.1, or with --certificate KIND another one:
  wrong             for other.example only
  cn-only           subject CN=foo.probe.localhost, no subject alternative name
  partial-wildcard  for f*.probe.localhost
  wildcard          for *.probe.localhost
(--wrong-name is --certificate wrong.) The echo also gives the client's port, so a test sees a connection reused.

With --silent-ipv6 it also listens on [::1] at the same port but never accepts, its queue full, so a connection
there is never answered. With --silent-dns it also binds UDP 127.0.0.1:53 and never reads, a name server that never
answers (for a test in a network namespace of its own).
"""
import gzip
import json
import os
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # The head and the body go out in two writes; without this, a kept-alive connection waits 40 ms for each
    # answer's delayed acknowledgement.
    disable_nagle_algorithm = True

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
            payload = {"method": self.command, "path": self.path, "headers": dict(self.headers.items()), "body": body,
                       "client_port": self.client_address[1]}
            self.reply(200, json.dumps(payload).encode(), [("Content-Type", "application/json")])
        elif self.path == "/redirect":
            self.reply(302, b"", [("Location", "/echo")])
        elif self.path == "/see-other":
            self.reply(303, b"", [("Location", "/echo")])
        elif self.path == "/redirect-away":
            self.reply(307, b"", [("Location", "https://collector.example/steal")])
        elif self.path.startswith("/status/"):
            self.reply(int(self.path.rsplit("/", 1)[1]), b"<html>down</html>", [("Content-Type", "text/html"), ("Retry-After", "7")])
        elif self.path.startswith("/chunked"):
            self.send_response(200)
            self.send_header("Transfer-Encoding", "chunked")
            self.send_header("Content-Type", "text/plain")
            self.end_headers()
            trailer = b"X-Trailer: dropped\r\n" if self.path == "/chunked-trailer" else b""
            self.wfile.write(b"5;note=first\r\nhello\r\n7\r\n, world\r\n0\r\n" + trailer + b"\r\n")
        elif self.path == "/endless-trailers":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nTrailer: X-More\r\n\r\n5\r\nhello\r\n0\r\n")
            line = b"X-More: " + b"m" * 1014 + b"\r\n"
            try:
                for _ in range((64 << 20) // len(line)):
                    self.wfile.write(line)
                self.wfile.write(b"\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped reading, as it must
            self.close_connection = True
        elif self.path == "/gzip":
            self.reply(200, gzip.compress(b'{"ok":true}'), [("Content-Encoding", "gzip")])
        elif self.path == "/challenge":
            self.reply(401, b'{"error":"unauthorized"}', [("WWW-Authenticate", 'Basic realm="probe"')])
        elif self.path == "/interim":
            self.wfile.write(b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n")
            self.reply(200, b"final")
        elif self.path == "/bad-header":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nX-Note: a\x01b\r\nContent-Length: 2\r\n\r\nok")
        elif self.path in ("/cut-length", "/cut-close", "/bad-length"):
            body = b'{"access_token":"abcdefghijklmnopqrstuvwxyz","token_type":"Bearer"}'[:63]
            framing = {"/cut-length": b"Content-Length: 63\r\n", "/cut-close": b"Connection: close\r\n",
                       "/bad-length": b"Content-Length: ,\r\n"}[self.path]
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + framing + b"\r\n" + body[:30])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
        elif self.path == "/close-notify":
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nwhole body")
            self.wfile.flush()
            self.close_connection = True
            # unwrap() sends close_notify and waits for the client's, as a server that ends a body this way should.
            try:
                self.connection.unwrap().shutdown(socket.SHUT_RDWR)
            except (OSError, ssl.SSLError):
                pass
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


def make_certificates(directory):
    """A test authority and the server certificates it signed, one per kind."""
    def openssl(*arguments):
        subprocess.run(["openssl", *arguments], cwd=directory, check=True, capture_output=True)

    ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
    openssl("req", "-x509", *ec, "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=Probe Test CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign")
    kinds = (("ip", "ip", "IP:127.0.0.1"), ("wrong", "wrong", "DNS:other.example"),
             ("cn-only", "foo.probe.localhost", None), ("partial-wildcard", "partial", "DNS:f*.probe.localhost"),
             ("wildcard", "wildcard", "DNS:*.probe.localhost"))
    for name, common_name, alternative in kinds:
        with open(os.path.join(directory, f"{name}.ext"), "w") as file:
            file.write(f"subjectAltName={alternative}\n" if alternative else "basicConstraints=CA:FALSE\n")
        openssl("req", *ec, "-keyout", f"{name}.key", "-out", f"{name}.csr", "-subj", f"/CN={common_name}")
        openssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
                "-out", f"{name}.pem", "-days", "2", "-extfile", f"{name}.ext")


ThreadingHTTPServer.request_queue_size = 256  # many concurrent connections from one test
server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
if "--tls" in sys.argv:
    directory = sys.argv[sys.argv.index("--tls") + 1]
    if not os.path.exists(os.path.join(directory, "wildcard.pem")):
        make_certificates(directory)
    leaf = "wrong" if "--wrong-name" in sys.argv else "ip"
    if "--certificate" in sys.argv:
        leaf = sys.argv[sys.argv.index("--certificate") + 1]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(os.path.join(directory, f"{leaf}.pem"), os.path.join(directory, f"{leaf}.key"))
    server.socket = context.wrap_socket(server.socket, server_side=True)
silent = []
if "--silent-ipv6" in sys.argv:
    listener = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
    listener.bind(("::1", server.server_address[1]))
    listener.listen(0)
    silent.append(listener)
    for _ in range(8):
        waiting = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
        waiting.setblocking(False)
        waiting.connect_ex(("::1", server.server_address[1]))
        silent.append(waiting)
if "--silent-dns" in sys.argv:
    name_server = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    name_server.bind(("127.0.0.1", 53))
    silent.append(name_server)
print(f"READY {server.server_address[1]}", flush=True)
server.serve_forever()
