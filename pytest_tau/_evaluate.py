"""Scoring: the final state matches gold, every required output was told, nothing forbidden.

Pure functions over a trajectory's facts, so they are tested without pytest.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ._environment import ToolCall
from ._outputs import Output, output_told
from ._state import Diff
from ._tasks import Action, Task

__all__ = ["RecordDifference", "Verdict", "diff_records", "evaluate", "field_differences"]

@dataclass(frozen=True)
class RecordDifference:
    """One record whose final state differs: full records, None where absent."""

    table: str
    key: str
    expected: dict[str, Any] | None
    actual: dict[str, Any] | None

    def describe(self, limit: int = 8) -> str:
        label = f"{self.table}[{self.key!r}]"
        if self.expected is None:
            return f"{label}: expected no such record, actual created: {_short(self.actual, 200)}"
        if self.actual is None:
            return f"{label}: expected {_short(self.expected, 200)}, actual missing (deleted or never created)"
        lines = [f"{label}{path}: expected {exp}, actual {act}" for path, exp, act in field_differences(self.expected, self.actual)]
        if len(lines) > limit:
            lines = lines[:limit] + [f"... {len(lines) - limit} more differences in {label}"]
        return "\n".join(lines)


class _Missing:
    def __repr__(self) -> str:
        return "<missing>"


_MISSING: Any = _Missing()


def _step(key: object) -> str:
    return f".{key}" if isinstance(key, str) and key.isidentifier() else f"[{key!r}]"


def _leaves(expected: Any, actual: Any, path: str) -> Iterator[tuple[str, Any, Any]]:
    """(path, expected, actual) of every differing leaf: the diff descends into dicts and lists
    so a change deep in a record names its place instead of printing two whole values."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual), key=str):
            exp, act = expected.get(key, _MISSING), actual.get(key, _MISSING)
            if exp != act:
                yield from _leaves(exp, act, path + _step(key))
    elif isinstance(expected, list) and isinstance(actual, list):
        yield from _list_leaves(expected, actual, path)
    elif expected != actual:
        yield path, expected, actual


def _list_leaves(expected: list[Any], actual: list[Any], path: str) -> Iterator[tuple[str, Any, Any]]:
    """A list's differences read as what was lost and what was added, not position by position:
    one item added to a list (or to an unordered list, which is compared sorted) would
    otherwise shift every later item and read as if the agent had edited each of them."""
    unmatched = list(range(len(actual)))
    missing: list[int] = []
    for index, item in enumerate(expected):
        match = next((i for i in unmatched if actual[i] == item), None)
        if match is None:
            missing.append(index)
        else:
            unmatched.remove(match)
    if not missing and not unmatched:
        # The same items in another order: only an ordered list gets here.
        yield path, expected, actual
        return
    # Lost and added items paired in turn read as edits (naming the fields that changed);
    # the rest as lost or added.
    for lost, added in zip(missing, unmatched, strict=False):
        yield from _leaves(expected[lost], actual[added], f"{path}[{lost}]")
    for lost in missing[len(unmatched):]:
        yield f"{path}[{lost}]", expected[lost], _MISSING
    for added in unmatched[len(missing):]:
        yield f"{path}[{added}]", _MISSING, actual[added]


def _pair(expected: Any, actual: Any, limit: int = 120, context: int = 30) -> tuple[str, str]:
    """Both values as reprs; long ones are cut around their first difference, so what is
    printed always differs (two reprs cut at the same length could read the same)."""
    exp, act = repr(expected), repr(actual)
    if len(exp) <= limit and len(act) <= limit:
        return exp, act
    first = next((i for i, (a, b) in enumerate(zip(exp, act, strict=False)) if a != b), min(len(exp), len(act)))
    start = max(0, first - context)

    def window(text: str) -> str:
        cut = text[start : start + limit - 6]
        return ("..." if start else "") + cut + ("..." if start + limit - 6 < len(text) else "")

    return window(exp), window(act)


def field_differences(expected: dict[str, Any], actual: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Every differing leaf of two versions of a record: (path, expected repr, actual repr)."""
    return [(path, *_pair(exp, act)) for path, exp, act in _leaves(expected, actual, "")]


def _short(value: Any, limit: int = 120) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


InitialRecord = Callable[[str, str], "dict[str, Any] | None"]


def diff_records(expected: Diff, actual: Diff, initial: InitialRecord) -> list[RecordDifference]:
    """Records whose final state differs between the gold and the actual run.

    A diff holds only changed records; `initial(table, key)` supplies the unchanged side.
    Both diffs and `initial` give records in their compared form (`Domain.canonical`).
    """
    differences = []
    for table in sorted(set(expected) | set(actual)):
        exp_table, act_table = expected.get(table, {}), actual.get(table, {})
        for key in sorted(set(exp_table) | set(act_table)):
            exp = exp_table[key] if key in exp_table else initial(table, key)
            act = act_table[key] if key in act_table else initial(table, key)
            if exp != act:
                differences.append(RecordDifference(table, key, exp, act))
    return differences




@dataclass(frozen=True)
class Verdict:
    """The reward and its parts; `explain()` reads like a good pytest failure."""

    state_differences: list[RecordDifference] = field(default_factory=list)
    missing_outputs: list[str] = field(default_factory=list)
    forbidden_calls: list[str] = field(default_factory=list)
    missing_actions: list[str] = field(default_factory=list)
    disclosed: list[str] = field(default_factory=list)  # told what must not be: confidential or a wrong path's value

    @property
    def state_ok(self) -> bool:
        return not self.state_differences

    @property
    def reward(self) -> float:
        ok = not (self.state_differences or self.missing_outputs or self.forbidden_calls or self.missing_actions or self.disclosed)
        return 1.0 if ok else 0.0

    def parts(self) -> dict[str, float]:
        return {
            "state": float(not self.state_differences),
            "outputs": float(not (self.missing_outputs or self.disclosed)),
            "forbidden": float(not self.forbidden_calls),
            "actions": float(not self.missing_actions),
        }

    def explain(self, limit: int = 10) -> str:
        lines: list[str] = []
        if self.state_differences:
            lines.append(f"final DB state differs from gold in {len(self.state_differences)} record(s):")
            for difference in self.state_differences[:limit]:
                lines.append("  " + difference.describe().replace("\n", "\n  "))
            if len(self.state_differences) > limit:
                lines.append(f"  ... {len(self.state_differences) - limit} more")
        if self.missing_outputs:
            lines.append("required outputs never told to the user: " + ", ".join(map(repr, self.missing_outputs)))
        if self.disclosed:
            lines.append("told what must not be told: " + ", ".join(self.disclosed))
        if self.forbidden_calls:
            lines.append("forbidden actions made: " + "; ".join(self.forbidden_calls))
        if self.missing_actions:
            lines.append("required actions never made: " + "; ".join(self.missing_actions))
        return "\n".join(lines) or "reward 1"


def _successful(calls: Iterable[ToolCall]) -> list[ToolCall]:
    return [call for call in calls if not call.error]


def _matching(actions: Sequence[Action], calls: Sequence[ToolCall]) -> tuple[list[str], list[str]]:
    """Split actions into those some call matches and those none does."""
    matched: list[str] = []
    unmatched: list[str] = []
    for action in actions:
        hit = any(call.actor == option.actor and option.matches(call.name, call.arguments) for option in action.options() for call in calls)
        (matched if hit else unmatched).append(str(action))
    return matched, unmatched


def evaluate(
    task: Task,
    gold_diff: Diff,
    final_diff: Diff,
    calls: Sequence[ToolCall],
    told: str,
    initial: InitialRecord,
    *,
    unsaid: Sequence[Output] = (),
    broken_rules: Sequence[str] = (),
) -> Verdict:
    """Score one conversation's outcome against the task.

    `unsaid`: values beyond the task's own `wrong_outputs` that must not be told (a domain's
    confidential values, sibling figures); `broken_rules`: order and authentication rules of the
    policy the conversation broke, each a reason it scores 0."""
    succeeded = _successful(calls)
    forbidden, _ = _matching(task.forbidden_actions, succeeded)
    _, missing_actions = _matching(task.required_actions, succeeded)
    told_wrong = [str(output) for output in dict.fromkeys([*task.wrong_outputs, *unsaid]) if output_told(output, told)]
    return Verdict(
        state_differences=diff_records(gold_diff, final_diff, initial),
        missing_outputs=[str(output) for output in task.required_outputs if not output_told(output, told)],
        forbidden_calls=forbidden,
        missing_actions=missing_actions + list(broken_rules),
        disclosed=told_wrong,
    )
