"""Fault injection: the next N requests under a path prefix get latency, an error status, a broken body, or a
dropped connection. Rules are set through the control endpoint and consumed in order."""
import socket
import threading
import time

from flask import Response, request


class Faults:
    KINDS = {"latency", "status", "html", "malformed", "truncated", "drop", "content_type", "extra_element"}

    def __init__(self):
        self._lock = threading.Lock()
        self._rules = []

    def reset(self):
        with self._lock:
            self._rules = []

    def add(self, rule):
        kind = rule.get("kind")
        if kind not in self.KINDS:
            raise ValueError(f"unknown fault kind {kind!r}; expected one of {sorted(self.KINDS)}")
        with self._lock:
            self._rules.append({"prefix": rule.get("path", "/"), "kind": kind, "count": int(rule.get("count", 1)),
                                "seconds": float(rule.get("seconds", 0)), "status": int(rule.get("status", 500)),
                                "retry_after": rule.get("retry_after")})

    def take(self, path):
        """The rule that applies to this request, consuming one use of it."""
        with self._lock:
            for rule in self._rules:
                if path.startswith(rule["prefix"]) and rule["count"] > 0:
                    rule["count"] -= 1
                    return dict(rule)
        return None

    def before(self):
        """Flask before_request hook: faults that replace the response entirely."""
        if request.path.startswith("/_control"):
            return None
        rule = self.take(request.path)
        if rule is None:
            return None
        request.environ["emulator.fault"] = rule
        kind = rule["kind"]
        if kind == "latency":
            time.sleep(rule["seconds"])
            return None
        if kind == "status":
            headers = {"Retry-After": str(rule["retry_after"])} if rule["retry_after"] is not None else {}
            return Response("", status=rule["status"], headers=headers)
        if kind == "html":
            return Response("<html><body><h1>Service Unavailable</h1></body></html>", status=rule["status"],
                            content_type="text/html")
        if kind == "drop":
            # Close the connection without a response: the client sees a reset, not an HTTP status.
            connection = request.environ.get("werkzeug.socket")
            if connection is not None:
                connection.shutdown(socket.SHUT_RDWR)
                connection.close()
            return Response("", status=500)
        return None

    @staticmethod
    def after(response):
        """Flask after_request hook: faults that damage a real response."""
        rule = request.environ.get("emulator.fault")
        if rule is None:
            return response
        kind = rule["kind"]
        body = response.get_data()
        if kind == "malformed":
            response.set_data(body[: body.find(b">") + 1] + b"<unclosed")
        elif kind == "truncated":
            response.set_data(body[: len(body) // 2])
        elif kind == "content_type":
            response.headers["Content-Type"] = "application/octet-stream"
        elif kind == "extra_element":
            response.set_data(add_unknown_element(body, response.mimetype))
        return response


def add_unknown_element(body, mimetype):
    """A valid body with an element or field the client does not know: it must be ignored."""
    if mimetype and "json" in mimetype and body.strip().startswith(b"{"):
        return b'{"x-unknown-field": {"nested": [1, 2]}, ' + body.strip()[1:]
    closing = body.rfind(b"</")
    if closing < 0:
        return body
    return body[:closing] + b"<x-unknown-element attribute=\"1\"><child>text</child></x-unknown-element>" + body[closing:]
