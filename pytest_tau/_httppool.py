"""The openai path's HTTP transport: a connection pool that costs the same at 64 connections
as at one, and whole-call deadlines without a thread per call.

httpcore's pool re-examines every connection it holds on every request and on every
response's close (is it idle, expired, readable: a `poll` per idle socket), under one lock:
with 32 conversations in flight that was about 2.6 ms of CPU per model call, the largest
single cost of a call. Here each origin keeps a stack of idle connections: a request takes
the most recently used one (checking only that one), or opens a new one; closing the
response puts it back. Connections, TLS, HTTP/1.1, timeouts and httpx's error types are
httpcore's and httpx's own; only the bookkeeping differs. The harness bounds how many calls
are in flight, so the pool needs no limit of its own.

Its network streams honour the calling thread's `CallBounds` (_deadline.bounded): each
connect, TLS handshake and write waits at most what is left of the call, and each read
waits in slices, looking at the run's stop event between them, so a body trickled a byte at
a time ends at the call's deadline and a stopping run is not held by a call in flight.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import httpcore
import httpx

from ._deadline import CallBounds, current_bounds

__all__ = ["BoundedBackend", "StackPool", "stack_transport"]


class StackPool(httpcore.ConnectionPool):
    """httpcore's pool with O(1) bookkeeping per request (a stack of idle connections per origin)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._idle: dict[tuple[bytes, bytes, int], list[Any]] = {}  # by (scheme, host, port)
        self._busy: dict[Any, tuple[bytes, bytes, int]] = {}
        self._stack_lock = threading.Lock()

    def handle_request(self, request: httpcore.Request) -> httpcore.Response:
        origin = request.url.origin
        if origin.scheme not in (b"http", b"https"):
            raise httpcore.UnsupportedProtocol(f"Request URL has an unsupported protocol {origin.scheme!r}.")
        while True:
            connection = self._take(origin)
            try:
                response = connection.handle_request(request)
            except httpcore.ConnectionNotAvailable:
                self._give_back(connection)  # it went away between the look and the send: take another
                continue
            except BaseException:
                self._give_back(connection)
                raise
            return httpcore.Response(
                status=response.status,
                headers=response.headers,
                content=_GivesBack(response.stream, self, connection),
                extensions=response.extensions,
            )

    def _take(self, origin: httpcore.Origin) -> Any:
        stale = []
        key = (origin.scheme, origin.host, origin.port)
        with self._stack_lock:
            stack = self._idle.get(key)
            connection = None
            while stack:
                candidate = stack.pop()
                if candidate.is_available() and not candidate.has_expired():
                    connection = candidate
                    break
                stale.append(candidate)
            if connection is None:
                connection = self.create_connection(origin)
            self._busy[connection] = key
        for old in stale:
            old.close()
        return connection

    def _give_back(self, connection: Any) -> None:
        stale = None
        with self._stack_lock:
            key = self._busy.pop(connection, None)
            if key is not None and connection.is_available():
                stack = self._idle.setdefault(key, [])
                stack.append(connection)
                # The least recently used connection is the one the server closes first: look at it
                # now and then, so closed sockets do not pile up at the bottom of a stack.
                if len(stack) > 1 and stack[0].has_expired():
                    stale = stack.pop(0)
            elif not connection.is_closed():
                stale = connection  # mid-response (an error, a body left unread) or the pool closed
        if stale is not None:
            stale.close()

    def _every(self) -> list[Any]:
        """Every connection, in use or idle (under the lock)."""
        return [*self._busy, *(c for stack in self._idle.values() for c in stack)]

    @property
    def connections(self) -> list[Any]:
        with self._stack_lock:
            return self._every()

    def close(self) -> None:
        with self._stack_lock:
            every = self._every()
            self._busy.clear()
            self._idle.clear()
        for connection in every:
            connection.close()


class _GivesBack:
    """A response body that returns its connection to the pool once read or closed."""

    def __init__(self, stream: Any, pool: StackPool, connection: Any) -> None:
        self._stream = stream
        self._pool = pool
        self._connection = connection
        self._closed = False

    def __iter__(self) -> Iterator[bytes]:
        try:
            yield from self._stream
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            try:
                if hasattr(self._stream, "close"):
                    self._stream.close()
            finally:
                self._pool._give_back(self._connection)


class BoundedStream(httpcore.NetworkStream):
    """A network stream whose waits end at the calling thread's `CallBounds`, if any."""

    def __init__(self, stream: httpcore.NetworkStream) -> None:
        self._stream = stream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        bounds = current_bounds()
        if bounds is None:
            return self._stream.read(max_bytes, timeout)
        # The library's own read timeout still applies, counted from the first slice.
        give_up = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if give_up is None else max(give_up - time.monotonic(), 0.0)
            try:
                return self._stream.read(max_bytes, bounds.wait(left))
            except httpcore.ReadTimeout:
                if give_up is not None and time.monotonic() >= give_up:
                    raise
                # a slice ran out: bounds.wait raises if the call is over or the run stopping

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        bounds = current_bounds()
        if bounds is None:
            return self._stream.write(buffer, timeout)
        with _overdue(bounds):
            self._stream.write(buffer, bounds.wait(timeout, resumable=False))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        bounds = current_bounds()
        if bounds is not None:
            with _overdue(bounds):
                timeout = bounds.wait(timeout, resumable=False)
        return BoundedStream(self._stream.start_tls(ssl_context, server_hostname, timeout))

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class BoundedBackend(httpcore.NetworkBackend):
    """httpcore's synchronous sockets, as `BoundedStream`s, connecting within the call's bounds."""

    def __init__(self) -> None:
        self._backend = httpcore.SyncBackend()

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        bounds = current_bounds()
        if bounds is not None:
            with _overdue(bounds):
                return BoundedStream(self._backend.connect_tcp(
                    host, port, bounds.wait(timeout, resumable=False), local_address, socket_options
                ))
        return BoundedStream(self._backend.connect_tcp(host, port, timeout, local_address, socket_options))

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        return BoundedStream(self._backend.connect_unix_socket(path, timeout, socket_options))

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


@contextmanager
def _overdue(bounds: CallBounds) -> Iterator[None]:
    """Inside: a step's timeout at the call's deadline is the call's deadline."""
    try:
        yield
    except httpcore.TimeoutException as exc:
        if bounds.passed():
            raise bounds.overdue() from exc
        raise


def stack_transport(**kwargs: Any) -> httpx.HTTPTransport:
    """`httpx.HTTPTransport(**kwargs)` (no proxy) with its pool replaced by a `StackPool` of the
    same settings over a `BoundedBackend`."""
    transport = httpx.HTTPTransport(**kwargs)
    pool = transport._pool
    if type(pool) is httpcore.ConnectionPool:
        transport._pool = StackPool(
            ssl_context=pool._ssl_context,
            keepalive_expiry=pool._keepalive_expiry,
            http1=pool._http1,
            http2=pool._http2,
            retries=pool._retries,
            local_address=pool._local_address,
            uds=pool._uds,
            network_backend=BoundedBackend(),
            socket_options=pool._socket_options,
        )
    return transport
