"""Simulated users: the scripted user (offline) and the model-driven strategies."""

from __future__ import annotations

from ._conversation import STOP, Usage
from ._tasks import Task

__all__ = ["ScriptedUser"]


class ScriptedUser:
    """Says the task's scripted lines in order, then stops."""

    def __init__(self, task: Task) -> None:
        self.usage = Usage()
        self._lines = list(task.user.script)
        self._next = 0

    def _line(self) -> str:
        if self._next >= len(self._lines):
            return STOP
        line = self._lines[self._next]
        self._next += 1
        return line

    def start(self) -> str:
        return self._line()

    def respond(self, agent_message: str) -> str:
        return self._line()
