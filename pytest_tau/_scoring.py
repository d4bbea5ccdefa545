"""One item, end to end, without pytest: environment, conversation, verdict."""

from __future__ import annotations

from ._conversation import Agent, Trajectory, User, run_conversation
from ._domain import Domain
from ._environment import Environment
from ._evaluate import Verdict, evaluate
from ._tasks import Task

__all__ = ["play", "judge"]


def judge(domain: Domain, task: Task, env: Environment, trajectory: Trajectory) -> Verdict:
    """Score a finished conversation against the task's gold outcome."""
    return evaluate(
        task, domain.gold(task.id).diff, env.state.diff(), trajectory.calls, trajectory.told_text, domain.initial_record
    )


def play(domain: Domain, task: Task, agent: Agent, user: User, *, max_steps: int = 30) -> tuple[Trajectory, Verdict]:
    """Run one conversation on a fresh environment and score it."""
    env = Environment(domain)
    trajectory = run_conversation(env, agent, user, max_steps=max_steps)
    return trajectory, judge(domain, task, env, trajectory)
