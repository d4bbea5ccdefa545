"""The openai path's transport (pytest_tau._httppool): a stack of idle connections per origin
instead of httpcore's scan of every connection, and whole-call bounds read by its streams."""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from pytest_tau._deadline import CallDeadline, CallStopped, bounded
from pytest_tau._httppool import StackPool, stack_transport


class _Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as a model server

    def do_GET(self) -> None:  # the stdlib calls it by this name
        self.server.peers.add(self.client_address)  # type: ignore[attr-defined]
        if self.path == "/trickle":
            body = b"x" * 40
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            for byte in body:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(0.05)
            return
        body = b"ok"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        if self.path == "/close":
            self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)
        if self.path in ("/close", "/hang-up"):
            self.close_connection = True  # /hang-up: without telling the client

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[Any]:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    httpd.peers = set()  # type: ignore[attr-defined]
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield httpd
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with httpx.Client(transport=stack_transport(), timeout=10.0) as http_client:
        yield http_client


def _url(server: Any, path: str = "/") -> str:
    return f"http://127.0.0.1:{server.server_address[1]}{path}"


def _pool(client: httpx.Client) -> StackPool:
    pool = client._transport._pool  # type: ignore[attr-defined]
    assert isinstance(pool, StackPool)
    return pool


def test_sequential_calls_share_one_connection(server: Any, client: httpx.Client) -> None:
    for _ in range(5):
        assert client.get(_url(server)).content == b"ok"
    assert len(server.peers) == 1
    assert len(_pool(client).connections) == 1


def test_concurrent_calls_open_a_connection_each_and_reuse_them(server: Any, client: httpx.Client) -> None:
    def call() -> None:
        assert client.get(_url(server, "/trickle")).content == b"x" * 40  # about 2 s: all 6 overlap

    threads = [threading.Thread(target=call) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(server.peers) == 6
    for _ in range(6):
        client.get(_url(server))
    assert len(server.peers) == 6, "later calls reuse the idle connections"


def test_a_connection_the_server_closed_is_not_reused(server: Any, client: httpx.Client) -> None:
    for _ in range(3):
        assert client.get(_url(server, "/close")).content == b"ok"
    assert len(server.peers) == 3
    assert _pool(client).connections == [], "a closed connection is dropped, not kept idle"


def test_an_idle_connection_closed_by_the_server_is_replaced(server: Any, client: httpx.Client) -> None:
    """A server's keep-alive timeout: it hangs up on an idle connection without saying so."""
    assert client.get(_url(server, "/hang-up")).content == b"ok"
    time.sleep(0.3)  # the server's FIN arrives while the connection sits idle in the pool
    assert client.get(_url(server)).content == b"ok"
    assert len(server.peers) == 2
    assert len(_pool(client).connections) == 1


def test_a_body_cut_at_the_call_deadline_drops_its_connection(server: Any, client: httpx.Client) -> None:
    started = time.monotonic()
    with pytest.raises(CallDeadline, match=r"no complete answer within 0.5s"):
        bounded(0.5, lambda: client.get(_url(server, "/trickle")), "trickle")
    assert time.monotonic() - started < 1.5  # the trickle takes 2 s; each read is quick
    assert _pool(client).connections == [], "a half-read connection is never handed out again"
    assert client.get(_url(server)).content == b"ok"


def test_a_stopping_run_ends_the_call_in_flight(server: Any, client: httpx.Client) -> None:
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    started = time.monotonic()
    with pytest.raises(CallStopped):
        bounded(60.0, lambda: client.get(_url(server, "/trickle")), "trickle", stop)
    assert time.monotonic() - started < 1.5


def test_calls_outside_bounds_keep_the_libraries_timeouts(server: Any, client: httpx.Client) -> None:
    assert client.get(_url(server, "/trickle")).content == b"x" * 40  # 2 s in all, each read quick
    with pytest.raises(httpx.ReadTimeout):
        client.get(_url(server, "/trickle"), timeout=httpx.Timeout(10.0, read=0.01))


def test_close_closes_every_connection(server: Any) -> None:
    http_client = httpx.Client(transport=stack_transport(), timeout=10.0)
    http_client.get(_url(server))
    pool = _pool(http_client)
    (connection,) = pool.connections
    http_client.close()
    assert pool.connections == [] and connection.is_closed()


class _Redirecting(http.server.BaseHTTPRequestHandler):
    """A model server moved: /v1 answers 307 to /v2, which answers the chat completion."""

    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:  # the stdlib calls it by this name
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if self.path.startswith("/v1/"):
            self.send_response(307)
            self.send_header("Location", "/v2/chat/completions")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        assert b'"messages"' in body
        answer = b'{"choices": [{"message": {"role": "assistant", "content": "moved"}, "finish_reason": "stop"}]}'
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(answer)))
        self.end_headers()
        self.wfile.write(answer)

    def log_message(self, *args: Any) -> None:
        pass


def test_the_openai_client_follows_a_redirect(monkeypatch: pytest.MonkeyPatch) -> None:
    from pytest_tau._model_client import ChatRequest, ModelConfig
    from pytest_tau._openai_client import OpenAIClient

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Redirecting)
    httpd.daemon_threads = True
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        client = OpenAIClient(ModelConfig(model="openai/fake", api_base=f"http://127.0.0.1:{httpd.server_address[1]}/v1"))
        answer = client.send(ChatRequest(messages=[{"role": "user", "content": "hi"}], tools=None, seed=0))
        client.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert answer.message is not None and answer.message["content"] == "moved"


def test_no_deadline_and_no_timeouts_block_without_a_bound(server: Any) -> None:
    """--llm-timeout inf: the call is bounded by the run's stop only (a socket takes no
    infinite timeout: the wait is then unbounded, not an error)."""
    import math

    with httpx.Client(transport=stack_transport(), timeout=None) as unbounded:
        stop = threading.Event()
        assert bounded(math.inf, lambda: unbounded.get(_url(server, "/trickle")), "trickle", stop).content == b"x" * 40
