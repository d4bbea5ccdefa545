"""One item, end to end, without pytest: environment, conversation, verdict."""

from __future__ import annotations

from ._conversation import Agent, Trajectory, User, run_conversation
from ._domain import AnyDomain
from ._environment import Environment
from ._evaluate import Verdict, evaluate
from ._tasks import Action, Task

__all__ = ["judge", "play"]


def _without_free_text(domain: AnyDomain, actions: list[Action]) -> list[Action]:
    """A forbidden call is the call, whatever words the agent chose for its free-text arguments."""
    out = []
    for action in actions:
        tool = domain.tool_for(action)
        free = tool.free_text if tool is not None else frozenset()
        kept = {k: v for k, v in action.arguments.items() if k not in free}
        out.append(action.model_copy(update={"arguments": kept}) if free else action)
    return out


def judge(domain: AnyDomain, task: Task, env: Environment, trajectory: Trajectory) -> Verdict:
    """Score a finished conversation against the task's gold outcome."""
    own = domain.judge(task, env, trajectory)
    if own is not None:
        return own
    if any((tool := domain.tool_for(a)) is not None and tool.free_text & a.arguments.keys() for a in task.forbidden_actions):
        task = task.model_copy(update={"forbidden_actions": _without_free_text(domain, task.forbidden_actions)})
    return evaluate(
        task,
        domain.gold(task.id).compared,
        domain.canonical_diff(env.state.diff()),
        trajectory.calls,
        trajectory.told_text,
        domain.initial_compared,
    )


def play(domain: AnyDomain, task: Task, agent: Agent, user: User, *, max_steps: int = 30) -> tuple[Trajectory, Verdict]:
    """Run one conversation on a fresh environment and score it."""
    env = Environment(domain, task=task)
    trajectory = run_conversation(env, agent, user, max_steps=max_steps)
    return trajectory, judge(domain, task, env, trajectory)
