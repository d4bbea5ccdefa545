"""Writing a domain's tasks: a builder that replays gold actions as it goes.

    writer = TaskWriter(DOMAIN)                      # in tests_domains/<name>/make_tasks.py
    draft = writer.task("cancel_pending_1", instructions="You are Mia Garcia ...",
                        script=["Hi, I'd like to cancel an order."])
    user = draft.read("find_user_id_by_email", email="mia@example.com")
    order = draft.write("cancel_pending_order", order_id="#W1", reason="no longer needed")
    draft.output(order["refund"], "money")            # the figure comes out of the tool result
    draft.forbid("return_delivered_order_items", order_id="#W2", item_ids=["1"], payment_method_id="pp_1")
    writer.save()                                      # fixtures/<name>/tasks.json, byte-stable

Every gold call runs on the draft's own environment as it is added, so a failing gold
action fails the generator at once (with the task id), and every figure a task states is
read from what the tools returned, never computed a second time by the generator.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from ._environment import Environment
from ._outputs import Kind, Output, infer_kind
from ._tasks import Action, Alternative, Task, TaskFile

if TYPE_CHECKING:
    from ._domain import Domain

__all__ = ["GoldActionFailed", "SkipCandidate", "TaskDraft", "TaskWriter", "dump_tasks"]


class GoldActionFailed(Exception):
    """A gold action of a task being written returned an error."""


class SkipCandidate(Exception):
    """Raised inside `TaskWriter.attempt()` to drop a candidate that does not fit."""


def _parse(result: str) -> Any:
    try:
        return orjson.loads(result)
    except orjson.JSONDecodeError:
        return result


_DOUBLED_PERIOD = re.compile(r"(?<=\w)\.\.(?!\.)")


def _tidy(text: str) -> str:
    """A sentence that ends on an abbreviation ("... Storage Inc." + ".") keeps one period, as a person types it."""
    return _DOUBLED_PERIOD.sub(".", text)


def _as_output(value: Any, kind: Kind | None) -> Output:
    """A value as a tool returned it, as an output of `kind` (inferred when not given)."""
    if isinstance(value, float):
        text = f"{value:.2f}" if kind in (None, "money") else f"{value:g}"
    else:
        text = str(value)
    return Output(value=text, kind=kind or infer_kind(text))


class TaskDraft:
    """One task being written: gold calls replayed on a fresh environment, outputs, forbids."""

    def __init__(self, domain: Domain[Any], task_id: str, *, split: str, instructions: str, script: list[str], ordered: bool) -> None:
        self.domain = domain
        self.id = task_id
        self.split = split
        self.instructions = instructions
        self.script = list(script)
        self.ordered = ordered
        self.env = Environment(domain)
        self.gold: list[Action] = []
        self.outputs: list[Output] = []
        self.wrong: list[Output] = []
        self.required: list[Action] = []
        self.forbidden: list[Action] = []
        self.alternatives: list[Alternative] = []
        self.end_state: str | None = None

    def _action(self, name: str, arguments: dict[str, Any]) -> Action:
        """An action on whichever side has the tool: user tools share the agent's namespace."""
        return Action(name=name, arguments=arguments, actor="user" if name in self.domain.user_tools else "agent")

    def _call(self, name: str, arguments: dict[str, Any]) -> Any:
        action = self._action(name, arguments)
        if self.domain.tool_for(action) is None:
            raise GoldActionFailed(f"task {self.id!r}: unknown tool {name!r}")
        call = self.env.call(name, arguments, actor=action.actor)
        if call.error:
            raise GoldActionFailed(f"task {self.id!r}: gold action {name}({arguments}) failed: {call.result}")
        self.gold.append(action)
        return _parse(call.result)

    def _is_write(self, name: str) -> bool | None:
        tool = self.domain.tools.get(name) or self.domain.user_tools.get(name)
        return None if tool is None else tool.write

    def read(self, name: str, /, **arguments: Any) -> Any:
        """A gold look-up: runs now, returns the tool's result (parsed JSON, or the text).
        A user tool's name makes it the customer's step (dual control), in gold order."""
        if self._is_write(name):
            raise GoldActionFailed(f"task {self.id!r}: {name} is a write tool; use write()")
        return self._call(name, arguments)

    def write(self, name: str, /, **arguments: Any) -> Any:
        """A gold write: runs now on the task's environment, returns the tool's result.
        A user tool's name makes it the customer's step (dual control), in gold order."""
        if self._is_write(name) is False:
            raise GoldActionFailed(f"task {self.id!r}: {name} is a read tool; use read()")
        return self._call(name, arguments)

    def transfer(self, summary: str, *, required: bool = True) -> None:
        """A gold transfer to a human; by default the agent must make it (any summary)."""
        name = next(n for n, tool in self.domain.tools.items() if tool.transfer)
        self._call(name, {"summary": summary})
        if required:
            self.required.append(Action(name=name))

    def output(self, value: Any, kind: Kind | None = None, *, strict: bool = False) -> None:
        """A fact or figure the agent must tell; pass the value as a tool returned it.
        `strict=True` raises `SkipCandidate` when the policy or the customer already says it."""
        output = _as_output(value, kind)
        if strict and self.given_away(output):
            raise SkipCandidate(f"task {self.id!r}: {output} is in the policy or the customer's words")
        self.outputs.append(output)

    def wrong_output(self, value: Any, kind: Kind | None = None) -> None:
        """A figure of the same quantity that a wrong path gives (the balance before the fee, the
        balance before a refund lands): telling it scores 0. Never one of the right path's figures
        (`verbose_oracle_scores_1` checks it)."""
        self.wrong.append(_as_output(value, kind))

    def given_away(self, output: Output) -> bool:
        """Is this output a constant of the policy or in the customer's own words (so not a finding)?"""
        from ._validity import output_given_away

        return output_given_away(self.domain, output, self.instructions + "\n" + "\n".join(self.script)) is not None

    def require(self, name: str, /, **arguments: Any) -> None:
        """A call the agent must make (with at least these argument values); a user tool's
        name: a step the agent must get the customer to take."""
        self.required.append(self._action(name, arguments))

    def require_any(self, calls: list[tuple[str, dict[str, Any]]]) -> None:
        """A call the agent must make, where the policy allows several (a dataset found by its exact
        name or by a search): any one of `calls` meets it."""
        first, *others = [self._action(name, arguments) for name, arguments in calls]
        self.required.append(first.model_copy(update={"instead": others}))

    def forbid(self, name: str, /, **arguments: Any) -> None:
        """A full call the agent must not make: what the customer asks and the policy forbids;
        a user tool's name: a step the agent must not get the customer to take."""
        self.forbidden.append(self._action(name, arguments))

    def alternative(self, why: str, steps: list[tuple[str, dict[str, Any]]], *, say: str | None = None) -> None:
        """Another complete path a policy-following agent may take, from the start: reads, writes
        and the customer's steps (by their tool's name), in order. `why` cites the policy's rule;
        `say` is what that agent tells, when it tells another right answer than the gold's outputs.
        The check `alternatives_score_1` replays it and requires it to score 1."""
        self.alternatives.append(Alternative(why=why, actions=[self._action(name, arguments) for name, arguments in steps], say=say))

    def one_end_state(self, why: str) -> None:
        """Why every policy-following agent ends in the gold's state and tells its outputs (the
        rules that make a refusal's reason, a choice of record or a "must" step the only one).
        Refusals and choices need this or an `alternative` (the check `end_state_shown`)."""
        self.end_state = why

    def task(self) -> Task:
        return Task.model_validate(
            {
                "id": self.id,
                "split": self.split,
                "user": {"instructions": _tidy(self.instructions), "script": [_tidy(line) for line in self.script]},
                "gold_actions": [a.model_dump() for a in self.gold],
                "required_outputs": [o.model_dump() for o in self.outputs],
                "required_actions": [a.model_dump() for a in self.required],
                "forbidden_actions": [a.model_dump() for a in self.forbidden],
                "ordered": self.ordered,
                "wrong_outputs": [o.model_dump() for o in self.wrong],
                "alternatives": [a.model_dump() for a in self.alternatives],
                "end_state": self.end_state,
            }
        )


def dump_tasks(tasks: Iterable[Task]) -> bytes:
    """The one on-disk form of a task file: sorted by id, two-space indent, keys in schema order."""
    ordered = sorted(tasks, key=lambda task: task.id)
    data = TaskFile(tasks=ordered).model_dump(mode="json", exclude_defaults=False)
    return orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n"


class TaskWriter:
    """Collects a domain's task drafts and writes `tasks.json` deterministically."""

    def __init__(self, domain: Domain[Any]) -> None:
        self.domain = domain
        self.drafts: dict[str, TaskDraft] = {}

    def task(self, task_id: str, *, instructions: str, script: list[str], split: str = "test", ordered: bool = False) -> TaskDraft:
        """Start a task; its gold calls run as they are added."""
        if task_id in self.drafts:
            raise ValueError(f"task {task_id!r} written twice")
        draft = TaskDraft(self.domain, task_id, split=split, instructions=instructions, script=script, ordered=ordered)
        self.drafts[task_id] = draft
        return draft

    @contextmanager
    def attempt(
        self, task_id: str, *, instructions: str, script: list[str], split: str = "test", ordered: bool = False
    ) -> Iterator[TaskDraft]:
        """A candidate task: dropped, not an error, when its block raises `SkipCandidate` or a
        gold call fails (`GoldActionFailed`).

            with writer.attempt("refund_1", instructions=..., script=[...]) as draft:
                quote = draft.read("quote_refund", order_id=order)
                draft.output(quote["refund"], "money", strict=True)
        """
        draft = self.task(task_id, instructions=instructions, script=script, split=split, ordered=ordered)
        try:
            yield draft
        except (SkipCandidate, GoldActionFailed):
            self.discard(draft)

    def discard(self, draft: TaskDraft) -> None:
        """Drop a draft (a candidate record that turned out not to fit)."""
        self.drafts.pop(draft.id, None)

    def kept(self, draft: TaskDraft) -> bool:
        """Is this draft still to be written? False once `attempt` or `discard` dropped it.

            with writer.attempt(f"refund_{made + 1}", ...) as draft:
                ...
            if writer.kept(draft):
                made += 1
        """
        return self.drafts.get(draft.id) is draft

    def tasks(self) -> list[Task]:
        return [draft.task() for draft in self.drafts.values()]

    def render(self) -> bytes:
        return dump_tasks(self.tasks())

    def save(self, path: Path | None = None) -> Path:
        path = path or self.domain.fixtures / "tasks.json"
        path.write_bytes(self.render())
        return path
