"""τ²-bench's airline, retail and telecom domains as pytest-tau `Domain`s (imported only when a run names them).

τ²'s own pieces, used as they are: its DB model and db.json, its toolkit's methods (each call runs
on a toolkit over the environment's copy-on-write tables), its tool schemas, its policy and its
tasks (the ``base`` task set, the one its leaderboard reports). pytest-tau supplies the runner,
the state diff and the reports. Grading follows each task's reward basis as τ²'s evaluator does:

- DB: the final DB equals the DB that τ²'s gold actions reach (τ² compares hashes of the whole DB;
  pytest-tau compares the changed records, which is the same test and says which record differs);
- COMMUNICATE: each ``communicate_info`` string appears, case folded, in one agent message with
  its commas removed;
- ACTION: each gold action matches some tool call on its ``compare_args`` (all arguments when
  none are listed), exactly;
- a conversation that did not end (max steps) scores 0, as in τ² (premature termination);
- ENV_ASSERTION (telecom): τ²'s assertion functions, run on toolkits over copies of the final
  state of both sides (see `_telecom`), each must return its expected value;
- NL_ASSERTION needs an LLM judge, which pytest-tau does not run: such a task is not scored
  (an error that names the reason), never passed.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import pydantic

from .._conversation import InfraError
from .._domain import Domain, DomainError
from .._evaluate import Verdict, diff_records
from .._tasks import Action, Output, Task, UserScenario
from .._tools import Tool, ToolError

if TYPE_CHECKING:
    from .._conversation import Trajectory
    from .._environment import Environment

__all__ = ["Tau2Domain", "Tau2Verdict"]

TRANSFER = "transfer_to_human_agents"
SCORED_BASES = frozenset({"DB", "COMMUNICATE", "ACTION", "ENV_ASSERTION"})


def _quiet_import() -> None:
    # τ²'s modules log through loguru at import ("No .env file found"); keep the test output clean.
    from loguru import logger

    logger.disable("tau2")


@dataclass(frozen=True)
class Tau2Tool(Tool):
    """A τ² tool: τ²'s own JSON schema is what the agent sees.

    Arguments reach τ²'s method as the model sent them (τ² validates nothing before the call), and
    `write` stays False so a failed call is not rolled back: τ² keeps whatever a tool changed
    before it raised, and so does this adapter.
    """

    openai_schema: dict[str, Any] = field(default_factory=dict)
    tool_type: str = "read"

    def schema(self) -> dict[str, Any]:
        return self.openai_schema


@dataclass(frozen=True)
class Tau2Verdict(Verdict):
    """A verdict under τ²'s rules: a conversation that did not end scores 0 whatever its state."""

    premature: str | None = None
    failed_assertions: list[str] = field(default_factory=list)
    tau2_id: str | None = None  # τ²'s own task id, named in a failure when ours is a mapping of it

    @property
    def reward(self) -> float:
        return 0.0 if self.premature or self.failed_assertions else super().reward

    def parts(self) -> dict[str, float]:
        return {**super().parts(), "ended": float(not self.premature), "env_assertions": float(not self.failed_assertions)}

    def explain(self, limit: int = 10) -> str:
        text = super().explain(limit)
        lines = [] if text == "reward 1" else [text]
        if self.failed_assertions:
            lines.insert(0, "τ² env assertions not met on the final state: " + "; ".join(self.failed_assertions[:limit]))
        if self.premature:
            lines.insert(0, f"the conversation did not end ({self.premature}): τ² scores a premature termination 0")
        if lines and self.tau2_id is not None:
            lines.append(f"τ² task: {self.tau2_id}")
        return "\n".join(lines) or "reward 1"


def _arguments_model(name: str, params: type[pydantic.BaseModel]) -> type[pydantic.BaseModel]:
    """τ²'s parameters, each typed Any: required ones stay required, values pass through unchanged."""
    fields: dict[str, Any] = {}
    for arg, info in params.model_fields.items():
        fields[arg] = (Any, pydantic.Field(... if info.is_required() else info.default, description=info.description))
    return pydantic.create_model(f"{name}_arguments", __config__=pydantic.ConfigDict(extra="forbid"), **fields)


def _tool(toolkit_class: type[Any], name: str, tau2_tool: Any, tool_type: str, unwrap: Callable[[Any], Any] | None = None) -> Tau2Tool:
    """`unwrap` turns the side's state into the DB τ²'s toolkit takes (telecom keeps each whole DB as one record)."""
    from tau2.environment.environment import Environment as Tau2Environment

    def call(db: Any, **arguments: Any) -> str:
        try:
            result = toolkit_class(unwrap(db) if unwrap is not None else db).use_tool(name, **arguments)
        except Exception as exc:  # τ² answers any exception of a tool with "Error: <message>"
            raise ToolError(str(exc)) from None
        rendered: str = Tau2Environment.to_json_str(result)  # the tool message exactly as τ² renders it
        return rendered

    call.__name__ = name
    schema = tau2_tool.openai_schema
    return Tau2Tool(
        name=name,
        function=call,
        write=False,
        transfer=name == TRANSFER,
        description=schema["function"]["description"],
        arguments=_arguments_model(name, tau2_tool.params),
        openai_schema=schema,
        tool_type=tool_type,
    )


def _instructions(user_scenario: Any) -> str:
    return str(user_scenario)  # τ²'s own rendering: persona, reason for call, known info, task instructions


def _opening(user_scenario: Any) -> str:
    """The scripted user's one line: why they call, in the scenario's words."""
    instructions = user_scenario.instructions
    reason = getattr(instructions, "reason_for_call", None) or str(instructions)
    return " ".join(reason.split())


class Tau2Domain(Domain[Any]):
    """One τ² domain: its DB, toolkit, policy and base task set, graded by each task's reward basis."""

    # τ²-bench's own tasks hold gold actions that fail by design (lookups of a user or an
    # order that does not exist; refused exchanges); its evaluation replays them as they are.
    failing_gold_allowed = True

    def __init__(self, short_name: str) -> None:
        _quiet_import()
        import importlib

        module = importlib.import_module(f"tau2.domains.{short_name}.environment")
        tau2_env = module.get_environment()
        toolkit = tau2_env.tools
        self.tau2_name = short_name
        self.tau2_tasks = {task.id: task for task in module.get_tasks("base")}
        self._tau2_db = toolkit.db
        db_model, user_model = self._models(tau2_env)
        super().__init__(
            f"tau2_{short_name}", db_model, now=dt.datetime(2024, 5, 15, 15, 0), fixtures=None, standard_tools=False, user_db=user_model
        )
        self._policy: str = tau2_env.get_policy()
        schemas = toolkit.get_tools()
        for name in sorted(schemas):
            self.tools[name] = _tool(type(toolkit), name, schemas[name], toolkit.tool_type(name).value, self._unwrap("agent"))
        user_toolkit = getattr(tau2_env, "user_tools", None)  # telecom: the customer's phone
        if user_model is not None and user_toolkit is not None:
            self._tau2_user_db = user_toolkit.db
            user_schemas = user_toolkit.get_tools()
            for name in sorted(user_schemas):
                self.user_tools[name] = _tool(
                    type(user_toolkit), name, user_schemas[name], user_toolkit.tool_type(name).value, self._unwrap("user")
                )
        self.id_map = {_task_id(tid): tid for tid in self.tau2_tasks}
        if len(self.id_map) != len(self.tau2_tasks):
            raise DomainError(f"τ² {short_name}: two task ids map to one pytest-tau id")

    # -- how τ²'s DBs sit in pytest-tau's state (telecom overrides) ----------------------
    def _models(self, tau2_env: Any) -> tuple[type[Any], type[pydantic.BaseModel] | None]:
        """Our DB models: τ²'s own where its tables are already keyed mappings (airline, retail)."""
        return type(tau2_env.tools.db), None

    def _unwrap(self, side: str) -> Callable[[Any], Any] | None:
        """How a tool of `side` gets τ²'s DB from its side of the state (None: it is that DB)."""
        return None

    def env_assertions(self, tau2_task: Any, env: Environment) -> list[str]:
        """The τ² env assertions a final state fails (only telecom has any)."""
        return [f"{a.env_type}.{a.func_name}: this domain has no env assertions" for a in tau2_task.evaluation_criteria.env_assertions or []]

    # -- data: τ²'s own, loaded by τ²'s code ----------------------------------------------
    @functools.cached_property
    def initial_db(self) -> Any:
        return self._tau2_db

    @functools.cached_property
    def policy(self) -> str:
        return self._policy

    @functools.cached_property
    def tasks(self) -> list[Task]:
        tasks = []
        for our_id, tau2_id in self.id_map.items():
            tasks.append(_convert(our_id, self.tau2_tasks[tau2_id]))
        return sorted(tasks, key=lambda task: task.id)

    def tau2_task(self, task_id: str) -> Any:
        """τ²'s own task object behind one of ours."""
        return self.tau2_tasks[self.id_map[task_id]]

    # -- grading --------------------------------------------------------------------------
    def judge(self, task: Task, env: Environment, trajectory: Trajectory) -> Verdict | None:
        tau2_task = self.tau2_task(task.id)
        criteria = tau2_task.evaluation_criteria
        if criteria is None:
            return Tau2Verdict()
        basis = {getattr(b, "value", b) for b in criteria.reward_basis}
        unscored = sorted(basis - SCORED_BASES)
        if unscored:
            raise InfraError(
                f"{self.name}/{task.id}: reward basis {', '.join(unscored)} needs "
                + ("an LLM judge, which pytest-tau does not run" if "NL_ASSERTION" in unscored else "checks this adapter does not cover")
                + ": not scored"
            )
        premature = "max steps" if trajectory.end_reason == "max_steps" else None
        differences = []
        failed = self.env_assertions(tau2_task, env) if "ENV_ASSERTION" in basis else []
        if "DB" in basis and not (criteria.actions is None and criteria.env_assertions is None):
            gold = self.gold(task.id).compared
            differences = diff_records(gold, self.canonical_diff(env.state.diff()), self.initial_compared)
        missing_outputs = []
        if "COMMUNICATE" in basis:
            said = [text.lower().replace(",", "") for text in trajectory.told]
            missing_outputs = [info for info in criteria.communicate_info or [] if not any(info.lower() in text for text in said)]
        missing_actions = []
        if "ACTION" in basis:
            calls = [c for c in trajectory.calls if "__raw__" not in c.arguments]
            for action in criteria.actions or []:
                if not any(_action_matches(action, call.name, call.arguments) for call in calls):
                    missing_actions.append(action.get_func_format())
        return Tau2Verdict(
            state_differences=differences,
            missing_outputs=missing_outputs,
            missing_actions=missing_actions,
            premature=premature,
            failed_assertions=failed,
            tau2_id=None if tau2_task.id == task.id else tau2_task.id,
        )


def _action_matches(action: Any, name: str, arguments: dict[str, Any]) -> bool:
    """τ²'s `Action.compare_with_tool_call`, on a call as pytest-tau records it."""
    from tau2.data_model.message import ToolCall

    return bool(action.compare_with_tool_call(ToolCall(id="", name=name, arguments=arguments)))


def _task_id(tau2_id: str) -> str:
    """τ²'s id itself where it is a pytest-tau id (airline and retail ids are numbers: "0" ... "113").

    Otherwise (telecom: ``[mobile_data_issue]airplane_mode_on|data_mode_off[PERSONA:Easy]``) its words,
    lowercased and joined by ``_``, cut to 55 characters, and 8 hex digits of its sha256: the same id
    on every machine, distinct for distinct τ² ids even where the cut drops what tells them apart."""
    if re.fullmatch(r"[a-z0-9_]{1,64}", tau2_id):
        return tau2_id
    words = re.sub(r"[^a-z0-9]+", "_", tau2_id.lower()).strip("_")
    return f"{words[:55].rstrip('_')}_{hashlib.sha256(tau2_id.encode()).hexdigest()[:8]}"


def _convert(our_id: str, tau2_task: Any) -> Task:
    criteria = tau2_task.evaluation_criteria
    basis = {getattr(b, "value", b) for b in criteria.reward_basis} if criteria is not None else set()
    actions = [a for a in (criteria.actions or [])] if criteria is not None else []
    return Task(
        id=our_id,
        split="test",  # τ²'s base set is all of them, and it is what its leaderboard reports
        user=UserScenario(instructions=_instructions(tau2_task.user_scenario), script=[_opening(tau2_task.user_scenario)]),
        # telecom's gold has the customer's own steps (requestor "user"): user steps of our dual control
        gold_actions=[Action(name=a.name, arguments=dict(a.arguments), actor=_actor(a.requestor)) for a in actions],
        required_outputs=[Output(value=info, kind="text") for info in (criteria.communicate_info or [])] if "COMMUNICATE" in basis else [],
        required_actions=[
            Action(
                name=a.name,
                arguments={k: v for k, v in a.arguments.items() if a.compare_args is None or k in a.compare_args},
                actor=_actor(a.requestor),
            )
            for a in actions
        ]
        if "ACTION" in basis
        else [],
    )


def _actor(requestor: str) -> Literal["agent", "user"]:
    return "user" if requestor == "user" else "agent"
