"""The JUnit file (`--junitxml`), shaped by pytest's `junit_family`.

pytest writes one <testcase> per report sequence; before it writes the file, the
controller calls `shape_junit`, which:

- keeps one <testcase> per item, the last attempt (pytest-rerunfailures adds one per
  attempt): the attempt scored is the one shown, with its <failure>/<error> written from
  its result in the same words as a single run, a resumed run and a merge;
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
from ._results import failure_text

if TYPE_CHECKING:
    from ._results import ItemResult, RunSummary
    from ._settings import Settings

__all__ = ["item_fields", "number", "outcome_texts", "shape_junit", "suite_properties", "suite_title"]

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


MESSAGE_LIMIT = 500


def outcome_texts(result: ItemResult) -> tuple[str, str] | None:
    """(message, text) of a failed or errored item, the same in a run, a resumed run and a merge.

    The message is one line that says it all: GitHub reporters (mikepenz/action-junit-report's
    annotations, dorny/test-reporter's failure list) show the message attribute, and dorny
    shows <failure> and <error> alike, so an error says it is one and is not the model's."""
    if result.status == "failed":
        text = failure_text(result.reward, result.end_reason, result.failure)
        head, _, rest = text.partition("\n")
        detail = "; ".join(line.strip().rstrip(":") for line in rest.splitlines() if line.strip())
        message = f"{head}: {detail}" if detail else head
    elif result.status == "error":
        text = result.error or "infrastructure error"
        message = f"infrastructure error, not scored (left out of pass^k; finish with --resume): {_first_line(text)}"
    else:
        return None
    if len(message) > MESSAGE_LIMIT:
        message = message[: MESSAGE_LIMIT - 1] + "…"
    return redact(message), redact(text)


def _restore_outcome(element: ET.Element, result: ItemResult) -> None:
    """The item's outcome as its result says, with the same words wherever the file was made.

    An item that errored in the call phase (where the conversation is played) was written
    as a <failure> by pytest: it is an <error>, as the terminal and results.jsonl say. A kept
    testcase that lost its outcome (an earlier attempt of a rerun item) gets it back.
    """
    failure = element.find("failure")
    if result.status == "error" and failure is not None and element.find("error") is None:
        failure.tag = "error"
    texts = outcome_texts(result)
    if texts is None:
        return
    message, text = texts
    tag = "error" if result.status == "error" else "failure"
    node = element.find(tag)
    if node is None:
        node = ET.Element(tag)
        element.insert(0, node)
        node.text = text
    elif result.status == "failed" or not (node.text or "").strip():
        node.text = text  # pytest's text of a failure is this one; a merge or resume writes it the same
    node.set("message", message)


def suite_title(summary: RunSummary) -> str:
    """The test suite's name, which dorny/test-reporter shows as the heading of the report."""
    ks = ", ".join(f"pass^{k} {number(value)}" for k, value in summary.pass_hat_k.items())
    tasks = sum(d.tasks for d in summary.domains.values())
    title = f"pytest-tau {redact(summary.model or 'offline self-check')}: {ks} over {tasks} tasks"
    if summary.errors:
        title += f", {summary.errors} errors (incomplete)"
    gate = summary.gate or {}
    if gate.get("configured", gate.get("passed") is not None) and gate.get("passed") is not None:
        title += ", gate passed" if gate.get("passed") else ", gate failed"
    return title


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
            # a later attempt of a rerun item: it is the one scored, so it is the one kept
            kept[:] = [r for r in kept if _item_id(r.to_xml()) != item]
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
    if hasattr(xml, "suite_name"):
        xml.suite_name = suite_title(summary)
