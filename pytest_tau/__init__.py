"""pytest-tau: a tool-agent-user benchmark in the τ-bench family, as a pytest plugin.

The public API, for three audiences; everything else (every ``_module``) is private.
"""

# Grouped by audience, not alphabetically: the groups are the documentation.
# ruff: noqa: I001, RUF022

# -- domain authors: a domain's DB, tools, tasks and how it is scored ---------------------
from ._authoring import GoldActionFailed, SkipCandidate, TaskDraft, TaskWriter
from ._binding import domain_test
from ._canonical import Confidential, Formatted, FreeText, Unordered, formatted_form
from ._discovery import discover_domains, load_domain
from ._domain import Domain, DomainError, dump_db
from ._environment import Environment, ToolCall, UserTools
from ._evaluate import Verdict
from ._outputs import Kind, Output, output_told
from ._state import Table, fingerprint
from ._tasks import Action, Task, TaskFileError, UserScenario
from ._tools import ToolError, calculate

# -- strategy authors: agents and users as plugins (see docs/writing-a-strategy.md) -------
from ._agents import OracleAgent
from ._conversation import STOP, Agent, AgentStep, InfraError, RequestedCall, Trajectory, Usage, User
from ._settings import Settings
from ._strategies import StrategyContext, StrategyInfo
from ._users import ScriptedUser

# -- plugin and CI authors: the payloads of pytest_tau_item_result / _run_summary ---------
from ._results import ItemResult, RunSummary

__all__ = [
    # domain authors
    "Action",
    "Confidential",
    "Domain",
    "DomainError",
    "Environment",
    "Formatted",
    "FreeText",
    "GoldActionFailed",
    "Kind",
    "Output",
    "SkipCandidate",
    "Table",
    "Task",
    "TaskDraft",
    "TaskFileError",
    "TaskWriter",
    "ToolCall",
    "ToolError",
    "Unordered",
    "UserScenario",
    "Verdict",
    "calculate",
    "discover_domains",
    "domain_test",
    "dump_db",
    "fingerprint",
    "formatted_form",
    "load_domain",
    "output_told",
    # strategy authors
    "STOP",
    "Agent",
    "AgentStep",
    "InfraError",
    "OracleAgent",
    "RequestedCall",
    "ScriptedUser",
    "Settings",
    "StrategyContext",
    "StrategyInfo",
    "Trajectory",
    "Usage",
    "User",
    "UserTools",
    # plugin and CI authors
    "ItemResult",
    "RunSummary",
]
