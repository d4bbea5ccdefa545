"""What the loopback test servers share: a threaded HTTP server on a free port, served
from a daemon thread, and a quiet JSON request handler."""

from __future__ import annotations

import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

__all__ = ["JsonHandler", "LoopbackServer"]


class JsonHandler(BaseHTTPRequestHandler):
    """Sends JSON replies; keep-alive like real services, no access log on stderr."""

    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes: without this every reply stalls ~40 ms
    # on delayed ACKs, which would dominate latency measurements.
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def read_body(self) -> bytes:
        length = int(self.headers.get("Content-Length") or 0)
        return self.rfile.read(length) if length else b""

    def _send(self, status: int, payload: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        try:
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (its timeout)
            self.close_connection = True

    def trickle(self, payload: bytes, interval: float) -> None:
        """A 200 whose body arrives one byte every `interval` seconds (each read is quick; the whole is not)."""
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        try:
            for index in range(len(payload)):
                self.wfile.write(payload[index : index + 1])
                self.wfile.flush()
                time.sleep(interval)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def drop(self) -> None:
        """Close the connection without an answer (a fault the client must survive)."""
        self.connection.shutdown(socket.SHUT_RDWR)
        self.close_connection = True


class _Server(ThreadingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return  # a client that went away (a process that exited with its connections open)
        super().handle_error(request, client_address)


class LoopbackServer:
    """A threaded HTTP server on a free port of `host` (a context manager)."""

    thread_name = "tau-loopback"

    def __init__(self, handler: type[BaseHTTPRequestHandler], host: str = "127.0.0.1") -> None:
        self._stopping = threading.Event()  # set on stop: ends injected hangs at once
        self._server = _Server((host, 0), handler)
        self._server.daemon_threads = True

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        host = host.decode() if isinstance(host, bytes) else host
        return f"http://{host}:{port}"

    def start(self) -> Self:
        threading.Thread(target=self._server.serve_forever, name=self.thread_name, daemon=True).start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
