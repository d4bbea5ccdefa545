"""The conversation loop: user opens, the agent answers with text or tool calls, tools run.

An agent *turn* is a run of agent steps (one model call each) that ends with a message
without tool calls; every tool call of a step runs, in order. What the agent said during
the turn is shown to the user as one message. The loop ends when the user stops
(``###STOP###``), a transfer tool succeeds, the step budget runs out, the agent's model
reaches a limit of its own (its context window is full, its answer was cut at ``max_tokens``:
the model's failure, scored 0), or the model service fails past its retries (an
infrastructure error, not the agent's fault).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from ._environment import Environment, ToolCall, UserTools

__all__ = [
    "STOP",
    "Agent",
    "AgentStep",
    "EndReason",
    "InfraError",
    "ModelLimit",
    "RequestedCall",
    "Trajectory",
    "Usage",
    "User",
    "run_conversation",
]

STOP = "###STOP###"

EndReason = Literal["user_stop", "transfer", "max_steps", "context_overflow", "max_tokens", "error"]

#: End reasons where the agent's model ran out of room: scored 0 and counted in pass^k,
#: never left out as errors (that would drop exactly the long, hard conversations).
MODEL_LIMIT_ENDS: frozenset[str] = frozenset({"context_overflow", "max_tokens"})


class InfraError(Exception):
    """The model service failed past the harness's retries (429, 5xx, timeouts, drops).

    Never the agent's fault: the item is reported as an error and left out of pass^k.
    """


class ModelLimit(Exception):
    """The model reached a limit of its own: the prompt no longer fits its context window
    (``context_overflow``) or its answer was cut at ``max_tokens`` (``max_tokens``).

    Raised by the model layer. From the agent's model it ends the conversation with that
    end reason, scored 0; from the user simulator's model it is an error of the simulator.
    """

    def __init__(self, end_reason: Literal["context_overflow", "max_tokens"], message: str) -> None:
        super().__init__(message)
        self.end_reason: Literal["context_overflow", "max_tokens"] = end_reason


@dataclass
class Usage:
    """Tokens and cost of one party's model calls."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    retries: int = 0  # model calls tried again (rate limits, 5xx, timeouts), for the progress line
    failed_attempts: int = 0  # attempts that got no answer (timed out, refused): not in `calls`

    def add(self, other: Usage) -> None:
        self.calls += other.calls
        self.prompt_tokens += other.prompt_tokens
        self.completion_tokens += other.completion_tokens
        self.cost += other.cost
        self.retries += other.retries
        self.failed_attempts += other.failed_attempts

    def to_json(self) -> dict[str, Any]:
        return {
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cost": round(self.cost, 6),
            "retries": self.retries,
            "failed_attempts": self.failed_attempts,
        }


@dataclass(frozen=True)
class RequestedCall:
    """A tool call as the agent asks for it.

    ``id`` pairs the call with its result message (``tool_call_id``); ``arguments`` is a
    dict, or the raw JSON text a model wrote. Malformed text, an unknown tool name or
    wrong argument types never crash the run: the environment answers with a tool error
    message, as a real API would, and the agent sees it on its next step.
    """

    id: str
    name: str
    arguments: str | dict[str, Any]


@dataclass
class AgentStep:
    """What an agent does in one step: what it says to the user, which tools it calls.

    ``content`` is shown to the user (with whatever else the agent says in the same turn)
    and counts as *told* for the required outputs; leave it empty to say nothing.
    ``tool_calls`` run in order against the environment; when there are any, the agent
    is stepped again with their results, and the turn goes on. A step without tool calls
    ends the agent's turn and the user replies. ``message`` is the assistant message as
    the agent wants it kept in the history (e.g. with a provider's reasoning fields); when
    None it is built from ``content`` and ``tool_calls``.
    """

    content: str = ""
    tool_calls: list[RequestedCall] = field(default_factory=list)
    # The assistant message as it goes back into the agent's own history (reasoning
    # content, provider fields); built from content/tool_calls when left None.
    message: dict[str, Any] | None = None

    def as_message(self) -> dict[str, Any]:
        if self.message is not None:
            return self.message
        message: dict[str, Any] = {"role": "assistant", "content": self.content or None}
        if self.tool_calls:
            message["tool_calls"] = [
                {
                    "id": call.id,
                    "type": "function",
                    "function": {
                        "name": call.name,
                        "arguments": call.arguments if isinstance(call.arguments, str) else _dumps(call.arguments),
                    },
                }
                for call in self.tool_calls
            ]
        return message


def _dumps(value: Any) -> str:
    import orjson

    try:
        return orjson.dumps(value).decode()
    except orjson.JSONEncodeError as exc:  # too deep or not JSON: the tool call reports it
        return f"<arguments that cannot be written as JSON: {exc}>"


class Agent(Protocol):
    """An agent under test: anything with ``usage`` and ``step``.

    The harness calls ``step`` with the conversation so far and runs the returned tool
    calls. How a conversation ends, seen from the agent:

    - the user stops: their reply contains `STOP` (``###STOP###``);
    - a transfer: a call to one of the domain's transfer tools (such as
      ``transfer_to_human_agents``) succeeds; the conversation ends after that step;
    - the step budget (``--max-steps``, counted in ``step`` calls) runs out.

    A model service that fails past its retries must raise `InfraError`: the item is then
    an error, left out of pass^k, never a failure of the agent. Any other exception is a
    bug of the strategy and errors the item with its traceback. Nothing is called in the
    constructor's place: build agents cheaply, and make model calls only in ``step``.
    """

    #: Tokens and cost of this agent's model calls, read once the conversation ends
    #: (a `Usage()` that stays zero for an agent without a model).
    usage: Usage

    def step(self, messages: list[dict[str, Any]]) -> AgentStep:
        """Act once, given the whole conversation so far.

        ``messages`` are OpenAI-style chat messages, oldest first, without a system
        prompt (the agent brings its own policy and instructions):
        ``{"role": "user", "content": str}`` for what the user said,
        the assistant messages of earlier steps (as `AgentStep.as_message` made them), and
        ``{"role": "tool", "tool_call_id": str, "name": str, "content": str}`` for each
        tool result (a tool error is a result starting with ``Error:``). The list is the
        harness's own: read it, do not change it.
        """
        ...


class User(Protocol):
    """A simulated user: anything with ``usage``, ``start`` and ``respond``.

    The user opens the conversation, then answers each agent turn (everything the agent
    said in that turn, joined by newlines). A message that contains `STOP` ends the
    conversation (the end reason is ``user_stop``); the text around it is kept in the
    trajectory. Model failures past the retries raise `InfraError`, as for agents.

    Dual control: a user that can act on its own side also defines
    ``use_tools(tools: UserTools)``, called once before ``start`` in a domain with user
    tools; its calls (``tools.call(name, arguments)``) land in the trajectory as ``actor="user"``.
    """

    #: Tokens and cost of this user's model calls (zero for a user without a model).
    usage: Usage

    def start(self) -> str:
        """The user's opening message (`STOP` here ends the conversation before the agent acts)."""
        ...

    def respond(self, agent_message: str) -> str:
        """The reply to what the agent said in its turn (may be empty); contains `STOP` to end."""
        ...


@dataclass
class Trajectory:
    """Everything that happened in one conversation."""

    messages: list[dict[str, Any]]
    calls: list[ToolCall]
    told: list[str]
    end_reason: EndReason
    steps: int
    turns: int
    duration: float
    agent_usage: Usage
    user_usage: Usage
    error: str | None = None

    @property
    def told_text(self) -> str:
        return "\n".join(self.told)


def _user_says(say: Any, *args: str) -> str:
    """The user's message; the simulator's model reaching its own limit is the simulator's error."""
    try:
        text: str = say(*args)
    except ModelLimit as limit:
        raise InfraError(f"the user simulator's model: {limit}") from None
    return text


def run_conversation(env: Environment, agent: Agent, user: User, *, max_steps: int) -> Trajectory:
    """Run one conversation to its end; infrastructure errors end it with reason 'error'."""
    started = time.perf_counter()
    messages: list[dict[str, Any]] = []
    told: list[str] = []
    steps = turns = 0
    end: EndReason | None = None
    error: str | None = None
    use_tools = getattr(user, "use_tools", None)
    if env.domain.user_tools and use_tools is not None:  # dual control: the customer acts on their side
        use_tools(UserTools(env))
    try:
        opening = _user_says(user.start)
        turns += 1
        messages.append({"role": "user", "content": opening})
        if STOP in opening:
            # Nothing of the agent was measured: the simulated customer failed, not the agent.
            raise InfraError(
                "the simulated user ended the conversation in its opening message, before the agent had a turn "
                "(an error of the simulated user, not of the agent): check --user-model, or pick another"
            )
        while end is None:
            said: list[str] = []
            while end is None:
                if steps >= max_steps:
                    end = "max_steps"
                    break
                try:
                    step = agent.step(messages)
                except ModelLimit as limit:
                    end, error = limit.end_reason, str(limit)
                    steps += 1  # the call was made (and paid) even though its answer is unusable
                    break
                steps += 1
                messages.append(step.as_message())
                if step.content:
                    said.append(step.content)
                    told.append(step.content)
                if not step.tool_calls:
                    break
                for requested in step.tool_calls:
                    call = env.call(requested.name, requested.arguments)
                    messages.append(
                        {"role": "tool", "tool_call_id": requested.id, "name": call.name, "content": call.result}
                    )
                    if not call.error and call.name in env.domain.tools and env.domain.tools[call.name].transfer:
                        end = "transfer"
            if end is not None:
                break
            reply = _user_says(user.respond, "\n".join(said))
            turns += 1
            messages.append({"role": "user", "content": reply})
            if STOP in reply:
                end = "user_stop"
    except InfraError as exc:
        end, error = "error", str(exc)
    return Trajectory(
        messages=messages,
        calls=list(env.calls),
        told=told,
        end_reason=end or "error",
        steps=steps,
        turns=turns,
        duration=time.perf_counter() - started,
        agent_usage=agent.usage,
        user_usage=user.usage,
        error=error,
    )
