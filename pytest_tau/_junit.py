"""The JUnit file (`--junitxml`), shaped by pytest's `junit_family`.

pytest writes one <testcase> per report sequence; before it writes the file, the
controller calls `shape_junit`, which:

- keeps one <testcase> per item, the first attempt (pytest-rerunfailures adds one per
  attempt, and an attempt that is rerun carries no <failure>): the attempt that counts
  in pass^1 is the one shown, with its <failure>/<error> restored from its result;
- puts each item's data where the family's schema allows it: under `xunit2` (pytest's
  default, validated by Jenkins' junit-10.xsd) as `tau.<name>=<value>` lines in the
  testcase's <system-out>; under `xunit1`/`legacy` as testcase <properties>;
- adds the run's identity (model, strategies, trials, seed, split) and its roll-up
  (pass^k overall and per domain, errors, completeness) as suite <properties>, which
  every family allows.

Values a gate reads are always numbers: a pass^k nobody could compute and the reward of
an errored item are `nan`, never empty or `-`.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from ._redact import redact

if TYPE_CHECKING:
    from ._results import ItemResult, RunSummary
    from ._settings import Settings

__all__ = ["item_fields", "number", "shape_junit", "suite_properties"]

_ITEM_ID = re.compile(r"\[([^\[\]]+)\]$")


def number(value: float | None, digits: int = 3) -> str:
    """A value a gate can parse: `nan` for a missing one."""
    return "nan" if value is None else f"{value:.{digits}f}"


def item_fields(result: ItemResult) -> list[tuple[str, str]]:
    """An item's data for a dashboard: short values, numbers parseable."""
    return [
        ("reward", "nan" if result.reward is None else f"{result.reward:g}"),
        ("status", result.status),
        ("domain", result.domain),
        ("task", result.task),
        ("trial", str(result.trial)),
        ("cost", f"{result.cost:.6f}"),
        ("turns", str(result.turns)),
        ("end_reason", result.end_reason),
    ]


def suite_properties(summary: RunSummary, settings: Settings) -> list[tuple[str, str]]:
    s = settings
    identity = [
        ("tau.model", s.model or "none (offline self-check)"),
        ("tau.user_model", (s.user_model or "none") if s.user_uses_model else "none"),
        ("tau.agent_strategy", s.agent_strategy),
        ("tau.user_strategy", s.user_strategy),
        ("tau.trials", str(s.trials)),
        ("tau.seed", str(s.seed)),
        ("tau.task_split", s.task_split),
        ("tau.temperature", f"{s.temperature:g}"),
    ]
    props = [(name, redact(value)) for name, value in identity]
    props += [
        ("tau.items", str(summary.items)),
        ("tau.passed", str(summary.passed)),
        ("tau.failed", str(summary.failed)),
        ("tau.errors", str(summary.errors)),
        ("tau.complete", str(summary.complete).lower()),
        ("tau.cost", f"{summary.cost:.6f}"),
    ]
    props += [(f"tau.pass^{k}", number(value)) for k, value in summary.pass_hat_k.items()]
    for name, domain in summary.domains.items():
        props += [(f"tau.{name}.pass^{k}", number(value)) for k, value in domain.pass_hat_k.items()]
    return props


def _item_id(element: ET.Element) -> str | None:
    match = _ITEM_ID.search(element.get("name", ""))
    return match.group(1) if match else None


def _first_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[0] if lines else text


def _restore_outcome(element: ET.Element, result: ItemResult) -> None:
    """The first attempt's outcome, when the kept testcase lost it (a rerun attempt).

    An item that errored in the call phase (where the conversation is played) was written
    as a <failure> by pytest: it is an <error>, as the terminal and results.jsonl say.
    """
    failure = element.find("failure")
    if result.status == "error" and failure is not None and element.find("error") is None:
        failure.tag = "error"
    if element.find("failure") is not None or element.find("error") is not None:
        return
    if result.status == "failed":
        body = result.failure or "reward 0"
        node = ET.Element("failure", message=_first_line(body))
    elif result.status == "error":
        body = result.error or "infrastructure error"
        node = ET.Element("error", message=_first_line(body))
    else:
        return
    node.text = body
    element.insert(0, node)


def _add_fields(element: ET.Element, fields: Iterable[tuple[str, str]], family: str) -> None:
    for old in element.findall("properties"):
        element.remove(old)
    if family == "xunit2":
        lines = "".join(f"tau.{name}={value}\n" for name, value in fields)
        out = element.find("system-out")
        if out is None:
            out = ET.SubElement(element, "system-out")
            out.text = lines
        else:
            out.text = lines + (out.text or "")
    else:
        properties = ET.Element("properties")
        for name, value in fields:
            ET.SubElement(properties, "property", name=name, value=value)
        element.insert(0, properties)


def _outcome(element: ET.Element) -> str:
    for tag in ("error", "failure", "skipped"):
        if element.find(tag) is not None:
            return tag
    return "passed"


class _Written:
    """A testcase for an item finished in an earlier session (`--resume`)."""

    def __init__(self, element: ET.Element) -> None:
        self.element = element

    def to_xml(self) -> ET.Element:
        return self.element


def _earlier_testcase(xml: Any, nodeid: str, result: ItemResult) -> _Written:
    path, bracket, params = nodeid.partition("[")
    names = path.split("::")
    names[0] = re.sub(r"\.py$", "", names[0].replace("/", "."))
    names[-1] += bracket + params
    if getattr(xml, "prefix", None):
        names.insert(0, xml.prefix)
    element = ET.Element("testcase", classname=".".join(names[:-1]), name=names[-1], time=f"{result.duration:.3f}")
    _restore_outcome(element, result)
    return _Written(element)


def shape_junit(
    xml: Any,
    counted: Mapping[str, ItemResult],
    summary: RunSummary,
    settings: Settings,
    *,
    earlier: Mapping[str, ItemResult] | None = None,
    nodeids: Mapping[str, str] | None = None,
) -> None:
    """Rewrite pytest's pending JUnit (a `LogXML`) before it is written.

    `earlier`: results of items finished in earlier sessions of a resumed run, written as
    testcases too (so a resumed run's file has its failures), named by `nodeids`.
    """
    family = getattr(xml, "family", "xunit2")
    counted = {**counted}
    for item_id, old in sorted((earlier or {}).items()):
        nodeid = (nodeids or {}).get(item_id)
        if nodeid is not None:
            xml.node_reporters_ordered.append(_earlier_testcase(xml, nodeid, old))
            counted[item_id] = old
    seen: set[str] = set()
    kept = []
    for reporter in xml.node_reporters_ordered:
        element = reporter.to_xml()  # finalized reporters return the same element every time
        if not element.get("name"):
            continue  # an item interrupted (Ctrl-C) before its first report: no testcase to name
        item = _item_id(element)
        result = counted.get(item) if item else None
        if result is None or item is None:
            kept.append(reporter)
            continue
        if item in seen:
            continue  # a later attempt of a rerun item: the first one counts (pass^1 is not best-of-n)
        seen.add(item)
        kept.append(reporter)
        _restore_outcome(element, result)
        _add_fields(element, item_fields(result), family)
    xml.node_reporters_ordered[:] = kept
    # pytest counted every attempt: count again from the testcases that are written.
    if isinstance(getattr(xml, "stats", None), dict):
        keys: set[tuple[str, str]] = set()
        doubles = 0
        for tag in ("passed", "failure", "error", "skipped"):
            xml.stats[tag] = 0
        for reporter in kept:
            element = reporter.to_xml()
            key = (element.get("classname", ""), element.get("name", ""))
            doubles += key in keys
            keys.add(key)
            xml.stats[_outcome(element)] += 1
        xml.cnt_double_fail_tests = doubles
    for name, value in suite_properties(summary, settings):
        xml.add_global_property(name, value)
