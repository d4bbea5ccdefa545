"""Simulated users: the scripted user (offline) and the model-driven strategies."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._conversation import STOP, Usage
from ._tasks import Task

if TYPE_CHECKING:
    from ._llm import LLM

__all__ = ["ScriptedUser", "LLMUser"]


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


USER_INSTRUCTIONS = """You are a customer talking to a customer service agent, played out in a chat.
Stay in character as described below. Write only what the customer says, one short message at a time.
Reveal information only when the agent asks for it; never invent information the instructions do not give you.
Do not end the conversation while the agent is still working on something it promised to do.
When your goal is met, or it cannot be met and you have nothing left to ask, reply with exactly {stop}.

# Who you are and what you want
{instructions}
"""

AGENT_GREETING = "Hi! How can I help you today?"


class LLMUser:
    """A model plays the customer; roles are flipped so the model speaks as the user."""

    def __init__(self, llm: LLM, task: Task) -> None:
        self.llm = llm
        self.usage = llm.usage
        self.history: list[dict[str, str]] = [
            {"role": "system", "content": USER_INSTRUCTIONS.format(stop=STOP, instructions=task.user.instructions)}
        ]

    def _say(self, agent_message: str) -> str:
        self.history.append({"role": "user", "content": agent_message or "(the agent said nothing)"})
        reply = self.llm.complete(self.history).content.strip() or STOP
        self.history.append({"role": "assistant", "content": reply})
        return reply

    def start(self) -> str:
        return self._say(AGENT_GREETING)

    def respond(self, agent_message: str) -> str:
        return self._say(agent_message)
