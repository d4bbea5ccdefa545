"""The task file's schema: what the simulated user wants and how the result is judged."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field, SerializationInfo, SerializerFunctionWrapHandler, field_validator, model_serializer

from ._outputs import Output, infer_kind

__all__ = ["Action", "Actor", "Alternative", "Output", "Task", "TaskFile", "TaskFileError", "UserScenario", "format_validation_error", "load_tasks"]


def _folded(value: Any) -> Any:
    if isinstance(value, str):
        return " ".join(value.split()).casefold()
    if isinstance(value, list):
        return sorted((_folded(item) for item in value), key=repr)
    if isinstance(value, dict):
        return {key: _folded(item) for key, item in value.items()}
    return value


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Actor = Literal["agent", "user"]


class Action(_Strict):
    """A tool call: a name, its arguments, and who makes it.

    ``actor`` is "user" for a call of one of the domain's user tools (dual control: the
    customer changes their own device); it is left out of the task file when "agent", so
    single-control task files keep their exact form.
    """

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    actor: Actor = "agent"
    instead: list[Action] = Field(
        default_factory=list,
        description="required actions only: other calls that meet the requirement as well (another look-up the policy allows)",
    )

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("actor") == "agent":
            del data["actor"]
        if not data.get("instead"):
            data.pop("instead", None)
        return data

    def options(self) -> list[Action]:
        """This call and every call that may replace it."""
        return [self, *self.instead]

    def matches(self, name: str, arguments: dict[str, Any]) -> bool:
        """True when a call has this name and (a superset of) these argument values; strings
        are compared without case or extra spaces ("ford" is "Ford"), lists without order."""
        return name == self.name and all(_folded(arguments.get(k)) == _folded(v) for k, v in self.arguments.items())

    def __str__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.arguments.items())
        this = f"{'user: ' if self.actor == 'user' else ''}{self.name}({args})"
        return " or ".join([this, *(str(other) for other in self.instead)])


class UserScenario(_Strict):
    """The simulated user: instructions in the second person, and the scripted lines."""

    instructions: str = Field(min_length=20)
    script: list[str] = Field(min_length=1, description="the scripted user's lines; the first opens")


class Alternative(_Strict):
    """Another complete path a policy-following agent may take to the gold's end state: another
    allowed order, another allowed look-up, the customer doing a step themselves. The check
    `alternatives_score_1` replays it and requires reward 1, so the task accepts it."""

    why: str = Field(min_length=10, description="the policy's reason this path is also right")
    actions: list[Action] = Field(min_length=1)
    say: str | None = Field(default=None, description="what the agent tells instead of the gold's outputs (another right answer)")

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("say") is None:
            data.pop("say", None)
        return data


class Task(_Strict):
    """One task of a domain."""

    id: str = Field(pattern=r"^[a-z0-9_]+$", max_length=64)
    split: Literal["test", "train", "dev"] = "test"
    user: UserScenario
    gold_actions: list[Action] = Field(default_factory=list)
    required_outputs: list[Output] = Field(
        default_factory=list, description="facts or figures the agent must tell, each with its kind (a bare string's kind is inferred)"
    )
    required_actions: list[Action] = Field(
        default_factory=list, description="calls the agent must make (a transfer, a lookup); arguments given must match"
    )
    forbidden_actions: list[Action] = Field(
        default_factory=list, description="full calls the agent must not make (what the policy forbids); the tools accept them"
    )
    ordered: bool = Field(
        default=False, description="the instruction or the policy fixes the order of the gold writes (the write-order check is skipped)"
    )
    wrong_outputs: list[Output] = Field(
        default_factory=list,
        description="values of the same quantities a wrong path gives (the pre-fee amount, another record's figure): telling one scores 0",
    )
    alternatives: list[Alternative] = Field(
        default_factory=list, description="other complete paths a policy-following agent may take; each must score 1"
    )
    end_state: str | None = Field(
        default=None,
        description="why every policy-following agent reaches the gold state and tells the gold outputs (the policy's rules)",
    )

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler, info: SerializationInfo) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        for optional in ("wrong_outputs", "alternatives", "end_state"):
            if not data.get(optional):
                data.pop(optional, None)  # task files without them keep their exact form
        return data

    @field_validator("required_outputs", "wrong_outputs", mode="before")
    @classmethod
    def _typed_outputs(cls, value: Any) -> Any:
        if isinstance(value, list):
            return [{"value": item, "kind": infer_kind(item)} if isinstance(item, str) else item for item in value]
        return value


class TaskFile(_Strict):
    tasks: list[Task]


class TaskFileError(Exception):
    """A broken task or DB file: names the file, the task id and the field."""


def format_validation_error(path: Path, error: pydantic.ValidationError, data: Any, collection: str) -> str:
    """Turn a pydantic error into 'file: task <id>: field: message' lines."""
    lines = []
    for item in error.errors():
        loc = list(item["loc"])
        where = ""
        if len(loc) >= 2 and loc[0] == collection and isinstance(loc[1], int):
            index = loc[1]
            try:
                record_id = data[collection][index].get("id", f"#{index}")
            except (AttributeError, IndexError, KeyError, TypeError):
                record_id = f"#{index}"
            where = f"task {record_id!r}: "
            loc = loc[2:]
        field = ".".join(str(part) for part in loc) or "(top level)"
        lines.append(f"{path}: {where}field {field!r}: {item['msg']}")
    return "\n".join(lines)


def load_tasks(path: Path) -> list[Task]:
    """Load and validate a task file; a broken one raises `TaskFileError`."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise TaskFileError(f"{path}: cannot read the task file: {exc.strerror}") from None
    import orjson

    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise TaskFileError(f"{path}: not valid JSON: {exc}") from None
    try:
        tasks = TaskFile.model_validate(data).tasks
    except pydantic.ValidationError as exc:
        raise TaskFileError(format_validation_error(path, exc, data, "tasks")) from None
    seen: set[str] = set()
    for task in tasks:
        if task.id in seen:
            raise TaskFileError(f"{path}: task {task.id!r}: field 'id': duplicate task id")
        seen.add(task.id)
    return sorted(tasks, key=lambda task: task.id)
