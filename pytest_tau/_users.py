"""Simulated users: the scripted user (offline) and the model-driven strategies."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ._conversation import STOP, Usage
from ._tasks import Task

if TYPE_CHECKING:
    from ._llm import LLM

__all__ = ["HumanUser", "LLMUser", "ReactUser", "ScriptedUser", "VerifyingUser", "premature_stop", "split_react_reply"]


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


REACT_USER_FORMAT = """
Answer in exactly this format:
Thought: <what you, the customer, think about the situation; the agent never sees this>
User Response: <what you say to the agent>
"""


def split_react_reply(text: str) -> str:
    """The part of a react user's answer that the agent sees (never the thought)."""
    marker = text.rfind("User Response:")
    if marker >= 0:
        return text[marker + len("User Response:") :].strip()
    kept = [line for line in text.splitlines() if not line.strip().lower().startswith("thought:")]
    return "\n".join(kept).strip()


class ReactUser(LLMUser):
    """Thinks first, then replies; the thought stays in the user's own history."""

    def __init__(self, llm: LLM, task: Task) -> None:
        super().__init__(llm, task)
        self.history[0]["content"] += REACT_USER_FORMAT

    def _say(self, agent_message: str) -> str:
        self.history.append({"role": "user", "content": agent_message or "(the agent said nothing)"})
        raw = self.llm.complete(self.history).content.strip()
        self.history.append({"role": "assistant", "content": raw})
        return split_react_reply(raw) or STOP


_PROMISE = re.compile(
    r"\b(i will|i'll|let me|one moment|just a moment|please hold|please wait|i am going to|i'm going to|give me a (?:moment|second))\b",
    re.IGNORECASE,
)


def premature_stop(agent_message: str, reply: str) -> bool:
    """True when the user stops while the agent's last message promised to do something."""
    return STOP in reply and _PROMISE.search(agent_message or "") is not None and not agent_message.rstrip().endswith("?")


VERIFY_PROMPT = """You check a simulated customer's next message against their scenario.

# Scenario
{instructions}

# Conversation so far (agent and customer)
{transcript}

# Candidate next message of the customer
{reply}

Is the candidate faithful to the scenario (no invented facts, no information the agent did not ask for,
no goal the scenario does not give), in character, and - if it contains {stop} - is the conversation really
over (the agent has done, or refused, everything the customer wanted; it is not in the middle of doing it)?
Answer with exactly one line: "VERDICT: OK" or "VERDICT: BAD: <reason>".
"""

REFLECT_PROMPT = """The customer's candidate message was rejected: {reason}
Reflect in two or three sentences on what went wrong and what the customer should say instead."""

_VERIFY_ATTEMPTS = 3


class VerifyingUser(LLMUser):
    """`verify`: a second call checks each reply against the scenario and regenerates it,
    up to a bound; `reflection` also reflects on a failed check before rewriting."""

    def __init__(self, llm: LLM, task: Task, *, reflect: bool) -> None:
        super().__init__(llm, task)
        self.instructions = task.user.instructions
        self.reflect = reflect
        self.transcript: list[str] = []
        self.rejected: list[dict[str, str]] = []

    def _check(self, agent_message: str, reply: str) -> str | None:
        """The reason a reply is bad, or None."""
        if premature_stop(agent_message, reply):
            return "the customer ends the conversation while the agent is still doing what it promised"
        prompt = VERIFY_PROMPT.format(
            instructions=self.instructions, transcript="\n".join(self.transcript) or "(none)", reply=reply, stop=STOP
        )
        verdict = self.llm.complete([{"role": "user", "content": prompt}]).content.strip()
        if "VERDICT: BAD" in verdict.upper():
            return verdict.split(":", 2)[-1].strip() or "rejected"
        return None

    def _say(self, agent_message: str) -> str:
        self.transcript.append(f"agent: {agent_message}")
        self.history.append({"role": "user", "content": agent_message or "(the agent said nothing)"})
        reply = ""
        for _attempt in range(_VERIFY_ATTEMPTS):
            reply = self.llm.complete(self.history).content.strip() or STOP
            reason = self._check(agent_message, reply)
            if reason is None:
                break
            self.rejected.append({"reply": reply, "reason": reason})
            guidance = f"(Your previous draft was rejected: {reason}. Write the message again.)"
            if self.reflect:
                reflection = self.llm.complete(
                    [*self.history, {"role": "assistant", "content": reply},
                     {"role": "user", "content": REFLECT_PROMPT.format(reason=reason)}]
                ).content.strip()
                guidance = f"(Your previous draft was rejected: {reason}. Reflection: {reflection} Write the message again.)"
            self.history.append({"role": "assistant", "content": reply})
            self.history.append({"role": "user", "content": guidance})
        self.history.append({"role": "assistant", "content": reply})
        self.transcript.append(f"customer: {reply}")
        return reply


class HumanUser:
    """A person types the customer's turns at the terminal (run with -s, without -n)."""

    def __init__(self, task: Task, read: Callable[[str], str] = input, write: Callable[[str], None] = print) -> None:
        self.usage = Usage()
        self.task = task
        self.read = read
        self.write = write

    def start(self) -> str:
        self.write(f"\n=== task {self.task.id} ===\n{self.task.user.instructions}\n(type {STOP} to end)")
        return self.read("you> ").strip() or STOP

    def respond(self, agent_message: str) -> str:
        self.write(f"agent> {agent_message}")
        return self.read("you> ").strip() or STOP
