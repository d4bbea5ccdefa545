"""The machine checks every domain passes (see DOMAINS.md): pure functions, no pytest.

Each check returns a list of problems (empty when the domain passes it), so tests can
assert on them and `python -m pytest_tau.validate` can print them.
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import re
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import orjson
import pydantic

from ._agents import DoNothingAgent, OracleAgent
from ._conversation import AgentStep, RequestedCall, Usage
from ._domain import AnyDomain, DomainError
from ._environment import Environment
from ._invariants import run_invariants, task_text_problems
from ._outputs import Output, infer_kind, near_misses, output_told, spoken
from ._precision import parsed_result, records_with_siblings, right_path_figures, said_values, scalars
from ._scoring import play
from ._state import fingerprint
from ._tasks import Action, Task
from ._users import ScriptedUser

__all__ = [
    "CHECKS",
    "PENDING_CHECKS",
    "DomainStats",
    "TransferAtOnceAgent",
    "check_alternatives_score_1",
    "check_data_invariants",
    "check_declared_order_shows",
    "check_do_nothing_scores_0",
    "check_eager_user_scores_0",
    "check_end_state_shown",
    "check_forbidden_accepted",
    "check_gold_actions_succeed",
    "check_mix",
    "check_mutations_score_0",
    "check_oracle_scores_1",
    "check_outputs_in_gold_results",
    "check_outputs_near_misses",
    "check_outputs_not_given_away",
    "check_over_eager_scores_0",
    "check_tasks_distinct",
    "check_transfer_at_once_scores_0",
    "check_write_order_free",
    "domain_stats",
    "mutate_value",
    "output_given_away",
    "run_checks",
]

MAX_ORDERS = 24  # permutations of the independent gold writes tried per task

MIN_TASKS = 40
MIN_TOOLS = 12
MIN_POLICY_WORDS = 800


def _writes(domain: AnyDomain, actions: list[Action]) -> list[int]:
    return [i for i, action in enumerate(actions) if (tool := domain.tool_for(action)) is not None and tool.write]


def _reward_problems(domain: AnyDomain, agent: Callable[[Task], Any], expected: float, problem: str) -> list[str]:
    problems = []
    for task in domain.tasks:
        _, verdict = play(domain, task, agent(task), ScriptedUser(task))
        if verdict.reward != expected:
            problems.append(f"{task.id}: {problem}" + (f":\n{verdict.explain()}" if expected == 1.0 else ""))
    return problems


def _oracle(task: Task, variant: int) -> OracleAgent:
    return OracleAgent(task, variant=variant)


def check_oracle_scores_1(domain: AnyDomain) -> list[str]:
    problems = []
    for variant in range(3):  # each variant says the outputs another way
        problems += _reward_problems(domain, functools.partial(_oracle, variant=variant), 1.0, f"the oracle (spoken form {variant}) scores 0")
    return problems


class TransferAtOnceAgent:
    """Transfers to a human on its first turn, before authenticating or looking anything up."""

    def __init__(self, domain: AnyDomain) -> None:
        self.name = next(name for name, tool in domain.tools.items() if tool.transfer)
        self.usage = Usage()

    def step(self, messages: list[dict[str, Any]]) -> AgentStep:
        call = RequestedCall(id="transfer_0", name=self.name, arguments={"summary": "The customer needs help."})
        return AgentStep(content="Let me transfer you to a colleague.", tool_calls=[call])


def check_transfer_at_once_scores_0(domain: AnyDomain) -> list[str]:
    if not any(tool.transfer for tool in domain.tools.values()):
        return []
    return _reward_problems(
        domain,
        lambda task: TransferAtOnceAgent(domain),
        0.0,
        "transferring at once scores 1 (require what the policy demands before a transfer: a look-up, an output)",
    )


def check_do_nothing_scores_0(domain: AnyDomain) -> list[str]:
    return _reward_problems(
        domain, lambda task: DoNothingAgent(), 0.0, "a do-nothing agent scores 1 (add a required output or action)"
    )


class EagerUser(ScriptedUser):
    """Dual control: does its whole part of the gold at once, unasked (an over-helpful customer)."""

    def start(self) -> str:
        while self._tools is not None and self._runs:
            for action in self._runs.pop(0):
                self._tools.call(action.name, dict(action.arguments))
        return super().start()


def check_eager_user_scores_0(domain: AnyDomain) -> list[str]:
    """A customer who does their own part unasked must not make a do-nothing agent pass:
    every dual-control task needs the agent too (a write, an output, a required call)."""
    if not domain.dual_control:
        return []
    problems = []
    for task in domain.tasks:
        _, verdict = play(domain, task, DoNothingAgent(), EagerUser(task))
        if verdict.reward != 0.0:
            problems.append(f"{task.id}: a do-nothing agent passes when the customer does their part unasked")
    return problems


def check_gold_actions_succeed(domain: AnyDomain) -> list[str]:
    problems = []
    for task in domain.tasks:
        try:
            gold = domain.gold(task.id)
        except DomainError as exc:  # a gold action that fails: the task cannot be scored
            problems.append(str(exc).removeprefix(f"{domain.name}/"))
            continue
        for index, call in enumerate(gold.calls):  # where the domain allows them (an adapter)
            if call.error:
                problems.append(f"{task.id}: gold action {index} {call.name} fails: {call.result}")
        if _writes(domain, task.gold_actions) and not gold.compared:
            problems.append(f"{task.id}: has gold writes but its gold state equals the initial state")
    return problems


def _readable(result: str) -> str:
    try:
        return json.dumps(orjson.loads(result), ensure_ascii=False)
    except orjson.JSONDecodeError:
        return result


def check_outputs_in_gold_results(domain: AnyDomain) -> list[str]:
    problems = []
    for task in domain.tasks:
        # Spaced JSON, as an agent would read it out ("balance": 368.62), not compact separators.
        results = "\n".join(_readable(call.result) for call in domain.gold(task.id).calls)
        for output in task.required_outputs:
            # A tool states a rate as a bare number ("apr": 8.99); people say "8.99%".
            as_number = Output(value=output.value, kind="number") if output.kind == "percent" else None
            if not output_told(output, results) and not (as_number and output_told(as_number, results)):
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


def _nested_mutations(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    """(path, mutated value) for the value itself and for each element or field inside it."""
    yield path, mutate_value(value)
    if isinstance(value, list):
        for i, item in enumerate(value):
            for sub, changed in _nested_mutations(item, f"{path}[{i}]"):
                yield sub, value[:i] + [changed] + value[i + 1 :]
    elif isinstance(value, dict):
        for key, item in value.items():
            for sub, changed in _nested_mutations(item, f"{path}.{key}"):
                yield sub, {**value, key: changed}


def _mutants(domain: AnyDomain, task: Task) -> Iterator[tuple[str, list[Action]]]:
    actions = list(task.gold_actions)
    for index in _writes(domain, actions):
        action = actions[index]
        dropped = actions[:index] + actions[index + 1 :]
        yield f"dropping gold write {index} {action}", dropped
        free = domain.tool_for(action).free_text  # type: ignore[union-attr]
        for arg, value in action.arguments.items():
            if arg in free:
                continue
            for path, changed_value in _nested_mutations(value, arg):
                changed = action.model_copy(update={"arguments": {**action.arguments, arg: changed_value}})
                yield f"changing {path} of gold write {index} {action}", actions[:index] + [changed] + actions[index + 1 :]


def _extra_write(domain: AnyDomain, task: Task) -> Action | None:
    """A write from another task that succeeds after this task's gold actions and changes the state."""
    gold = domain.gold(task.id)
    for other in domain.tasks:
        if other.id == task.id:
            continue
        for index in _writes(domain, list(other.gold_actions)):
            candidate = other.gold_actions[index]
            env = _replay(domain, list(task.gold_actions), task)
            if not env.call(candidate.name, dict(candidate.arguments), actor=candidate.actor).error and env.state.diff() != gold.diff:
                return candidate
    return None


def check_mutations_score_0(domain: AnyDomain) -> list[str]:
    problems = []
    for task in domain.tasks:
        mutants = list(_mutants(domain, task))
        extra = _extra_write(domain, task)
        if extra is not None:
            mutants.append((f"adding the write {extra}", list(task.gold_actions) + [extra]))
        else:
            problems.append(f"{task.id}: no write from another task succeeds here, so 'one extra write' is untested")
        for label, actions in mutants:
            _, verdict = play(domain, task, OracleAgent(task, actions), ScriptedUser(task, actions))
            if verdict.reward != 0.0:
                problems.append(f"{task.id}: {label} still scores 1")
    return problems


def _replay(domain: AnyDomain, actions: list[Action], task: Task) -> Environment:
    env = Environment(domain, task=task)
    for action in actions:
        env.call(action.name, dict(action.arguments), actor=action.actor)
    return env


def check_forbidden_accepted(domain: AnyDomain) -> list[str]:
    """A forbidden call is one the tool would accept: the policy, not the tool, must stop the agent."""
    problems = []
    for task in domain.tasks:
        for action in task.forbidden_actions:
            tool = domain.tool_for(action)
            assert tool is not None  # task files are checked against the tools at load
            if tool.transfer and "summary" not in action.arguments:  # "never transfer": any summary
                action = Action(name=action.name, arguments={**action.arguments, "summary": "The customer asks for a human."})
            try:
                tool.arguments.model_validate(action.arguments)
            except pydantic.ValidationError:
                problems.append(f"{task.id}: forbidden {action} is not a full call of {action.name}")
                continue
            created = [key for records in domain.gold(task.id).diff.values() for key in records if key not in str(task.user)]
            for label, before in (("on the initial state", []), ("after the gold actions", list(task.gold_actions))):
                call = _replay(domain, before, task).call(action.name, dict(action.arguments), actor=action.actor)
                if call.error and not before and any(key in call.result for key in created):
                    continue  # it names a record the gold actions create: only "after" applies
                if call.error:
                    problems.append(f"{task.id}: forbidden {action} is refused by the tool {label}: {call.result[:200]}")
    return problems


def check_over_eager_scores_0(domain: AnyDomain) -> list[str]:
    """Gold plus every forbidden call must score 0."""
    problems = []
    for task in domain.tasks:
        if not task.forbidden_actions:
            continue
        actions = list(task.gold_actions) + list(task.forbidden_actions)
        _, verdict = play(domain, task, OracleAgent(task, actions), ScriptedUser(task, actions))
        if verdict.reward != 0.0:
            problems.append(f"{task.id}: gold plus the forbidden calls still scores 1")
    return problems


def _orders(writes: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Up to MAX_ORDERS other orders of `writes`: every one when there are few; else each write
    moved to every other place first (the order a rule like "X first" cares about), then the
    rest of the permutations in turn."""
    seen = {writes}
    orders: list[tuple[int, ...]] = []

    def add(order: tuple[int, ...]) -> None:
        if order not in seen and len(orders) < MAX_ORDERS:
            seen.add(order)
            orders.append(order)

    if math.factorial(len(writes)) > MAX_ORDERS + 1:
        for i, write in enumerate(writes):
            rest = writes[:i] + writes[i + 1 :]
            for place in range(len(writes)):
                add(rest[:place] + (write,) + rest[place:])
    for order in itertools.permutations(writes):
        add(order)
    return orders


def _other_orders(domain: AnyDomain, task: Task) -> Iterator[tuple[tuple[int, ...], bool]]:
    """Other orders of the task's gold writes in which every call succeeds (a dependent order,
    create before change, is one no agent could take), each with whether it reaches the gold state."""
    writes = _writes(domain, list(task.gold_actions))
    if len(writes) < 2:
        return
    reads = [a for i, a in enumerate(task.gold_actions) if i not in writes]
    gold = domain.gold(task.id).compared
    for order in _orders(tuple(writes)):
        env = _replay(domain, reads + [task.gold_actions[i] for i in order], task)
        if not any(call.error for call in env.calls):
            yield order, domain.canonical_diff(env.state.diff()) == gold


def check_write_order_free(domain: AnyDomain) -> list[str]:
    """Any order of the gold writes in which every call succeeds reaches the gold state."""
    problems = []
    for task in domain.tasks:
        if task.ordered:
            continue
        for order, same in _other_orders(domain, task):
            if not same:
                problems.append(
                    f"{task.id}: the gold writes in order {list(order)} succeed but reach another state "
                    "(derive new ids from content with Table.new_key, mark unordered lists Unordered, or set ordered and say so)"
                )
                break
    return problems


def check_declared_order_shows(domain: AnyDomain) -> list[str]:
    """A task declared `ordered` can tell its order from another: some other order of its gold
    writes succeeds and reaches another state (or none succeeds), or an agent that breaks the
    order the instruction or policy demands still scores 1."""
    problems = []
    for task in domain.tasks:
        if not task.ordered:
            continue
        outcomes = [same for _, same in _other_orders(domain, task)]
        if outcomes and all(outcomes):
            problems.append(
                f"{task.id}: declared ordered, but every other order of its gold writes reaches the gold state "
                "(record the order in the state, e.g. what a record saw when it was made, or drop ordered)"
            )
    return problems


def check_outputs_near_misses(domain: AnyDomain) -> list[str]:
    """Each output is found when said as people say it, and not when off by a near miss."""
    problems = []
    for task in domain.tasks:
        for output in task.required_outputs:
            for variant in range(4):
                if not output_told(output, f"Sure. {spoken(output, variant)}."):
                    problems.append(f"{task.id}: {output} is not found in its own spoken form {spoken(output, variant)!r}")
            for miss in near_misses(output):
                if output_told(output, miss):
                    problems.append(f"{task.id}: {output} is matched by the near miss {miss!r}")
    return problems


_NUMBERING = re.compile(r"^[ \t>*#-]*(?:\*\*)?(?:rule |section )?\d+(?:\.\d+)*[.)]?(?:\*\*)?(?=\s)", re.IGNORECASE | re.MULTILINE)
_MONEY = re.compile(r"(?:\$\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:k|thousand|million)\b)?|\d[\d,]*(?:\.\d+)?\s?(?:dollars|usd)\b)", re.IGNORECASE)


def _policy_figures(policy: str) -> dict[str, str]:
    """The policy as the give-away check reads it: without its rule and section numbering, and
    for money only the amounts it states as money ("$15", "15 dollars"), not "15 days"."""
    prose = _NUMBERING.sub(" ", policy)
    return {"text": prose, "money": "\n".join(_MONEY.findall(prose))}


@functools.lru_cache(maxsize=64)
def _policy_figures_cached(policy: str) -> dict[str, str]:
    return _policy_figures(policy)


def output_given_away(domain: AnyDomain, output: Output, said: str) -> str | None:
    """Where an output is already said ("the policy", "the customer's words"), or None."""
    policy = _policy_figures_cached(domain.policy)
    if output_told(output, policy.get(output.kind, policy["text"])):
        return "the policy"
    if output_told(output, said):
        return "the customer's instruction or script"
    return None


def check_outputs_not_given_away(domain: AnyDomain) -> list[str]:
    """A required output must be looked up: not a constant of the policy, not in the customer's own words."""
    problems = []
    for task in domain.tasks:
        said = task.user.instructions + "\n" + "\n".join(task.user.script)
        weak = []
        for output in task.required_outputs:
            where = output_given_away(domain, output, said)
            if where:
                weak.append(f"{output} appears in {where}")
        if weak and len(weak) == len(task.required_outputs):
            problems.append(f"{task.id}: every required output is given away: " + "; ".join(weak))
    return problems


def _normalized(text: str) -> str:
    return re.sub(r"\s+", " ", text.strip().lower())


def check_tasks_distinct(domain: AnyDomain) -> list[str]:
    problems = []
    seen: dict[str, str] = {}
    seen_actions: dict[bytes, str] = {}
    for task in domain.tasks:
        key = _normalized(task.user.instructions)
        if key in seen:
            problems.append(f"{task.id}: same instructions as {seen[key]}")
        seen[key] = task.id
        signature = orjson.dumps(
            [
                [a.model_dump() for a in task.gold_actions],
                [o.model_dump() for o in task.required_outputs],
                [a.model_dump() for a in task.forbidden_actions],
            ],
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


def domain_stats(domain: AnyDomain) -> DomainStats:
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


def check_mix(domain: AnyDomain) -> list[str]:
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


def check_initial_db_untouched(domain: AnyDomain) -> list[str]:
    """Tools must change records fetched by key, never ones yielded by a scan."""
    def dumped() -> str:
        user = domain.initial_user_db
        return fingerprint({"db": domain.initial_db.model_dump(mode="json"), "user": {} if user is None else user.model_dump(mode="json")})

    before = dumped()
    for task in domain.tasks:
        play(domain, task, OracleAgent(task), ScriptedUser(task))
    after = dumped()
    if before != after:
        return ["a tool changed the shared initial DB: change records fetched by key (db.table[key]), not scanned ones"]
    return []


def check_data_invariants(domain: AnyDomain) -> list[str]:
    """The invariants the domain declares (`DOMAIN.invariants(...)`, `@DOMAIN.invariant`) hold on its DB,
    and the tasks' text is free of typos ("Inc..")."""
    return run_invariants(domain.data_invariants, domain.initial_db, domain.now) + task_text_problems(domain.tasks)




# --------------------------------------------------------------------------- precision of what is said


def _results(domain: AnyDomain, task: Task, actions: list[Action]) -> list[Any]:
    """The parsed results of `actions` replayed on a fresh environment (successful calls only)."""
    env = _replay(domain, actions, task)
    return [parsed_result(call.result) for call in env.calls if not call.error]


def verbose_oracle(domain: AnyDomain, task: Task) -> OracleAgent:
    """The gold, then the outputs with the right path's figures: what an agent that explains itself says."""
    gold = domain.gold(task.id)
    figures = right_path_figures(task.required_outputs, gold.calls, domain.confidential)
    outputs = "; ".join(spoken(output, 1) for output in task.required_outputs)
    say = "Here is how it works out. " + "\n".join(figures) + (f"\nSo: {outputs}." if outputs else "\nAll done.")
    return OracleAgent(task, say=say)


def _read_tools(domain: AnyDomain) -> dict[str, Any]:
    return {name: tool for name, tool in domain.tools.items() if not tool.write and not tool.transfer and name != "calculate"}


def harvested_reads(domain: AnyDomain, task: Task, rounds: int = 2, per_tool: int = 4) -> list[Action]:
    """Every read tool called on the entities the task names (its gold arguments), then on the ids
    the results show: what an agent that looks up everything it can, without knowing which look-up
    the task needs, would do."""
    return _harvest(domain, task, rounds, per_tool)[0]


def _harvest(domain: AnyDomain, task: Task, rounds: int = 2, per_tool: int = 4) -> tuple[list[Action], Environment]:
    """The harvested reads, and the environment they ran in, one round after another (reads
    change nothing, so a round's results are what a fresh environment would give)."""
    env = Environment(domain, task=task)
    pool: dict[str, list[Any]] = {}

    def add(name: str, value: Any) -> None:
        if isinstance(value, (str, int)) and not isinstance(value, bool) and value not in pool.setdefault(name, []) and len(pool[name]) < 6:
            pool[name].append(value)

    for action in task.gold_actions:
        for name, value in action.arguments.items():
            add(name, value)
    reads = _read_tools(domain)
    params = {name: tool.arguments.model_fields for name, tool in reads.items()}
    wanted = {param for fields in params.values() for param in fields}
    actions: list[Action] = []
    seen: set[str] = set()
    for _ in range(rounds):
        new: list[Action] = []
        for name, fields in params.items():
            required = [param for param, info in fields.items() if info.is_required()]
            if not required or not all(pool.get(param) for param in required):
                continue
            for values in itertools.islice(itertools.product(*(pool[param] for param in required)), per_tool):
                action = Action(name=name, arguments=dict(zip(required, values, strict=True)))
                key = orjson.dumps(action.model_dump(), option=orjson.OPT_SORT_KEYS).decode()
                if key not in seen:
                    seen.add(key)
                    new.append(action)
        if not new:
            break
        actions += new
        done = len(env.calls)
        for action in new:
            env.call(action.name, dict(action.arguments), actor=action.actor)
        for call in env.calls[done:]:
            if call.error:
                continue
            for field_name, value in scalars(parsed_result(call.result)):
                if field_name in wanted:
                    add(field_name, value)
    return actions, env


def spray_agents(domain: AnyDomain, task: Task) -> Iterator[tuple[str, OracleAgent, list[Action]]]:
    """(label, agent, actions) of the three spraying agents: each does the gold writes and tells
    every value of every tool result it saw."""
    gold = list(task.gold_actions)
    writes = [gold[i] for i in _writes(domain, gold)]
    # The gold's results are the domain's cached replay of it: no need to replay it again.
    gold_results = [parsed_result(call.result) for call in domain.gold(task.id).calls if not call.error]
    yield "gold actions, then every value of every result", OracleAgent(task, gold, say=said_values(gold_results)), gold
    reads, env = _harvest(domain, task)
    for action in gold:  # after the reads, in the environment they ran in
        env.call(action.name, dict(action.arguments), actor=action.actor)
    harvested_results = [parsed_result(call.result) for call in env.calls if not call.error]
    harvested = reads + gold
    yield "every look-up on the task's entities, then every value", OracleAgent(task, harvested, say=said_values(harvested_results)), harvested
    yield "the gold writes with no look-up, then every value", OracleAgent(task, writes, say=said_values(_results(domain, task, writes))), writes


def check_spray_scores_0(domain: AnyDomain) -> list[str]:
    """An agent that tells every value it saw does not pass: a confidential field, a sibling
    record's figure or a declared wrong value is among them, or the rules it skipped fail it."""
    problems = []
    for task in domain.tasks:
        for label, agent, actions in spray_agents(domain, task):
            _, verdict = play(domain, task, agent, ScriptedUser(task, actions))
            if verdict.reward != 0.0:
                problems.append(
                    f"{task.id}: a spray agent ({label}) scores 1 (mark internal fields Confidential and keep them in the "
                    "records the gold reads, declare wrong_outputs, or require authentication)"
                )
                break
    return problems


def check_verbose_oracle_scores_1(domain: AnyDomain) -> list[str]:
    """An agent that states the right path's figures along with the answers still passes."""
    problems = []
    for task in domain.tasks:
        _, verdict = play(domain, task, verbose_oracle(domain, task), ScriptedUser(task))
        if verdict.reward != 1.0:
            problems.append(f"{task.id}: the verbose oracle scores 0:\n{verdict.explain()}")
    return problems


# --------------------------------------------------------------------------- authentication and order


def _authenticating(domain: AnyDomain) -> set[str]:
    return {name for name, tool in domain.tools.items() if tool.authenticates}


def check_unauthenticated_writes_score_0(domain: AnyDomain) -> list[str]:
    """Every task whose agent writes authenticates the caller first in its gold (so an agent that
    writes without authenticating scores 0), and dropping that look-up scores 0."""
    authenticating = _authenticating(domain)
    if not authenticating:
        return ["no tool is declared @DOMAIN.tool(authenticates=True): mark the look-ups that identify the caller"]
    problems = []
    for task in domain.tasks:
        gold = list(task.gold_actions)
        writes = [i for i in _writes(domain, gold) if gold[i].actor == "agent"]
        if not writes:
            continue
        auth = [i for i, action in enumerate(gold) if action.name in authenticating and action.actor == "agent"]
        if not auth or auth[0] > writes[0]:
            problems.append(f"{task.id}: the gold writes without authenticating the caller first ({' or '.join(sorted(authenticating))})")
            continue
        without = [action for i, action in enumerate(gold) if i not in auth]
        _, verdict = play(domain, task, OracleAgent(task, without), ScriptedUser(task, without))
        if verdict.reward != 0.0:
            problems.append(f"{task.id}: the gold writes without the authentication look-up still score 1")
    return problems


def check_policy_orders_score_0(domain: AnyDomain) -> list[str]:
    """Every order the policy forbids scores 0: where the domain declares order rules
    (`DOMAIN.order(first, then)`) that the task's gold calls, each order of its gold writes that
    breaks one; for any other task declared `ordered`, every other order of its gold writes."""
    problems = []
    rules = domain.order_rules
    for task in domain.tasks:
        names = {action.name for action in task.gold_actions}
        ruled = [(first, then) for first, then in rules if first in names and then in names]
        if not task.ordered and not ruled:
            continue
        writes = _writes(domain, list(task.gold_actions))
        reads = [a for i, a in enumerate(task.gold_actions) if i not in writes]
        for order, _ in _other_orders(domain, task):
            actions = reads + [task.gold_actions[i] for i in order]
            if ruled and not _breaks(ruled, [action.name for action in actions]):
                continue  # an order the policy allows: write_order_free's business
            _, verdict = play(domain, task, OracleAgent(task, actions), ScriptedUser(task, actions))
            if verdict.reward != 0.0:
                problems.append(
                    f"{task.id}: the gold writes in order {list(order)} still score 1 (record the order in the state, "
                    "declare the policy's rule with DOMAIN.order(first, then), or drop ordered)"
                )
                break
    return problems


def _breaks(rules: list[tuple[str, str]], names: list[str]) -> bool:
    return any(then in names and first not in names[: names.index(then)] for first, then in rules)


# --------------------------------------------------------------------------- one end state, shown


def check_alternatives_score_1(domain: AnyDomain) -> list[str]:
    """Every other path a task declares a policy-following agent may take scores 1 (with the
    gold's outputs told, or what the alternative says instead)."""
    problems = []
    for task in domain.tasks:
        for index, alternative in enumerate(task.alternatives):
            if list(alternative.actions) == list(task.gold_actions) and alternative.say is None:
                problems.append(f"{task.id}: alternative {index} is the gold itself")
                continue
            agent = OracleAgent(task, alternative.actions, say=alternative.say)
            _, verdict = play(domain, task, agent, ScriptedUser(task, alternative.actions))
            if verdict.reward != 1.0:
                problems.append(f"{task.id}: alternative {index} ({alternative.why}) scores 0:\n{verdict.explain()}")
    return problems


def _offered(result: Any) -> set[str]:
    """The values a record of a result holds where another record of its list holds another:
    what a look-up put before the agent to choose from."""
    return {
        value
        for record, siblings in records_with_siblings(result)
        for key, value in record.items()
        if isinstance(value, str) and any(isinstance(other.get(key), str) and other[key] != value for other in siblings)
    }


def chosen_records(domain: AnyDomain, task: Task) -> list[str]:
    """The ids a gold write of the agent picked among several a gold look-up returned, where the
    customer's own words do not name them: the task's choices between records."""
    said = task.user.instructions + "\n" + "\n".join(task.user.script)
    writes = set(_writes(domain, list(task.gold_actions)))
    offered: set[str] = set()
    chosen: list[str] = []
    for index, (action, call) in enumerate(zip(task.gold_actions, domain.gold(task.id).calls, strict=True)):
        if index not in writes:
            if not call.error:
                offered |= _offered(parsed_result(call.result))
            continue
        if action.actor != "agent":
            continue
        for value in action.arguments.values():
            for item in value if isinstance(value, list) else [value]:
                if isinstance(item, str) and item not in said and item in offered:
                    chosen.append(item)
    return list(dict.fromkeys(chosen))


def check_end_state_shown(domain: AnyDomain) -> list[str]:
    """Every refusal (a task with forbidden calls) and every choice between records (a gold write
    picks one of several records a look-up returned) shows its one end state: an alternative
    path that scores 1 (`TaskDraft.alternative`) or the policy's reason there is no other
    (`TaskDraft.one_end_state`)."""
    problems = []
    for task in domain.tasks:
        if task.alternatives or task.end_state:
            continue
        kinds = []
        if task.forbidden_actions:
            kinds.append("a refusal")
        chosen = chosen_records(domain, task)
        if chosen:
            kinds.append(f"a choice of {', '.join(chosen[:3])} among records a look-up returned")
        if kinds:
            problems.append(
                f"{task.id}: {' and '.join(kinds)} without an alternative path or the reason for its one end state "
                "(draft.alternative(...) or draft.one_end_state(...) in the task builder)"
            )
    return problems


# --------------------------------------------------------------------------- every write argument graded


def _literal_choices(annotation: Any) -> list[Any]:
    origin = typing.get_origin(annotation)
    if origin is typing.Literal:
        return list(typing.get_args(annotation))
    choices: list[Any] = []
    for arg in typing.get_args(annotation):
        choices += _literal_choices(arg)
    return choices


@functools.lru_cache(maxsize=64)
def _key_tables(domain: AnyDomain) -> dict[str, str]:
    """Every key of every table of the initial DB -> its table."""
    tables: dict[str, str] = {}
    for name in domain.db_model.model_fields:
        for key in getattr(domain.initial_db, name):
            tables.setdefault(key, name)
    return tables


@functools.lru_cache(maxsize=64)
def _argument_values(domain: AnyDomain) -> dict[tuple[str, str], list[Any]]:
    """(tool, argument) -> the values the gold of every task passes it: other valid values."""
    values: dict[tuple[str, str], list[Any]] = {}
    for task in domain.tasks:
        for action in task.gold_actions:
            for arg, value in action.arguments.items():
                if isinstance(value, (str, int, float)) and value not in values.setdefault((action.name, arg), []):
                    values[(action.name, arg)].append(value)
    return values


def _alternatives(domain: AnyDomain, tool_name: str, arg: str, value: Any, annotation: Any) -> list[Any]:
    """Other valid values of an argument: its other literal choices, another record of the same
    table, the values other tasks' gold passes it, the other truth value, the next number."""
    found: list[Any] = []
    if isinstance(value, bool):
        return [not value]
    found += [choice for choice in _literal_choices(annotation) if choice != value][:2]
    if isinstance(value, str):
        table = _key_tables(domain).get(value)
        if table is not None:
            keys = sorted(getattr(domain.initial_db, table))
            index = keys.index(value)
            found += [keys[(index + 1) % len(keys)]] if len(keys) > 1 else []
    found += [other for other in _argument_values(domain).get((tool_name, arg), []) if other != value and type(other) is type(value)][:2]
    if isinstance(value, int):
        found.append(value + 1)
    elif isinstance(value, float):
        found.append(round(value + 1.0, 2))
    return list(dict.fromkeys(found))


def _valid_mutations(domain: AnyDomain, tool_name: str, arg: str, value: Any, annotation: Any, path: str) -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            for sub, changed in _valid_mutations(domain, tool_name, f"{arg}.{key}", item, Any, f"{path}.{key}"):
                yield sub, {**value, key: changed}
    elif isinstance(value, list):
        for i, item in enumerate(value):
            for sub, changed in _valid_mutations(domain, tool_name, f"{arg}[]", item, Any, f"{path}[{i}]"):
                yield sub, value[:i] + [changed] + value[i + 1 :]
    else:
        for other in _alternatives(domain, tool_name, arg, value, annotation):
            yield f"{path}={other!r}", other


def check_write_arguments_graded(domain: AnyDomain) -> list[str]:
    """Changing any argument of any gold write to another valid value (another literal choice,
    another record of the same table, a value other tasks use) changes the verdict, unless the
    argument is free text: an argument the policy has a rule about reaches the state."""
    problems = []
    for task in domain.tasks:
        actions = list(task.gold_actions)
        for index in _writes(domain, actions):
            action = actions[index]
            tool = domain.tool_for(action)
            assert tool is not None
            fields = tool.arguments.model_fields
            for arg, value in action.arguments.items():
                if arg in tool.free_text:
                    continue
                annotation = fields[arg].annotation if arg in fields else Any
                for label, changed_value in _valid_mutations(domain, action.name, arg, value, annotation, arg):
                    changed = action.model_copy(update={"arguments": {**action.arguments, arg: changed_value}})
                    mutated = actions[:index] + [changed] + actions[index + 1 :]
                    _, verdict = play(domain, task, OracleAgent(task, mutated), ScriptedUser(task, mutated))
                    if verdict.reward != 0.0:
                        problems.append(
                            f"{task.id}: {action.name} with {label} still scores 1 (store the argument, or type it FreeText if it is someone's own words)"
                        )
                        break
    return problems


# --------------------------------------------------------------------------- the customer can answer


_AFFIRMATIVE = re.compile(r"\b(?:yes|yeah|yep|confirm(?:ed)?|go ahead|please do|do it|proceed|that's right|correct|sure|sounds good|ok(?:ay)?)\b", re.IGNORECASE)
_CONFIRMATION_RULE = re.compile(r"explicit[^.\n]{0,60}(?:confirm|yes|consent|agree)|(?:confirm|consent)[^.\n]{0,60}explicit", re.IGNORECASE)


def _needed_values(domain: AnyDomain, task: Task) -> list[tuple[str, Any]]:
    """(argument path, value) of the agent's gold calls that no earlier gold result shows: what
    the agent must get from the customer."""
    gold = domain.gold(task.id)
    seen = ""
    needed: list[tuple[str, Any]] = []
    for action, call in zip(task.gold_actions, gold.calls, strict=True):
        tool = domain.tool_for(action)
        if action.actor == "agent" and tool is not None and not tool.transfer and action.name != "calculate":
            choices = {name: _literal_choices(info.annotation) for name, info in tool.arguments.model_fields.items()}
            for arg, value in action.arguments.items():
                if arg in tool.free_text:
                    continue
                for path, item in _leaf_values(value, arg):
                    # Credentials and identifiers: strings, not the figures and dates an agent works
                    # out; but every credential a caller authenticates with, digits and dates too.
                    worked_out = not isinstance(item, str) or bool(_WORKED_OUT.fullmatch(item))
                    if item in choices.get(arg, ()) or (worked_out and not tool.authenticates):
                        continue
                    if not _shown(item, seen) and not _shown(item, domain.policy):
                        needed.append((f"{action.name}.{path}", item))
        seen += "\n" + _readable(call.result)
    return needed


_WORKED_OUT = re.compile(r"[-+$\d.,:T Z/]*")  # numbers, dates, times: computed as often as asked


def _leaf_values(value: Any, path: str) -> Iterator[tuple[str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaf_values(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _leaf_values(item, f"{path}[{i}]")
    else:
        yield path, value


def _shown(value: Any, text: str) -> bool:
    """Is this value in `text` (a tool result, the customer's lines) as a person would read it?"""
    if isinstance(value, str):
        folded = " ".join(value.split()).casefold()
        if folded in " ".join(text.split()).casefold():
            return True
        kind = infer_kind(value)
        if kind in ("date", "time", "phone", "code", "money"):
            return output_told(Output(value=value, kind=kind), text)
        return False
    if isinstance(value, (int, float)):
        try:
            return output_told(Output(value=str(value), kind="number"), text)
        except ValueError:
            return False
    return False


def check_script_answers(domain: AnyDomain) -> list[str]:
    """The scripted customer's lines hold every value the agent's gold calls use that no earlier
    tool result shows (credentials, identifiers, the new values asked for), and, where the policy
    requires explicit confirmation before a change, a line that gives it."""
    problems = []
    confirm = bool(_CONFIRMATION_RULE.search(domain.policy))
    for task in domain.tasks:
        lines = task.user.script
        said = "\n".join(lines)
        missing = [f"{path}={value!r}" for path, value in _needed_values(domain, task) if not _shown(value, said)]
        if missing:
            problems.append(f"{task.id}: the scripted customer never says " + ", ".join(dict.fromkeys(missing)))
        writes = [i for i in _writes(domain, list(task.gold_actions)) if task.gold_actions[i].actor == "agent"]
        if confirm and writes and not any(_AFFIRMATIVE.search(line) for line in lines[1:]):
            problems.append(f"{task.id}: the policy requires explicit confirmation before a change, and no scripted line after the first gives it")
    return problems


# --------------------------------------------------------------------------- strings a person formats


_ABBREVIATIONS = (
    ("Corporation", "Corp."), ("Corp.", "Corp"), ("Incorporated", "Inc."), ("Inc.", "Inc"), ("Company", "Co."),
    ("Street", "St."), ("Avenue", "Ave"), ("Road", "Rd"), ("Boulevard", "Blvd"), ("Suite", "Ste"),
    (" and ", " & "), (" v. ", " vs "), (" vs. ", " v "), ("Limited", "Ltd"), ("Department", "Dept"),
)
_VERSION_ARG = re.compile(r"v?\d+(?:\.\d+)+", re.IGNORECASE)


def rewrites(value: str) -> list[str]:
    """The ways a person would write the same string: case, punctuation, abbreviations, a "v" prefix."""
    # A version keeps its dots: a person writes "v3.5.0" or "3.5.0", never "350".
    unpunctuated = value if _VERSION_ARG.fullmatch(value) else re.sub(r"(?<=[^\W\d_])[.,]", "", value)
    forms = [value.lower(), value.upper(), value.title(), unpunctuated, " ".join(value.split()) + " "]
    for long, short in _ABBREVIATIONS:
        if long in value:
            forms.append(value.replace(long, short))
        elif short in value and not short.startswith(" "):
            forms.append(value.replace(short, long))
    if _VERSION_ARG.fullmatch(value):
        forms.append(value[1:] if value[:1] in "vV" else "v" + value)
    return [form for form in dict.fromkeys(forms) if form != value]


def _formatted_arguments(domain: AnyDomain, action: Action) -> Iterator[tuple[str, str]]:
    """(argument, value) of a write's plain string arguments a person formats: not free text, not
    a literal choice, not a record's key, not an email or a code."""
    tool = domain.tool_for(action)
    assert tool is not None
    for arg, value in action.arguments.items():
        if arg in tool.free_text or not isinstance(value, str) or not value.strip():
            continue
        info = tool.arguments.model_fields.get(arg)
        if info is not None and _literal_choices(info.annotation):
            continue
        if _VERSION_ARG.fullmatch(value):
            yield arg, value
            continue
        # An identifier is typed, not formatted: a record's key, an email, a URL, a code, snake_case.
        identifier = value in _key_tables(domain) or "@" in value or "://" in value or "_" in value
        if identifier or infer_kind(value) in ("code", "date", "time", "phone", "money", "number", "percent"):
            continue
        if " " in value.strip() or (value[:1].isupper() and value.isalpha()):
            yield arg, value  # words: a title, an address, a name


def check_formatted_strings_free(domain: AnyDomain) -> list[str]:
    """Rewriting a formatted string argument of a gold write the ways a person would keeps the
    verdict 1: the state compares such strings canonically (mark the field Formatted) or as free text."""
    problems = []
    for task in domain.tasks:
        actions = list(task.gold_actions)
        for index in _writes(domain, actions):
            action = actions[index]
            for arg, value in _formatted_arguments(domain, action):
                for form in rewrites(value):
                    changed = action.model_copy(update={"arguments": {**action.arguments, arg: form}})
                    mutated = actions[:index] + [changed] + actions[index + 1 :]
                    _, verdict = play(domain, task, OracleAgent(task, mutated), ScriptedUser(task, mutated))
                    if verdict.reward != 1.0:
                        problems.append(f"{task.id}: {action.name} with {arg}={form!r} (for {value!r}) scores 0")
                        break
    return problems


CHECKS: dict[str, Callable[[AnyDomain], list[str]]] = {
    "oracle_scores_1": check_oracle_scores_1,
    "do_nothing_scores_0": check_do_nothing_scores_0,
    "eager_user_scores_0": check_eager_user_scores_0,
    "transfer_at_once_scores_0": check_transfer_at_once_scores_0,
    "gold_actions_succeed": check_gold_actions_succeed,
    "outputs_in_gold_results": check_outputs_in_gold_results,
    "outputs_near_misses": check_outputs_near_misses,
    "outputs_not_given_away": check_outputs_not_given_away,
    "mutations_score_0": check_mutations_score_0,
    "forbidden_accepted": check_forbidden_accepted,
    "over_eager_scores_0": check_over_eager_scores_0,
    "write_order_free": check_write_order_free,
    "declared_order_shows": check_declared_order_shows,
    "tasks_distinct": check_tasks_distinct,
    "initial_db_untouched": check_initial_db_untouched,
    "unauthenticated_writes_score_0": check_unauthenticated_writes_score_0,
    "verbose_oracle_scores_1": check_verbose_oracle_scores_1,
    "write_arguments_graded": check_write_arguments_graded,
    "mix": check_mix,
    "data_invariants": check_data_invariants,
    "spray_scores_0": check_spray_scores_0,
    "alternatives_score_1": check_alternatives_score_1,
    "end_state_shown": check_end_state_shown,
    "policy_orders_score_0": check_policy_orders_score_0,
    "script_answers": check_script_answers,
    "formatted_strings_free": check_formatted_strings_free,
}

# Checks every domain does not pass yet: `validate --check NAME` (or `--pending`) runs them; each joins
# CHECKS once all domains pass it.
PENDING_CHECKS: dict[str, Callable[[AnyDomain], list[str]]] = {}


def run_checks(domain: AnyDomain) -> dict[str, list[str]]:
    """Every check's problems, by check name (a task whose gold fails is reported by
    gold_actions_succeed; a check that needs its gold says it could not run)."""
    problems = {}
    for name, check in CHECKS.items():
        try:
            problems[name] = check(domain)
        except DomainError as exc:
            problems[name] = [f"not checked: {exc}"]
    return problems
