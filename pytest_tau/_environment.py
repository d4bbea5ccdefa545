"""An environment: a domain's tools bound to a fresh copy-on-write DB.

Every call comes back as a `ToolCall` whose result is a string for the agent. Bad model
output (arguments that are not JSON, an unknown tool, wrong or missing arguments) and a
tool's own `ToolError` are errors returned to the agent, as a real API would; a failed
write leaves the DB exactly as it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Protocol

import orjson
import pydantic
import pydantic_core

from ._tools import ToolError

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ._state import State
    from ._tasks import Actor, Task
    from ._tools import Tool

__all__ = [
    "MAX_ARGUMENT_CHARS",
    "MAX_ARGUMENT_DEPTH",
    "Environment",
    "EnvironmentDomain",
    "ToolCall",
    "UserTools",
    "argument_shape_problem",
]

_MAX_ERROR = 500
# Arguments no tool could want: a model that writes them gets a tool error (its behaviour,
# scored), and the trajectory keeps a preview, so they never reach a JSON writer's limits
# (orjson: 255 levels to write, 1,024 to read) or a reader's memory.
MAX_ARGUMENT_DEPTH = 64
MAX_ARGUMENT_CHARS = 200_000
_MAX_ARGUMENT_NODES = 50_000


def argument_shape_problem(value: Any) -> str | None:
    """Why decoded arguments are too deep or too big for any tool, or None (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    nodes = 0
    while stack:
        current, depth = stack.pop()
        nodes += 1
        if nodes > _MAX_ARGUMENT_NODES:
            return f"arguments hold more than {_MAX_ARGUMENT_NODES} values"
        if isinstance(current, dict):
            children: Any = current.values()
        elif isinstance(current, (list, tuple)):
            children = current
        else:
            continue
        if depth > MAX_ARGUMENT_DEPTH:
            return f"arguments nested deeper than {MAX_ARGUMENT_DEPTH} levels"
        stack.extend((child, depth + 1) for child in children)
    return None


def _preview(raw: Any) -> str:
    """A bounded, always writable stand-in for arguments the trajectory cannot keep whole."""
    text = raw if isinstance(raw, str) else f"(a {type(raw).__name__} that cannot be kept)"
    if len(text) <= _MAX_ERROR:
        return text
    return text[:_MAX_ERROR] + f"... [truncated: {len(text) - _MAX_ERROR} more characters]"


@dataclass(frozen=True)
class ToolCall:
    """One tool call as it happened."""

    name: str
    arguments: dict[str, Any]
    result: str
    error: bool = False
    write: bool = False
    actor: Actor = "agent"  # "user": the simulated customer called one of their own tools

    def to_json(self) -> dict[str, Any]:
        data = {"name": self.name, "arguments": self.arguments, "result": self.result, "error": self.error}
        if self.actor != "agent":
            data["actor"] = self.actor
        return data


def _render(value: Any) -> str:
    if isinstance(value, str):
        return value
    return pydantic_core.to_json(value).decode()


def _validation_message(error: pydantic.ValidationError) -> str:
    parts = []
    for item in error.errors()[:5]:
        where = ".".join(str(p) for p in item["loc"]) or "arguments"
        parts.append(f"{where}: {item['msg']}")
    return "; ".join(parts)


class EnvironmentDomain(Protocol):
    """What an environment uses of its domain: a `Domain` is one. Typed by shape, because
    `Domain` builds on this module (its gold replays run in an environment)."""

    @property
    def name(self) -> str: ...

    @property
    def tools(self) -> Mapping[str, Tool]: ...

    @property
    def user_tools(self) -> Mapping[str, Tool]: ...

    def new_state(self, task: Task | None = None) -> State: ...

    def after_call(self, state: State) -> None: ...

    def user_tool_schemas(self) -> list[dict[str, Any]]: ...


@dataclass
class Environment:
    """A domain's tools over a fresh state (at `task`'s starting point when given); records every call in order."""

    domain: EnvironmentDomain
    calls: list[ToolCall] = field(default_factory=list)
    task: Task | None = None

    def __post_init__(self) -> None:
        self.state = self.domain.new_state(self.task)

    def call(self, name: str, arguments: str | dict[str, Any] | None, *, actor: Actor = "agent") -> ToolCall:
        """Run one tool call; never raises for anything the model could send.

        `actor="user"` runs one of the domain's user tools on the user-side DB (dual
        control); each side sees only its own tools."""
        call = self._run(name, arguments, actor)
        if not call.error:
            self.domain.after_call(self.state)
        if actor != "agent":
            call = replace(call, actor=actor)
        self.calls.append(call)
        return call

    def _run(self, name: str, arguments: str | dict[str, Any] | None, actor: Actor = "agent") -> ToolCall:
        raw_args = arguments
        name = name if isinstance(name, str) else str(name)
        if isinstance(arguments, bytes):
            arguments = arguments.decode("utf-8", "replace")
        if isinstance(arguments, str):
            if len(arguments) > MAX_ARGUMENT_CHARS:
                too_long = f"arguments are {len(arguments)} characters long; no tool takes more than {MAX_ARGUMENT_CHARS}"
                return ToolCall(name[:100], {"__raw__": _preview(arguments)}, f"Error: {too_long}", True)
            try:
                arguments = orjson.loads(arguments) if arguments.strip() else {}
            except orjson.JSONDecodeError as exc:
                return ToolCall(name[:100], {"__raw__": _preview(raw_args)}, f"Error: arguments are not valid JSON: {exc}", True)
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            return ToolCall(name[:100], {"__raw__": _preview(raw_args)}, "Error: arguments must be a JSON object", True)
        problem = argument_shape_problem(arguments)
        if problem is not None:
            return ToolCall(name[:100], {"__raw__": _preview(raw_args)}, f"Error: {problem}", True)
        tools = self.domain.user_tools if actor == "user" else self.domain.tools
        tool = tools.get(name)
        if tool is None:
            known = ", ".join(sorted(tools))
            return ToolCall(str(name)[:100], arguments, f"Error: unknown tool {str(name)[:100]!r}; tools: {known}", True)
        try:
            parsed = tool.arguments.model_validate(arguments)
        except pydantic.ValidationError as exc:
            return ToolCall(name, arguments, f"Error: invalid arguments for {name}: {_validation_message(exc)}", True, tool.write)
        savepoint = self.state.savepoint() if tool.write else None
        try:
            db = self.state.user_db if actor == "user" else self.state.db
            value = tool.function(db, **{k: getattr(parsed, k) for k in type(parsed).model_fields})
            if savepoint is not None:
                self.state.release()
            return ToolCall(name, arguments, _render(value), False, tool.write)
        except ToolError as exc:
            message = f"Error: {exc}"[:_MAX_ERROR]  # tools echo arguments, which may be huge
        except Exception as exc:  # a bug in a tool must not end the run; scoring will show it
            message = f"Error: {name} failed: {type(exc).__name__}: {exc}"[:_MAX_ERROR]
        if savepoint is not None:
            self.state.rollback(savepoint)
        return ToolCall(name, arguments, message, True, tool.write)

    @property
    def transferred(self) -> bool:
        """True once a transfer tool has succeeded."""
        return any(
            not c.error and self.domain.tools[c.name].transfer for c in self.calls if c.actor == "agent" and c.name in self.domain.tools
        )


@dataclass
class UserTools:
    """The customer's own tools in a dual-control environment, as a simulated user gets them.

    A user strategy that can act defines ``use_tools(tools: UserTools)``; the conversation
    loop calls it once, before the user opens, when the domain has user tools. Each call
    runs on the user-side DB and lands in the trajectory with ``actor="user"``.
    """

    env: Environment

    @property
    def schemas(self) -> list[dict[str, Any]]:
        """OpenAI function schemas of the user's tools (for function calling)."""
        return self.env.domain.user_tool_schemas()

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self.env.domain.user_tools)

    def call(self, name: str, arguments: str | dict[str, Any] | None) -> ToolCall:
        """Run one user tool call; errors come back as a result starting with ``Error:``."""
        return self.env.call(name, arguments, actor="user")
