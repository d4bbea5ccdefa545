"""The machine checks every domain passes (see DOMAINS.md): pure functions, no pytest.

Each check returns a list of problems (empty when the domain passes it), so tests can
assert on them and `python -m pytest_tau.validate` can print them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson

from ._agents import DoNothingAgent, OracleAgent
from ._domain import Domain
from ._environment import Environment
from ._evaluate import output_told
from ._scoring import play
from ._state import fingerprint
from ._tasks import Action, Task
from ._users import ScriptedUser

__all__ = [
    "CHECKS",
    "DomainStats",
    "check_do_nothing_scores_0",
    "check_gold_actions_succeed",
    "check_mix",
    "check_mutations_score_0",
    "check_oracle_scores_1",
    "check_outputs_in_gold_results",
    "check_tasks_distinct",
    "domain_stats",
    "mutate_value",
    "run_checks",
]

MIN_TASKS = 40
MIN_TOOLS = 12
MIN_POLICY_WORDS = 800


def _writes(domain: Domain, actions: list[Action]) -> list[int]:
    return [i for i, action in enumerate(actions) if domain.tools[action.name].write]


def _reward_problems(domain: Domain, agent: Callable[[Task], Any], expected: float, problem: str) -> list[str]:
    problems = []
    for task in domain.tasks:
        _, verdict = play(domain, task, agent(task), ScriptedUser(task))
        if verdict.reward != expected:
            problems.append(f"{task.id}: {problem}" + (f":\n{verdict.explain()}" if expected == 1.0 else ""))
    return problems


def check_oracle_scores_1(domain: Domain) -> list[str]:
    return _reward_problems(domain, OracleAgent, 1.0, "the oracle scores 0")


def check_do_nothing_scores_0(domain: Domain) -> list[str]:
    return _reward_problems(
        domain, lambda task: DoNothingAgent(), 0.0, "a do-nothing agent scores 1 (add a required output or action)"
    )


def check_gold_actions_succeed(domain: Domain) -> list[str]:
    problems = []
    for task in domain.tasks:
        gold = domain.gold(task.id)
        for index, call in enumerate(gold.calls):
            if call.error:
                problems.append(f"{task.id}: gold action {index} {call.name} fails: {call.result}")
        if _writes(domain, task.gold_actions) and not gold.diff:
            problems.append(f"{task.id}: has gold writes but its gold state equals the initial state")
    return problems


def check_outputs_in_gold_results(domain: Domain) -> list[str]:
    problems = []
    for task in domain.tasks:
        results = "\n".join(call.result for call in domain.gold(task.id).calls)
        for output in task.required_outputs:
            if not output_told(output, results):
                problems.append(f"{task.id}: required output {output!r} is in no gold tool result")
    return problems


def mutate_value(value: Any) -> Any:
    """A different value of the same kind, to prove an argument matters."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return round(value + 1.0, 2)
    if isinstance(value, str):
        return value + "X"
    if isinstance(value, list):
        return value[:-1] if value else ["X"]
    if isinstance(value, dict):
        return {**value, "X": "X"}
    return "X"


def _mutants(domain: Domain, task: Task) -> Iterator[tuple[str, list[Action]]]:
    actions = list(task.gold_actions)
    for index in _writes(domain, actions):
        action = actions[index]
        dropped = actions[:index] + actions[index + 1 :]
        yield f"dropping gold write {index} {action}", dropped
        for arg, value in action.arguments.items():
            changed = Action(name=action.name, arguments={**action.arguments, arg: mutate_value(value)})
            yield f"changing {arg!r} of gold write {index} {action}", actions[:index] + [changed] + actions[index + 1 :]


def _extra_write(domain: Domain, task: Task) -> Action | None:
    """A write from another task that succeeds after this task's gold actions and changes the state."""
    gold = domain.gold(task.id)
    for other in domain.tasks:
        if other.id == task.id:
            continue
        for index in _writes(domain, list(other.gold_actions)):
            candidate = other.gold_actions[index]
            env = Environment(domain)
            for action in task.gold_actions:
                env.call(action.name, dict(action.arguments))
            if not env.call(candidate.name, dict(candidate.arguments)).error and env.state.diff() != gold.diff:
                return candidate
    return None


def check_mutations_score_0(domain: Domain) -> list[str]:
    problems = []
    for task in domain.tasks:
        mutants = list(_mutants(domain, task))
        extra = _extra_write(domain, task)
        if extra is not None:
            mutants.append((f"adding the write {extra}", list(task.gold_actions) + [extra]))
        else:
            problems.append(f"{task.id}: no write from another task succeeds here, so 'one extra write' is untested")
        for label, actions in mutants:
            _, verdict = play(domain, task, OracleAgent(task, actions), ScriptedUser(task))
            if verdict.reward != 0.0:
                problems.append(f"{task.id}: {label} still scores 1")
    return problems


def _normalized(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


def check_tasks_distinct(domain: Domain) -> list[str]:
    problems = []
    seen: dict[str, str] = {}
    seen_actions: dict[bytes, str] = {}
    for task in domain.tasks:
        key = _normalized(task.user.instructions)
        if key in seen:
            problems.append(f"{task.id}: same instructions as {seen[key]}")
        seen[key] = task.id
        signature = orjson.dumps(
            [[a.model_dump() for a in task.gold_actions], task.required_outputs, [a.model_dump() for a in task.forbidden_actions]],
            option=orjson.OPT_SORT_KEYS,
        )
        if signature in seen_actions:
            problems.append(f"{task.id}: same gold actions, outputs and forbidden actions as {seen_actions[signature]}")
        seen_actions[signature] = task.id
    return problems


@dataclass(frozen=True)
class DomainStats:
    tools: int
    write_tools: int
    transfer_tools: int
    tasks: int
    multi_write: int  # 3+ successful gold writes across 2+ tables
    forbidden: int  # asks for something the policy forbids
    outputs: int  # must tell a fact or figure
    policy_words: int
    records: int
    db_bytes: int


def domain_stats(domain: Domain) -> DomainStats:
    multi = 0
    for task in domain.tasks:
        gold = domain.gold(task.id)
        writes = sum(1 for call in gold.calls if call.write and not call.error)
        if writes >= 3 and len(gold.diff) >= 2:
            multi += 1
    initial = domain.initial_db
    return DomainStats(
        tools=len(domain.tools),
        write_tools=sum(t.write for t in domain.tools.values()),
        transfer_tools=sum(t.transfer for t in domain.tools.values()),
        tasks=len(domain.tasks),
        multi_write=multi,
        forbidden=sum(1 for t in domain.tasks if t.forbidden_actions),
        outputs=sum(1 for t in domain.tasks if t.required_outputs),
        policy_words=len(domain.policy.split()),
        records=sum(len(getattr(initial, name)) for name in domain.db_model.model_fields),
        db_bytes=domain.db_path.stat().st_size,
    )


def check_mix(domain: Domain) -> list[str]:
    stats = domain_stats(domain)
    problems = []
    if stats.tools < MIN_TOOLS:
        problems.append(f"{stats.tools} tools; at least {MIN_TOOLS} needed")
    if stats.transfer_tools != 1:
        problems.append("exactly one transfer tool (transfer=True) needed")
    if stats.tasks < MIN_TASKS:
        problems.append(f"{stats.tasks} tasks; at least {MIN_TASKS} needed")
    if stats.multi_write * 4 < stats.tasks:
        problems.append(f"{stats.multi_write}/{stats.tasks} tasks with 3+ writes across 2+ tables; a quarter needed")
    if stats.forbidden * 5 < stats.tasks:
        problems.append(f"{stats.forbidden}/{stats.tasks} tasks with forbidden actions; a fifth needed")
    if stats.outputs * 5 < stats.tasks:
        problems.append(f"{stats.outputs}/{stats.tasks} tasks with required outputs; a fifth needed")
    if stats.policy_words < MIN_POLICY_WORDS:
        problems.append(f"policy has {stats.policy_words} words; at least {MIN_POLICY_WORDS} needed")
    return problems


def check_initial_db_untouched(domain: Domain) -> list[str]:
    """Tools must change records fetched by key, never ones yielded by a scan."""
    before = fingerprint({"db": domain.initial_db.model_dump(mode="json")})
    for task in domain.tasks:
        play(domain, task, OracleAgent(task), ScriptedUser(task))
    after = fingerprint({"db": domain.initial_db.model_dump(mode="json")})
    if before != after:
        return ["a tool changed the shared initial DB: change records fetched by key (db.table[key]), not scanned ones"]
    return []


CHECKS: dict[str, Callable[[Domain], list[str]]] = {
    "oracle_scores_1": check_oracle_scores_1,
    "do_nothing_scores_0": check_do_nothing_scores_0,
    "gold_actions_succeed": check_gold_actions_succeed,
    "outputs_in_gold_results": check_outputs_in_gold_results,
    "mutations_score_0": check_mutations_score_0,
    "tasks_distinct": check_tasks_distinct,
    "initial_db_untouched": check_initial_db_untouched,
    "mix": check_mix,
}


def run_checks(domain: Domain) -> dict[str, list[str]]:
    """Every check's problems, by check name."""
    return {name: check(domain) for name, check in CHECKS.items()}
