"""pytest-tau: a tool-agent-user benchmark in the τ-bench family, as a pytest plugin.

The public API is what domains and users need; everything else is private.
"""

from ._binding import domain_test
from ._conversation import STOP, InfraError, Trajectory, Usage
from ._discovery import discover_domains, load_domain
from ._domain import Domain, DomainError, Gold
from ._environment import Environment, ToolCall
from ._evaluate import Verdict, evaluate
from ._state import Table, fingerprint
from ._tasks import Action, Task, TaskFileError, UserScenario
from ._tools import Tool, ToolError, calculate

__all__ = [
    "STOP",
    "Action",
    "Domain",
    "DomainError",
    "Environment",
    "Gold",
    "InfraError",
    "Table",
    "Task",
    "TaskFileError",
    "Tool",
    "ToolCall",
    "ToolError",
    "Trajectory",
    "Usage",
    "UserScenario",
    "Verdict",
    "calculate",
    "discover_domains",
    "domain_test",
    "evaluate",
    "fingerprint",
    "load_domain",
]
