"""The domain SDK: a domain is its DB schema, its tools, its policy and its tasks.

    retail = Domain("retail", RetailDB, fixtures=Path(__file__).parents[2] / "fixtures" / "retail")

    @retail.tool
    def get_order_details(db: RetailDB, order_id: str) -> Order:
        '''Return an order's status, items, payment and shipping.'''

    @retail.tool(write=True)
    def cancel_pending_order(db: RetailDB, order_id: str, reason: str) -> Order: ...

Its data lives in ``fixtures/<name>/``: ``db.json``, ``tasks.json`` and ``policy.md``.
"""

from __future__ import annotations

import functools
import typing
from dataclasses import dataclass
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, overload

import orjson
import pydantic
from pydantic import BaseModel

from ._state import Diff, State
from ._environment import Environment, ToolCall
from ._tasks import Task, TaskFileError, load_tasks
from ._tools import Tool

__all__ = ["Domain", "DomainError"]

F = TypeVar("F", bound=Callable[..., Any])


class DomainError(Exception):
    """A domain that cannot be loaded: broken DB file, schema or tool set."""


def _db_error(path: Path, error: pydantic.ValidationError) -> str:
    lines = []
    for item in error.errors():
        loc = [str(part) for part in item["loc"]]
        where = f"record {loc[0]}[{loc[1]!r}]: " if len(loc) >= 2 else ""
        field = ".".join(loc[2:]) if len(loc) >= 2 else ".".join(loc)
        lines.append(f"{path}: {where}field {field or '(record)'!r}: {item['msg']}")
    return "\n".join(lines[:20]) + (f"\n... and {len(lines) - 20} more" if len(lines) > 20 else "")


class Domain:
    """A self-describing domain; tests_domains/<name>/ defines one, the engine runs it."""

    def __init__(self, name: str, db_model: type[BaseModel], *, fixtures: Path | str) -> None:
        if not name.isidentifier() or not name.islower():
            raise DomainError(f"domain name {name!r} must be a lowercase identifier")
        for field_name, field in db_model.model_fields.items():
            origin = typing.get_origin(field.annotation)
            args = typing.get_args(field.annotation)
            if origin is not dict or args[0] is not str or not issubclass(args[1], BaseModel):
                raise DomainError(
                    f"{db_model.__name__}.{field_name}: every DB field must be a table, dict[str, <record model>]"
                )
        self.name = name
        self.db_model = db_model
        self.fixtures = Path(fixtures)
        self.tools: dict[str, Tool] = {}
        self._db_path: Path | None = None
        self._schemas: tuple[tuple[str, ...], list[dict[str, Any]]] | None = None
        self._indexes: dict[str, dict[str, Any]] = {}  # per table, per field, over initial_db

    def __repr__(self) -> str:
        return f"Domain({self.name!r}, tools={len(self.tools)})"

    # -- tools ---------------------------------------------------------------------
    @overload
    def tool(self, function: F, /) -> F: ...
    @overload
    def tool(self, *, write: bool = False, transfer: bool = False) -> Callable[[F], F]: ...

    def tool(self, function: F | None = None, /, *, write: bool = False, transfer: bool = False) -> Any:
        """Register a tool. `write=True` for tools that change the DB; `transfer=True`
        for the tool that hands the conversation to a human (it ends the conversation)."""

        def register(fn: F) -> F:
            tool = Tool.from_function(fn, write=write, transfer=transfer)
            if tool.name in self.tools:
                raise DomainError(f"domain {self.name!r}: tool {tool.name!r} defined twice")
            self.tools[tool.name] = tool
            return fn

        return register(function) if function is not None else register

    def tool_schemas(self) -> list[dict[str, Any]]:
        """OpenAI tool schemas, in name order (built once per tool set)."""
        key = tuple(sorted(self.tools))
        if self._schemas is None or self._schemas[0] != key:
            self._schemas = (key, [self.tools[name].schema() for name in key])
        return self._schemas[1]

    # -- data ----------------------------------------------------------------------
    @property
    def db_path(self) -> Path:
        return self._db_path or self.fixtures / "db.json"

    def use_db(self, path: Path) -> None:
        """Point the domain at another DB file (benchmarks use a larger one)."""
        self._db_path = Path(path)
        self.__dict__.pop("initial_db", None)
        self._indexes = {}
        self.gold.cache_clear()

    @functools.cached_property
    def policy(self) -> str:
        path = self.fixtures / "policy.md"
        try:
            return path.read_text(encoding="utf-8")
        except OSError as exc:
            raise DomainError(f"{path}: cannot read the policy: {exc.strerror}") from None

    @functools.cached_property
    def initial_db(self) -> BaseModel:
        """The validated initial DB, loaded once per process and never changed."""
        path = self.db_path
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise DomainError(f"{path}: cannot read the DB: {exc.strerror}") from None
        try:
            return self.db_model.model_validate(orjson.loads(raw))
        except orjson.JSONDecodeError as exc:
            raise DomainError(f"{path}: not valid JSON: {exc}") from None
        except pydantic.ValidationError as exc:
            raise DomainError(_db_error(path, exc)) from None

    @functools.cached_property
    def tasks(self) -> list[Task]:
        """Every task of every split, sorted by id; actions are checked against the tools."""
        path = self.fixtures / "tasks.json"
        tasks = load_tasks(path)
        for task in tasks:
            for field in ("gold_actions", "required_actions", "forbidden_actions"):
                for index, action in enumerate(getattr(task, field)):
                    tool = self.tools.get(action.name)
                    if tool is None:
                        raise TaskFileError(
                            f"{path}: task {task.id!r}: field '{field}.{index}.name': unknown tool {action.name!r}"
                        )
                    if field == "gold_actions":
                        try:
                            tool.arguments.model_validate(action.arguments)
                        except pydantic.ValidationError as exc:
                            problem = exc.errors()[0]
                            arg = ".".join(str(p) for p in problem["loc"])
                            raise TaskFileError(
                                f"{path}: task {task.id!r}: field '{field}.{index}.arguments.{arg}': {problem['msg']}"
                            ) from None
        return tasks

    def initial_record(self, table: str, key: str) -> dict[str, Any] | None:
        """A record of the initial DB as JSON, or None if it does not exist."""
        record = getattr(self.initial_db, table).get(key)
        return None if record is None else record.model_dump(mode="json")

    def task(self, task_id: str) -> Task:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise KeyError(f"domain {self.name!r} has no task {task_id!r}")

    def new_state(self) -> State:
        """A fresh copy-on-write state over the initial DB."""
        return State(self.db_model, self.initial_db, self._indexes)

    @functools.lru_cache(maxsize=None)  # noqa: B019 - a Domain lives as long as the process
    def gold(self, task_id: str) -> Gold:
        """The task's gold actions replayed on a fresh DB: computed once per task."""
        env = Environment(self)
        task = self.task(task_id)
        calls = [env.call(action.name, dict(action.arguments)) for action in task.gold_actions]
        return Gold(diff=env.state.diff(), calls=tuple(calls))


@dataclass(frozen=True)
class Gold:
    """A task's gold outcome: the state diff and the gold calls with their results."""

    diff: Diff
    calls: tuple[ToolCall, ...]
