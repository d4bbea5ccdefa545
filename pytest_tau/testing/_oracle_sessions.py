"""The oracle behind every remote test double: one `OracleAgent` per session, found by task."""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Any

from .._agents import OracleAgent
from .._conversation import AgentStep

__all__ = ["OracleBook"]


class OracleBook:
    """The tasks of some domains, and an oracle per remote session (thread-safe)."""

    def __init__(self, domains: Iterable[Any]) -> None:
        self.tasks: dict[tuple[str, str], Any] = {}
        for domain in domains:
            for task in domain.tasks:
                self.tasks[(domain.name, task.id)] = task
        self._sessions: dict[str, tuple[OracleAgent, list[dict[str, Any]]]] = {}
        self._lock = threading.Lock()

    def open(self, session: str, domain: str, task: str, trial: int = 0) -> None:
        found = self.tasks.get((domain, task))
        if found is None:
            raise KeyError(f"unknown task {domain}/{task}")
        with self._lock:
            self._sessions.setdefault(session, (OracleAgent(found, variant=trial), []))

    def has(self, session: str) -> bool:
        with self._lock:
            return session in self._sessions

    def step(self, session: str, new_messages: list[dict[str, Any]]) -> AgentStep:
        with self._lock:
            oracle, messages = self._sessions[session]
        messages.extend(new_messages)
        step = oracle.step(messages)
        messages.append(step.as_message())
        return step

    def close(self, session: str) -> bool:
        with self._lock:
            return self._sessions.pop(session, None) is not None

    def __len__(self) -> int:
        with self._lock:
            return len(self._sessions)
