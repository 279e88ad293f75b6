"""A tiny HTTP proxy for transport tests: binds 127.0.0.1 on a free port and prints READY <port>.

It serves CONNECT by tunnelling bytes both ways, and a plain request by forwarding it (absolute-form target) to its
origin. Every byte it relays from the client is appended to the file named by --record, so a test can check what a
proxy sees of an HTTPS exchange: the tunnel's TLS records, and never a token in clear.

With --tls DIR --certificate KIND it is an HTTPS proxy: clients talk TLS to it with the certificate KIND of the probe's
test authority in DIR (made by http_probe.py --tls DIR). Names under `localhost` are reached at 127.0.0.1.
"""
import select
import ssl
import signal
import socket
import sys
import threading
from urllib.parse import urlsplit

record = sys.argv[sys.argv.index("--record") + 1]
context = None
if "--tls" in sys.argv:
    directory = sys.argv[sys.argv.index("--tls") + 1]
    leaf = sys.argv[sys.argv.index("--certificate") + 1]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(f"{directory}/{leaf}.pem", f"{directory}/{leaf}.key")
lock = threading.Lock()


def keep(data):
    with lock, open(record, "ab") as file:
        file.write(data)


def read_head(connection):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        if not chunk:
            return None, b""
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    return head, rest


def relay(client, upstream):
    sockets = [client, upstream]
    while True:
        # TLS may hold decrypted bytes that select cannot see.
        buffered = [s for s in sockets if isinstance(s, ssl.SSLSocket) and s.pending()]
        readable = buffered or select.select(sockets, [], [], 30)[0]
        if not readable:
            return
        for source in readable:
            data = source.recv(65536)
            if not data:
                return
            if source is client:
                keep(data)
            (upstream if source is client else client).sendall(data)


def reachable(host):
    return "127.0.0.1" if host == "localhost" or host.endswith(".localhost") else host


def serve(client):
    try:
        if context is not None:
            client = context.wrap_socket(client, server_side=True)
        head, rest = read_head(client)
        if head is None:
            return
        keep(head + b"\r\n\r\n" + rest)
        request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
        method, target, _ = request_line.split(" ", 2)
        if method == "CONNECT":
            host, port = target.rsplit(":", 1)
            upstream = socket.create_connection((reachable(host), int(port)), timeout=10)
            client.sendall(b"HTTP/1.1 200 Connection established\r\n\r\n")
        else:
            origin = urlsplit(target)
            upstream = socket.create_connection((reachable(origin.hostname), origin.port or 80), timeout=10)
            path = origin.path or "/"
            if origin.query:
                path += "?" + origin.query
            lines = head.split(b"\r\n")
            lines[0] = f"{method} {path} HTTP/1.1".encode()
            upstream.sendall(b"\r\n".join(lines) + b"\r\n\r\n" + rest)
        relay(client, upstream)
        upstream.close()
    except OSError:
        pass
    finally:
        client.close()


signal.pthread_sigmask(signal.SIG_SETMASK, [])
listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", 0))
listener.listen(64)
print(f"READY {listener.getsockname()[1]}", flush=True)
while True:
    connection, _ = listener.accept()
    threading.Thread(target=serve, args=(connection,), daemon=True).start()
