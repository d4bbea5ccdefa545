"""Precision of what the agent says: what a conversation must not tell, and the right path's figures.

A required output proves the agent found a fact; it proves nothing if the agent also said every
other value it saw. Three kinds of value must not be told, and telling one scores 0:

* **confidential** values: fields the domain's schema marks `Confidential` (risk scores, internal
  notes), read from the results of the calls made in this conversation;
* **wrong values a task declares** (`Task.wrong_outputs`): the figure a wrong path gives, such as
  the pre-fee amount where the fee is the point;
* **sibling figures derived here**: for each required output found in a gold result's list of
  records, the same field of the other records of that list (the sibling order's total, the other
  plan's premium), when distinctive (a 1- or 2-digit integer is said in too many other ways).

The right path's figures (`right_path_figures`) are what an agent that explains itself says: every
plain field of each record that holds a required output, and of each gold write's result. No
derived wrong value is one of them, so an agent that states its intermediate figures still passes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal, InvalidOperation
from typing import Any

import orjson

from ._environment import ToolCall
from ._outputs import Kind, Output, infer_kind, output_told, spoken

__all__ = ["confidential_told", "derived_wrong_outputs", "parsed_result", "records_with_siblings", "right_path_figures", "said_values", "scalars"]

Scalar = str | int | float

_SIBLING_KINDS: frozenset[Kind] = frozenset({"money", "number", "percent", "date", "time", "phone", "code"})


def parsed_result(result: str) -> Any:
    try:
        return orjson.loads(result)
    except orjson.JSONDecodeError:
        return result


def records_with_siblings(node: Any, siblings: tuple[dict[str, Any], ...] = ()) -> Iterator[tuple[dict[str, Any], tuple[dict[str, Any], ...]]]:
    """Every dict inside a result, with the other dicts of the list it is in."""
    if isinstance(node, dict):
        yield node, siblings
        for value in node.values():
            yield from records_with_siblings(value)
    elif isinstance(node, list):
        dicts = [item for item in node if isinstance(item, dict)]
        for item in node:
            if isinstance(item, dict):
                yield from records_with_siblings(item, tuple(other for other in dicts if other is not item))
            elif isinstance(item, list):
                yield from records_with_siblings(item)


def scalars(node: Any, confidential: frozenset[str] = frozenset(), key: str = "") -> Iterator[tuple[str, Scalar]]:
    """(field name, value) of every plain value inside a result; confidential fields left out."""
    if isinstance(node, dict):
        for name, value in node.items():
            if name not in confidential:
                yield from scalars(value, confidential, name)
    elif isinstance(node, list):
        for item in node:
            yield from scalars(item, confidential, key)
    elif isinstance(node, (str, int, float)) and not isinstance(node, bool):
        yield key, node


def _number(value: Any) -> Decimal | None:
    if isinstance(value, bool):
        return None
    try:
        return abs(Decimal(str(value).replace(",", "").lstrip("$")))
    except InvalidOperation:
        return None


def _same(output: Output, value: Any) -> bool:
    """Is this plain result value the output's own value (compared as stored, not as said)?"""
    if output.kind in ("money", "number", "percent"):
        number = _number(value)
        return number is not None and number == _number(output.value)
    text = str(value).strip().casefold()
    if output.kind == "date":
        return text[:10] == output.value
    if output.kind == "code":
        return "".join(c for c in text if c.isalnum()) == "".join(c for c in output.value.casefold() if c.isalnum())
    return text == output.value.strip().casefold()


def _as_output(value: Any, kind: Kind) -> Output | None:
    """A result value as an output of `kind`, or None when it is not one."""
    if kind in ("money", "number", "percent"):
        number = _number(value)
        if number is None:
            return None
        text = f"{number:.2f}" if kind == "money" else format(number.normalize(), "f")
    elif kind == "date":
        text = str(value)[:10]
    else:
        text = str(value)
    try:
        return Output(value=text, kind=kind)
    except ValueError:
        return None


def _distinctive(output: Output) -> bool:
    """A value whose mention means it: not a 1- or 2-digit integer ("2 bags", "step 3", "24/7")."""
    if output.kind in ("money", "number", "percent"):
        number = _number(output.value)
        return number is not None and not (number == number.to_integral_value() and number <= 99)
    if output.kind in ("name", "text"):
        return len(output.value.split()) >= 2 or len(output.value) >= 8
    return True


def _gold_results(calls: Sequence[ToolCall]) -> list[tuple[ToolCall, Any]]:
    return [(call, parsed_result(call.result)) for call in calls if not call.error]


def right_path_figures(outputs: Sequence[Output], calls: Sequence[ToolCall], confidential: frozenset[str]) -> list[str]:
    """What an agent that explains its answer says besides the outputs: every plain field of each
    record that holds a required output, and the top-level fields of each write's result."""
    figures: list[str] = []
    for call, result in _gold_results(calls):
        if call.write and isinstance(result, dict):
            figures += [f"{key}: {value}" for key, value in result.items() if key not in confidential and isinstance(value, (str, int, float))]
        for record, _ in records_with_siblings(result):
            plain = {key: value for key, value in record.items() if key not in confidential and isinstance(value, (str, int, float)) and not isinstance(value, bool)}
            if any(_same(output, value) for output in outputs for value in plain.values()):
                figures += [f"{key}: {value}" for key, value in plain.items()]
    return list(dict.fromkeys(figures))


def derived_wrong_outputs(outputs: Sequence[Output], calls: Sequence[ToolCall], confidential: frozenset[str]) -> list[Output]:
    """The same field of the sibling records of each record in the gold results that holds a
    required output: what an agent that read the wrong record would say. Values the right path's
    figures tell, or that equal a required output, are left out."""
    wrong: dict[Output, None] = {}
    for _, result in _gold_results(calls):
        for record, siblings in records_with_siblings(result):
            if not siblings:
                continue
            for output in outputs:
                if output.kind not in _SIBLING_KINDS:
                    continue
                for key, value in record.items():
                    if key in confidential or isinstance(value, (dict, list, bool)) or not _same(output, value):
                        continue
                    for sibling in siblings:
                        other = sibling.get(key)
                        if other is None or isinstance(other, (dict, list, bool)) or _same(output, other):
                            continue
                        candidate = _as_output(other, output.kind)
                        if candidate is not None and _distinctive(candidate):
                            wrong[candidate] = None
    if not wrong:
        return []
    right = "\n".join([spoken(output) for output in outputs] + right_path_figures(outputs, calls, confidential))
    return [candidate for candidate in wrong if not output_told(candidate, right) and not any(_same(o, candidate.value) for o in outputs)]


Shapes = dict[str, frozenset[frozenset[str]]]
_ZERO_LED = re.compile(r"0\d{2,}")


def _result_confidential(result: Any, confidential: frozenset[str], shapes: Shapes) -> tuple[dict[Output, None], set[str]]:
    """One result's confidential values worth checking, and every public value it shows (casefolded)."""
    found: dict[Output, None] = {}
    public: set[str] = set()
    for record, _ in records_with_siblings(result):
        keys = record.keys()
        for key, value in record.items():
            if isinstance(value, (dict, list, bool)) or value is None:
                continue
            if key not in confidential or (key in shapes and not any(shape <= keys for shape in shapes[key])):
                public.add(str(value).casefold())
                continue
            text = str(value).strip()
            kind = infer_kind(text) if isinstance(value, str) else "number"
            if kind == "number" and _ZERO_LED.fullmatch(text):
                kind = "code"  # "0015", the last four of an SSN or a card: digits that name, not a quantity of 15
            output = _as_output(value, kind)
            if output is not None and _distinctive(output):
                found[output] = None
    return found, public


@functools.lru_cache(maxsize=4096)
def _result_confidential_cached(result: str, confidential: frozenset[str], shapes: tuple[tuple[str, frozenset[frozenset[str]]], ...]) -> tuple[tuple[Output, ...], frozenset[str]]:
    # Every verdict reads every result again; replays of one task (trials, the checks) repeat the same texts.
    found, public = _result_confidential(parsed_result(result), confidential, dict(shapes))
    return tuple(found), frozenset(public)


def confidential_told(calls: Sequence[ToolCall], confidential: frozenset[str], told: str, shapes: Shapes | None = None) -> list[Output]:
    """The confidential values the conversation's tool results showed and the agent told. `shapes`:
    per field name, the field names of the records it is confidential in (others show it freely).
    A confidential value that a public field of any result also shows (the same figure elsewhere) may be said."""
    if not confidential or not told:
        return []
    key = tuple(sorted((shapes or {}).items()))
    found: dict[Output, None] = {}
    public: set[str] = set()
    for call in calls:
        if not call.error and any(name in call.result for name in confidential):
            outputs, shown = _result_confidential_cached(call.result, confidential, key)
            found.update(dict.fromkeys(outputs))
            public |= shown
    return [output for output in found if output.value.casefold() not in public and output_told(output, told)]


def said_values(results: Iterable[Any]) -> str:
    """Every plain value of the given results, one "field: value" a line: what a spray agent says."""
    return "\n".join(f"{key}: {value}" for result in results for key, value in scalars(result))
