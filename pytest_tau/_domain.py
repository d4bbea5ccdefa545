"""The domain SDK: a domain is its DB schema, its tools, its policy and its tasks.

    class RetailDB(BaseModel):
        orders: Table[Order]

    DOMAIN = Domain("retail", RetailDB, now=datetime(2026, 5, 15, 14, 0))

    @DOMAIN.tool
    def get_order_details(db: RetailDB, order_id: str) -> Order:
        '''Return an order's status, items, payment and shipping.'''
        return db.orders.require(order_id)

    @DOMAIN.tool(write=True)
    def cancel_pending_order(db: RetailDB, order_id: str, reason: str) -> Order: ...

Its data lives in ``fixtures/<name>/`` beside ``tests_domains/`` (``db.json``, ``tasks.json``,
``policy.md``). Every domain gets the standard ``calculate`` and ``transfer_to_human_agents``
tools; ``DOMAIN.now`` / ``DOMAIN.today`` are the policy's fixed current time.
"""

from __future__ import annotations

import datetime as dt
import functools
import sys
import typing
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Generic, TypeVar, overload

import orjson
import pydantic
from pydantic import BaseModel

from ._canonical import Canonical, canonical, confidential_fields
from ._compact import compact
from ._environment import Environment, ToolCall
from ._invariants import Invariant
from ._state import USER_PREFIX, Diff, State, Table
from ._tasks import Action, Task, TaskFileError, load_tasks
from ._tools import Tool, calculate

if typing.TYPE_CHECKING:
    from ._conversation import Trajectory
    from ._evaluate import Verdict

__all__ = ["AnyDomain", "Domain", "DomainError", "Gold", "dump_db"]

F = TypeVar("F", bound=Callable[..., Any])
DB = TypeVar("DB", bound=BaseModel)

TRANSFER_TOOL = "transfer_to_human_agents"
TRANSFER_RESULT = "Transfer successful: a human agent will take over this conversation."


def dump_db(data: Any) -> bytes:
    """The one on-disk form of a DB: compact JSON, keys sorted (generators write it, tests compare it)."""
    if isinstance(data, BaseModel):
        data = data.model_dump(mode="json")
    return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)


def _table_record(annotation: Any) -> type[BaseModel] | None:
    """The record model of a table field (`Table[R]`, or the older `dict[str, R]`), else None."""
    origin = typing.get_origin(annotation)
    args = typing.get_args(annotation)
    if origin is Annotated:
        return _table_record(args[0])
    if (origin is Table and len(args) == 1) or (origin is dict and len(args) == 2 and args[0] is str):
        record = args[-1]
        if isinstance(record, type) and issubclass(record, BaseModel):
            return record
    return None


def _default_fixtures(name: str) -> Path:
    """`tests_domains/<name>/domain.py` -> `fixtures/<name>/` (two folders up)."""
    frame = sys._getframe(2)
    caller = Path(frame.f_globals.get("__file__", Path.cwd() / "x" / "y" / "domain.py")).resolve()
    return caller.parents[2] / "fixtures" / name


class DomainError(Exception):
    """A domain that cannot be loaded: broken DB file, schema or tool set."""


def _load_db(path: Path, model: type[BaseModel], what: str) -> Any:
    """A DB file validated against its model, held compact: it lives as long as the process,
    so what its records repeat is stored once. Every problem is a DomainError naming the file."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise DomainError(f"{path}: cannot read {what}: {exc.strerror}") from None
    try:
        db = model.model_validate(orjson.loads(raw))
    except orjson.JSONDecodeError as exc:
        raise DomainError(f"{path}: not valid JSON: {exc}") from None
    except pydantic.ValidationError as exc:
        raise DomainError(_db_error(path, exc)) from None
    compact(db)
    return db


def _db_error(path: Path, error: pydantic.ValidationError) -> str:
    lines = []
    for item in error.errors():
        loc = [str(part) for part in item["loc"]]
        where = f"record {loc[0]}[{loc[1]!r}]: " if len(loc) >= 2 else ""
        field = ".".join(loc[2:]) if len(loc) >= 2 else ".".join(loc)
        lines.append(f"{path}: {where}field {field or '(record)'!r}: {item['msg']}")
    return "\n".join(lines[:20]) + (f"\n... and {len(lines) - 20} more" if len(lines) > 20 else "")


class Domain(Generic[DB]):
    """A self-describing domain; tests_domains/<name>/ defines one, the engine runs it.

    `now` is the policy's fixed current time; `fixtures` defaults to `fixtures/<name>/`
    two folders above the module that creates the domain. `standard_tools=False` leaves
    out `calculate` and `transfer_to_human_agents` (a domain that defines its own).

    Dual control: `user_db` is the model of the customer's own side (their device), loaded
    from `fixtures/<name>/user_db.json`; tools registered with `@DOMAIN.user_tool` take it as
    their first argument and are called by the simulated user, never by the agent.
    """

    def __init__(
        self,
        name: str,
        db_model: type[DB],
        *,
        now: dt.datetime | None = None,
        fixtures: Path | str | None = None,
        standard_tools: bool = True,
        user_db: type[BaseModel] | None = None,
        confidential: typing.Iterable[str] = (),
    ) -> None:
        if not name.isidentifier() or not name.islower():
            raise DomainError(f"domain name {name!r} must be a lowercase identifier")
        self.record_models: dict[str, type[BaseModel]] = {}
        for prefix, model in (("", db_model), (USER_PREFIX, user_db)):
            for field_name, field in (model.model_fields if model is not None else {}).items():
                record = _table_record(field.annotation)
                if record is None:
                    raise DomainError(f"{model.__name__}.{field_name}: every DB field must be a table, Table[<record model>]")  # type: ignore[union-attr]
                self.record_models[prefix + field_name] = record
        self.user_db_model = user_db
        # Fields the policy forbids telling (schema fields marked Confidential, and names given here).
        shapes: dict[str, set[frozenset[str]]] = {}
        for record_model in self.record_models.values():
            for field_name, found in confidential_fields(record_model).items():
                shapes.setdefault(field_name, set()).update(found)
        # A name given here is confidential in any record; a marked field only in records of its model's shape.
        self.confidential_shapes: dict[str, frozenset[frozenset[str]]] = {name: frozenset(found) for name, found in shapes.items() if name not in confidential}
        self.confidential: frozenset[str] = frozenset(shapes) | frozenset(confidential)
        self.order_rules: list[tuple[str, str]] = []
        self.user_tools: dict[str, Tool] = {}
        self._user_indexes: dict[str, dict[str, Any]] = {}
        self.name = name
        self.db_model = db_model
        self.now = now or dt.datetime(2026, 1, 1, 9, 0)
        self.fixtures = Path(fixtures) if fixtures is not None else _default_fixtures(name)
        self.tools: dict[str, Tool] = {}
        self._standard: set[str] = set()  # standard tools a domain may still replace with its own
        self._db_path: Path | None = None
        self._schemas: tuple[tuple[str, ...], list[dict[str, Any]]] | None = None
        self._indexes: dict[str, dict[str, Any]] = {}  # per table, per field, over initial_db
        self.data_invariants: list[Invariant] = []  # what db.json must satisfy (validate checks)
        if standard_tools:
            self._add_standard_tools()

    @property
    def today(self) -> dt.date:
        """The policy's current date."""
        return self.now.date()

    def _add_standard_tools(self) -> None:
        def calculate_tool(
            db: Any,
            expression: Annotated[str, pydantic.Field(description="an arithmetic expression, such as '129.99 - 104.5'")],
        ) -> str:
            """Evaluate an arithmetic expression (numbers, + - * / and parentheses); the result is rounded to 2 decimals."""
            return calculate(expression)

        def transfer_tool(
            db: Any,
            summary: Annotated[str, pydantic.Field(description="a short summary of the customer's issue for the human agent")],
        ) -> str:
            """Transfer the customer to a human agent, with a summary of the issue. Only when the policy says so or the
            request is outside what you can handle; the conversation ends after the transfer."""
            return TRANSFER_RESULT

        calculate_tool.__name__ = "calculate"
        transfer_tool.__name__ = TRANSFER_TOOL
        self.tool(calculate_tool)
        self.tool(transfer=True)(transfer_tool)
        self._standard = {"calculate", TRANSFER_TOOL}

    # -- data invariants -------------------------------------------------------------
    def invariants(self, *invariants: Invariant) -> None:
        """Declare invariants built by the helpers of `pytest_tau.invariants` (`not_after_now`,
        `ordered`, `cents`, ...); `python -m pytest_tau.validate` checks them on the DB."""
        for invariant in invariants:
            if not isinstance(invariant, Invariant):
                raise DomainError(f"{self.name}: invariants() takes the helpers' Invariant objects, not {invariant!r}; decorate a plain function with @DOMAIN.invariant")
        self.data_invariants.extend(invariants)

    def invariant(self, function: F) -> F:
        """Declare a domain-specific invariant: `function(db, now)` yields one problem string per
        record that breaks it (a balance that does not follow from its history, say)."""
        name = (function.__doc__ or function.__name__).strip().splitlines()[0]
        self.data_invariants.append(Invariant(name, function))
        return function

    def canonical(self, table: str) -> Canonical:
        """The function that puts a JSON record of `table` in its compared form (see `FreeText`)."""
        return canonical(self.record_models[table])

    def canonical_diff(self, diff: Diff) -> Diff:
        """A diff with every record in its compared form (for fingerprints)."""
        return {table: {key: None if rec is None else self.canonical(table)(rec) for key, rec in recs.items()} for table, recs in diff.items()}

    def __repr__(self) -> str:
        return f"Domain({self.name!r}, tools={len(self.tools)})"

    # -- tools ---------------------------------------------------------------------
    @overload
    def tool(self, function: F, /) -> F: ...
    @overload
    def tool(
        self, function: None = None, /, *, write: bool = False, transfer: bool = False, authenticates: bool = False
    ) -> Callable[[F], F]: ...

    def tool(self, function: F | None = None, /, *, write: bool = False, transfer: bool = False, authenticates: bool = False) -> Any:
        """Register a tool. `write=True` for tools that change the DB; `transfer=True`
        for the tool that hands the conversation to a human (it ends the conversation);
        `authenticates=True` for a look-up that identifies the caller: when a task's gold makes
        one, a conversation scores 0 unless the agent made one that found the same caller before
        its first write."""

        def register(fn: F) -> F:
            tool = Tool.from_function(fn, write=write, transfer=transfer, authenticates=authenticates)
            if transfer:  # a domain's own transfer tool replaces the standard one
                for name in [n for n in self._standard if self.tools[n].transfer]:
                    del self.tools[name]
                    self._standard.discard(name)
            if tool.name in self._standard:
                del self.tools[tool.name]
                self._standard.discard(tool.name)
            if transfer and any(t.transfer for t in self.tools.values()):
                raise DomainError(f"domain {self.name!r}: one transfer tool only (the SDK provides {TRANSFER_TOOL})")
            if tool.name in self.tools or tool.name in self.user_tools:
                raise DomainError(f"domain {self.name!r}: tool {tool.name!r} defined twice")
            self.tools[tool.name] = tool
            return fn

        return register(function) if function is not None else register

    @overload
    def user_tool(self, function: F, /) -> F: ...
    @overload
    def user_tool(self, function: None = None, /, *, write: bool = False) -> Callable[[F], F]: ...

    def user_tool(self, function: F | None = None, /, *, write: bool = False) -> Any:
        """Register a tool of the customer's own side (dual control): its first parameter is
        the user DB; only the simulated user calls it. `write=True` when it changes that DB.
        User and agent tool names are one namespace, so a call's name says whose tool it is."""

        def register(fn: F) -> F:
            if self.user_db_model is None:
                raise DomainError(f"domain {self.name!r}: user tools need a user-side DB (Domain(..., user_db=<model>))")
            tool = Tool.from_function(fn, write=write)
            if tool.name in self.tools or tool.name in self.user_tools:
                raise DomainError(f"domain {self.name!r}: tool {tool.name!r} defined twice")
            self.user_tools[tool.name] = tool
            return fn

        return register(function) if function is not None else register

    def order(self, first: str, then: str) -> None:
        """A rule of the policy: `then` only after `first` (contain before opening the incident).
        When a task's gold calls both, a conversation whose first successful `then` comes before
        any successful `first` scores 0; either may be a user tool."""
        for name in (first, then):
            if name not in self.tools and name not in self.user_tools:
                raise DomainError(f"domain {self.name!r}: order rule names unknown tool {name!r} (register the tools first)")
        self.order_rules.append((first, then))

    @property
    def dual_control(self) -> bool:
        """True when the customer has tools of their own."""
        return bool(self.user_tools)

    def tool_for(self, action: Action) -> Tool | None:
        """The tool an action calls: the agent's, or the user's for `actor="user"`."""
        return (self.user_tools if action.actor == "user" else self.tools).get(action.name)

    def user_tool_schemas(self) -> list[dict[str, Any]]:
        """OpenAI schemas of the user's tools, in name order (what an LLM user is given)."""
        return [self.user_tools[name].schema() for name in sorted(self.user_tools)]

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
        self.derived_wrong.cache_clear()

    @functools.cached_property
    def policy(self) -> str:
        path = self.fixtures / "policy.md"
        try:
            return path.read_text(encoding="utf-8")
        except OSError as exc:
            raise DomainError(f"{path}: cannot read the policy: {exc.strerror}") from None

    @functools.cached_property
    def initial_db(self) -> DB:
        """The validated initial DB, loaded once per process and never changed."""
        db: DB = _load_db(self.db_path, self.db_model, "the DB")
        return db

    @functools.cached_property
    def initial_user_db(self) -> BaseModel | None:
        """The validated user-side DB (`fixtures/<name>/user_db.json`), or None in a single-control domain."""
        if self.user_db_model is None:
            return None
        user_db: BaseModel = _load_db(self.fixtures / "user_db.json", self.user_db_model, "the user DB")
        return user_db

    @functools.cached_property
    def tasks(self) -> list[Task]:
        """Every task of every split, sorted by id; actions are checked against the tools."""
        path = self.fixtures / "tasks.json"
        tasks = load_tasks(path)
        for task in tasks:
            for field in ("gold_actions", "required_actions", "forbidden_actions"):
                for index, action in enumerate(getattr(task, field)):
                    for option in action.instead:
                        if self.tool_for(option) is None:
                            raise TaskFileError(f"{path}: task {task.id!r}: field '{field}.{index}.instead': unknown tool {option.name!r}")
                    tool = self.tool_for(action)
                    if tool is None:
                        whose = "user tool" if action.actor == "user" else "tool"
                        raise TaskFileError(
                            f"{path}: task {task.id!r}: field '{field}.{index}.name': unknown {whose} {action.name!r}"
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
        if table.startswith(USER_PREFIX):
            records = getattr(self.initial_user_db, table[len(USER_PREFIX) :])
        else:
            records = getattr(self.initial_db, table)
        record = records.base.get(key) if isinstance(records, Table) else records.get(key)
        return None if record is None else record.model_dump(mode="json")

    def task(self, task_id: str) -> Task:
        for task in self.tasks:
            if task.id == task_id:
                return task
        raise KeyError(f"domain {self.name!r} has no task {task_id!r}")

    def new_state(self, task: Task | None = None) -> State:
        """A fresh copy-on-write state over the initial DB, at `task`'s starting point when given."""
        user = None
        if self.user_db_model is not None:
            user = (self.user_db_model, self.initial_user_db, self._user_indexes)
        state = State(self.db_model, self.initial_db, self._indexes, user)  # type: ignore[arg-type]
        if task is not None:
            self.prepare_state(state, task)
        return state

    def prepare_state(self, state: State, task: Task) -> None:
        """Bring a fresh state to where `task` starts. The default does nothing: every task of a
        pytest-tau domain starts from the initial DB; τ²-bench's telecom tasks each set their own."""

    def after_call(self, state: State) -> None:
        """Runs after each successful tool call of either side. The default does nothing; a domain
        whose two sides must agree (τ²-bench's telecom: the line's status seen by the phone) syncs here."""

    # A gold action that fails makes a task unscorable (see `gold`); an adapter of another
    # benchmark whose tasks hold failing gold actions by design sets this.
    failing_gold_allowed = False

    @functools.cache  # noqa: B019 - a Domain lives as long as the process
    def gold(self, task_id: str) -> Gold:
        """The task's gold actions replayed on a fresh DB: computed once per task. A gold
        action that fails is a broken task (DomainError): scoring against what is left would
        pass an agent that does nothing."""
        task = self.task(task_id)
        env = Environment(self, task=task)
        calls = [env.call(action.name, dict(action.arguments), actor=action.actor) for action in task.gold_actions]
        failed = [(index, call) for index, call in enumerate(calls) if call.error]
        if failed and not self.failing_gold_allowed:
            index, call = failed[0]
            raise DomainError(
                f"{self.name}/{task.id}: gold action {index} ({call.name}) fails: {call.result[:300]}; "
                "the task cannot be scored (python -m pytest_tau.validate lists such tasks)"
            )
        diff = env.state.diff()
        return Gold(diff=diff, calls=tuple(calls), compared=self.canonical_diff(diff))

    @functools.cache  # noqa: B019 - a Domain lives as long as the process
    def derived_wrong(self, task_id: str) -> tuple[Any, ...]:
        """The sibling figures of the task's required outputs in its gold results (see _precision)."""
        from ._precision import derived_wrong_outputs

        task = self.task(task_id)
        if not task.required_outputs:
            return ()
        return tuple(derived_wrong_outputs(task.required_outputs, self.gold(task_id).calls, self.confidential))

    def judge(self, task: Task, env: Environment, trajectory: Trajectory) -> Verdict | None:
        """A domain with grading rules of its own (τ²-bench's reward bases) returns its verdict here;
        None, the default, scores with the standard rules."""
        return None

    def initial_compared(self, table: str, key: str) -> dict[str, Any] | None:
        """A record of the initial DB in its compared form, or None."""
        record = self.initial_record(table, key)
        return None if record is None else self.canonical(table)(record)


@dataclass(frozen=True)
class Gold:
    """A task's gold outcome: the state diff and the gold calls with their results."""

    diff: Diff
    calls: tuple[ToolCall, ...]
    compared: Diff  # the diff with every record in its compared form (free text, unordered lists)


AnyDomain = Domain[Any]
"""A domain over any DB model: what the engine, which never looks inside a DB, passes around."""
