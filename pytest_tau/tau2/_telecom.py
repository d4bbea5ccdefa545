"""τ²-bench's telecom domain: dual control, where the customer's phone is the user-side DB.

τ²'s two DBs are not keyed tables (TelecomDB holds lists of plans, customers, lines...; the
phone is one nested model), so each whole DB is one record of a one-record table: the agent's
``telecom['db']`` and the customer's ``user:device['db']``. A diff and a failure then name a
nested path (``user:device['db'].device.airplane_mode``). τ²'s pieces are used as they are:

- each task starts from its ``initial_state``: τ²'s own ``set_state`` (initialization_data
  merged into both DBs, then initialization_actions, each followed by τ²'s sync), computed once
  per task and copied into every fresh state (`prepare_state`);
- after every successful tool call of either side, τ²'s ``TelecomEnvironment.sync_tools`` brings
  the phone in line with the agent's DB and back (line active, roaming, data used, a paid bill),
  as τ²'s orchestrator does after each tool message (`after_call`);
- ENV_ASSERTION: τ²'s assertion functions, on toolkits over copies of the final state, after
  one more sync (τ² re-plays the trajectory and syncs before asserting), each followed by a sync.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

import pydantic

from .._state import USER_PREFIX, State, Table
from .._tasks import Task
from ._adapter import Tau2Domain

if TYPE_CHECKING:
    from .._environment import Environment

__all__ = ["AGENT_TABLE", "KEY", "USER_TABLE", "TelecomDomain"]

AGENT_TABLE = "telecom"
USER_TABLE = "device"
KEY = "db"  # the one record of each table: the whole τ² DB of that side


def _agent_db(db: Any) -> Any:
    return getattr(db, AGENT_TABLE)[KEY]


def _user_db(db: Any) -> Any:
    return getattr(db, USER_TABLE)[KEY]


class TelecomDomain(Tau2Domain):
    """τ²'s telecom domain (base task set, 114 tasks): agent tools, the customer's phone tools, both DBs."""

    def __init__(self) -> None:
        super().__init__("telecom")  # τ²'s environment also brings the phone's toolkit: user tools

    def _models(self, tau2_env: Any) -> tuple[type[Any], type[pydantic.BaseModel] | None]:
        agent_record: Any = type(tau2_env.tools.db)
        user_record: Any = type(tau2_env.user_tools.db)
        agent = pydantic.create_model("TelecomAgentSide", telecom=(Table[agent_record], ...))  # AGENT_TABLE
        user = pydantic.create_model("TelecomUserSide", device=(Table[user_record], ...))  # USER_TABLE
        return agent, user

    def _unwrap(self, side: str) -> Callable[[Any], Any] | None:
        return _agent_db if side == "agent" else _user_db

    # -- data -------------------------------------------------------------------------
    @functools.cached_property
    def initial_db(self) -> Any:
        return self.db_model.model_validate({AGENT_TABLE: {KEY: self._tau2_db}})

    @functools.cached_property
    def initial_user_db(self) -> pydantic.BaseModel | None:
        assert self.user_db_model is not None
        return self.user_db_model.model_validate({USER_TABLE: {KEY: self._tau2_user_db}})

    @functools.cache  # noqa: B019 - a Domain lives as long as the process
    def _task_start(self, task_id: str) -> tuple[Any, Any]:
        """Both DBs where τ²'s task starts: its own environment, its own `set_state`."""
        from tau2.domains.telecom.environment import get_environment

        initial = self.tau2_task(task_id).initial_state
        env = get_environment(db=copy.deepcopy(self._tau2_db), user_db=copy.deepcopy(self._tau2_user_db))
        if initial is not None:
            env.set_state(initial.initialization_data, initial.initialization_actions, [])
        return env.tools.db, env.user_tools.db

    def prepare_state(self, state: State, task: Task) -> None:
        agent, user = self._task_start(task.id)
        state.tables[AGENT_TABLE][KEY] = copy.deepcopy(agent)
        state.tables[USER_PREFIX + USER_TABLE][KEY] = copy.deepcopy(user)

    # -- keeping both sides consistent ------------------------------------------------------
    def after_call(self, state: State) -> None:
        _sync(_agent_db(state.db), _user_db(state.user_db))

    def env_assertions(self, tau2_task: Any, env: Environment) -> list[str]:
        from tau2.domains.telecom.tools import TelecomTools
        from tau2.domains.telecom.user_tools import TelecomUserTools

        sides = {
            "assistant": TelecomTools(copy.deepcopy(_agent_db(env.state.db))),
            "user": TelecomUserTools(copy.deepcopy(_user_db(env.state.user_db))),
        }
        _sync(sides["assistant"].db, sides["user"].db)
        failed = []
        for assertion in tau2_task.evaluation_criteria.env_assertions or []:
            label = f"{assertion.env_type}.{assertion.func_name}({', '.join(f'{k}={v!r}' for k, v in assertion.arguments.items())})"
            try:
                result = getattr(sides[assertion.env_type], assertion.func_name)(**assertion.arguments)
            except Exception as exc:  # τ² would stop the evaluation; here the assertion is simply not met
                failed.append(f"{label} raised {type(exc).__name__}: {exc}")
                continue
            _sync(sides["assistant"].db, sides["user"].db)
            if result != assertion.assert_value:
                failed.append(f"{label} is {result!r}, expected {assertion.assert_value!r}" + (f" ({assertion.message})" if assertion.message else ""))
        return failed


def _sync(agent_db: Any, user_db: Any) -> None:
    """τ²'s `TelecomEnvironment.sync_tools`, on toolkits over the two given DBs (changed in place)."""
    from tau2.domains.telecom.environment import TelecomEnvironment
    from tau2.domains.telecom.tools import TelecomTools
    from tau2.domains.telecom.user_tools import TelecomUserTools

    TelecomEnvironment.sync_tools(SimpleNamespace(tools=TelecomTools(agent_db), user_tools=TelecomUserTools(user_db)))
