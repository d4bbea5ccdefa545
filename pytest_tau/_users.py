"""Simulated users: the scripted user (offline) and the model-driven strategies."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ._conversation import STOP, InfraError, Usage
from ._tasks import Action, Task

if TYPE_CHECKING:
    from ._environment import UserTools
    from ._llm import LLM

__all__ = [
    "HumanUser",
    "LLMUser",
    "ReactUser",
    "ScriptedUser",
    "VerifyingUser",
    "premature_stop",
    "split_react_reply",
    "user_runs",
]


def user_runs(actions: Sequence[Action]) -> list[list[Action]]:
    """The user's part of a gold sequence: each run of consecutive user actions, in order."""
    runs: list[list[Action]] = []
    previous = "agent"
    for action in actions:
        if action.actor == "user":
            if previous != "user":
                runs.append([])
            runs[-1].append(action)
        previous = action.actor
    return runs


DONE = "Done, I did that on my side."


class ScriptedUser:
    """Says the task's scripted lines in order, then stops.

    Dual control: it also performs the task's user actions (or `actions`, the list the
    oracle was given), one run of consecutive user actions per reply, and only when the
    agent's message names every tool of that run: an agent that does not instruct the
    customer gets nothing done on the customer's side.
    """

    def __init__(self, task: Task, actions: Sequence[Action] | None = None) -> None:
        self.usage = Usage()
        self._lines = list(task.user.script)
        self._next = 0
        self._runs = user_runs(task.gold_actions if actions is None else actions)
        self._tools: UserTools | None = None

    def use_tools(self, tools: UserTools) -> None:
        self._tools = tools

    def _line(self, default: str = STOP) -> str:
        if self._next >= len(self._lines):
            return default
        line = self._lines[self._next]
        self._next += 1
        return line

    def start(self) -> str:
        return self._line()

    def respond(self, agent_message: str) -> str:
        if self._tools is not None and self._runs and all(a.name in agent_message for a in self._runs[0]):
            for action in self._runs.pop(0):
                self._tools.call(action.name, dict(action.arguments))
            return self._line(DONE)  # the agent has more to do after the customer's part
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

USER_TOOL_GUIDELINES = """
# Your own device
You have tools that act on your own device or account settings, and only those: you cannot reach the
company's systems, records or other people's devices. Use a tool only when the agent asks you to do
something it covers, and do exactly that, step by step; never act on your own initiative, never do more
than you were asked, and never do what the agent should do with its own systems. Then tell the agent,
in your own words, what you did and what you see (a tool's answer is what your screen shows).
"""

_USER_TOOL_ROUNDS = 8  # tool calls a simulated user may chain before it must say something
_EMPTY_ATTEMPTS = 3  # answers of the user model without a usable message before the simulator gives up
EMPTY_NUDGE = f"(Your last answer was empty. Write the customer's next message, or {STOP} if the conversation is over.)"
# The opening's nudge names no way out: a weak model echoes the nudge, STOP included.
OPENING_NUDGE = "(Your last answer was not a first message. Write what the customer says first to the agent.)"


class LLMUser:
    """A model plays the customer; roles are flipped so the model speaks as the user."""

    def __init__(self, llm: LLM, task: Task) -> None:
        self.llm = llm
        self.usage = llm.usage
        self.history: list[dict[str, Any]] = [
            {"role": "system", "content": USER_INSTRUCTIONS.format(stop=STOP, instructions=task.user.instructions)}
        ]
        self.tools: UserTools | None = None
        self._opening = False  # the first message: a STOP there is no answer either

    def use_tools(self, tools: UserTools) -> None:
        """Dual control: the model gets the customer's own tools through function calling."""
        self.tools = tools
        self.history[0]["content"] += USER_TOOL_GUIDELINES

    def _complete(self) -> str:
        """The model's next message; in a dual-control domain its tool calls run first
        (on the customer's side), their results go back to it, and it is asked again."""
        if self.tools is None:
            return self.llm.complete(self.history).content
        schemas = self.tools.schemas
        for _ in range(_USER_TOOL_ROUNDS):
            completion = self.llm.complete(self.history, tools=schemas)
            if not completion.tool_calls:
                return completion.content
            self.history.append(completion.message)
            for requested in completion.tool_calls:
                call = self.tools.call(requested.name, requested.arguments)
                self.history.append({"role": "tool", "tool_call_id": requested.id, "name": call.name, "content": call.result})
        return self.llm.complete(self.history).content  # out of rounds: words only

    def _usable(self, usable: Callable[[str], str] = str) -> str:
        """The model's next answer, asked again (with a nudge) while it says nothing usable:
        a silent user model is the simulator's failure, never the agent's (no empty reply
        becomes a STOP that scores the agent as failed with no turn of its own)."""
        for attempt in range(_EMPTY_ATTEMPTS):
            if attempt:
                self.history.append({"role": "user", "content": OPENING_NUDGE if self._opening else EMPTY_NUDGE})
            try:
                answer = self._complete().strip()
            finally:
                if attempt:
                    self.history.pop()
            if usable(answer) and not (self._opening and STOP in answer):
                return answer
        raise InfraError(
            f"the user simulator's model gave no usable reply {_EMPTY_ATTEMPTS} times in a row "
            "(an error of the simulated user, not of the agent): check --user-model, or pick another"
        )

    def _say(self, agent_message: str) -> str:
        self.history.append({"role": "user", "content": agent_message or "(the agent said nothing)"})
        reply = self._usable()
        self.history.append({"role": "assistant", "content": reply})
        return reply

    def start(self) -> str:
        self._opening = True
        try:
            return self._say(AGENT_GREETING)
        finally:
            self._opening = False

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
        raw = self._usable(split_react_reply)
        self.history.append({"role": "assistant", "content": raw})
        return split_react_reply(raw)


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
            # What a rejected draft did on the customer's side stays done, as on a real device.
            reply = self._usable()
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
