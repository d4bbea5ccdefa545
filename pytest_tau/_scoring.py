"""One item, end to end, without pytest: environment, conversation, verdict."""

from __future__ import annotations

from collections.abc import Sequence

from ._conversation import Agent, Trajectory, User, run_conversation
from ._domain import AnyDomain
from ._environment import Environment, ToolCall
from ._evaluate import Verdict, evaluate
from ._precision import confidential_told, parsed_result
from ._tasks import Action, Task

__all__ = ["broken_rules", "judge", "play"]


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
    told = trajectory.told_text
    return evaluate(
        task,
        domain.gold(task.id).compared,
        domain.canonical_diff(env.state.diff()),
        trajectory.calls,
        told,
        domain.initial_compared,
        unsaid=[*domain.derived_wrong(task.id), *confidential_told(trajectory.calls, domain.confidential, told, domain.confidential_shapes)],
        broken_rules=broken_rules(domain, task, trajectory.calls),
    )


def broken_rules(domain: AnyDomain, task: Task, calls: Sequence[ToolCall]) -> list[str]:
    """The policy's authentication and order rules that these calls broke, where the task's gold
    shows the rule applies (its gold authenticates; its gold calls both tools of an order rule)."""
    gold = [call for call in domain.gold(task.id).calls if not call.error]
    done = [call for call in calls if not call.error]
    broken = []
    authenticating = {name for name, tool in domain.tools.items() if tool.authenticates}
    gold_callers = {token for call in gold if call.name in authenticating and call.actor == "agent" for token in _identity(call.result)}
    if gold_callers:
        first_write = next((i for i, call in enumerate(done) if call.write), len(done))
        if not any(call.name in authenticating and call.actor == "agent" and _identity(call.result) & gold_callers for call in done[:first_write]):
            what = "before the first write" if first_write < len(done) else "at all"
            broken.append(f"the caller was not authenticated {what} ({' or '.join(sorted(authenticating))} finding the customer)")
    gold_names = {call.name for call in gold}
    for first, then in domain.order_rules:
        if first in gold_names and then in gold_names:
            names = [call.name for call in done]
            if then in names and first not in names[: names.index(then)]:
                broken.append(f"{then} before {first} (the policy requires {first} first)")
    return broken


def play(domain: AnyDomain, task: Task, agent: Agent, user: User, *, max_steps: int = 30) -> tuple[Trajectory, Verdict]:
    """Run one conversation on a fresh environment and score it."""
    env = Environment(domain, task=task)
    trajectory = run_conversation(env, agent, user, max_steps=max_steps)
    return trajectory, judge(domain, task, env, trajectory)


def _identity(result: str) -> set[str]:
    """Who an authentication look-up found: the ids in its result (a bare id, or the `..._id` fields
    of the record), so two ways to authenticate (by email, by booking) find the same caller."""
    parsed = parsed_result(result)
    if isinstance(parsed, list) and len(parsed) == 1:
        parsed = parsed[0]
    if isinstance(parsed, dict):
        ids = {value for key, value in parsed.items() if isinstance(value, str) and (key == "id" or key.endswith("_id"))}
        return ids or {result}
    return {str(parsed)}
