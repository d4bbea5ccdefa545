"""A background event loop per process, for the async clients of remote agents."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["background_loop"]

T = TypeVar("T")


class BackgroundLoop:
    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name="tau-remote-loop", daemon=True)
        self._thread.start()

    def submit(self, coro: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        return asyncio.run_coroutine_threadsafe(coro, self.loop)


_LOOP: BackgroundLoop | None = None
_LOCK = threading.Lock()


def background_loop() -> BackgroundLoop:
    """The process's loop (a daemon thread: it never keeps the process alive)."""
    global _LOOP
    with _LOCK:
        if _LOOP is None:
            _LOOP = BackgroundLoop()
        return _LOOP
