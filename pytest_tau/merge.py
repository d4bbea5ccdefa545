"""Merge the run directories of `--shard I/N` runs into one run directory.

    python -m pytest_tau.merge shard-1 shard-2 ... --out merged [--min-pass-hat-k 1=0.8]
        [--baseline RUN_DIR --max-regression 0.05] [--junitxml FILE] [--junit-family xunit2]

Writes in `--out`: results.jsonl, summary.json, run.json, trajectories/, report.html and junit.xml (in
the shards' `junit_family` unless `--junit-family` says otherwise), appends the Markdown
summary to `$GITHUB_STEP_SUMMARY` when it is set, and applies the same gate as a run. The
pass^k is computed from the items' results, so it equals an unsharded run's.

Refused (exit 4, naming the problem): runs made with other settings (model, strategies,
trials, seed, task split, ...), a run that is not a shard, shards of different selections
or counts, a shard given twice, missing shards, tasks in two shards.

Exit codes as a run: 0 every item passed, 1 some failed, 6 incomplete (errors, a shard
stopped early or without a summary), 7 the gate failed, 4 refused.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import orjson

from ._gate import EXIT_GATE, GateOptions, detectable_lines, evaluate_gate, gate_problems, parse_threshold
from ._reports import write_run_outputs
from ._results import ItemResult, ResultsError, RunSummary, read_results, summarize
from ._runinfo import IDENTITY_FIELDS, RUN_INFO
from ._shard import SHARD_FILE

__all__ = ["MergeError", "main", "merge"]

EXIT_FAILED = 1
EXIT_USAGE = 4
EXIT_INCOMPLETE = 6  # as _controller.EXIT_INCOMPLETE (not imported: it pulls in pytest's plugin side)


class MergeError(Exception):
    """Shards that must not be merged; the message says why."""


def _load(path: Path) -> dict[str, Any] | None:
    try:
        data = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


class _Shard:
    def __init__(self, run_dir: Path) -> None:
        self.run_dir = run_dir
        shard = _load(run_dir / SHARD_FILE)
        if shard is None:
            raise MergeError(f"{run_dir}: no {SHARD_FILE} (not a run made with --shard I/N, or not a run directory)")
        self.shard = shard
        info = _load(run_dir / RUN_INFO)
        self.identity: dict[str, Any] = dict((info or {}).get("identity") or {})
        self.summary = _load(run_dir / "summary.json")
        try:
            self.results = read_results(run_dir / "results.jsonl")
        except ResultsError as exc:
            raise MergeError(str(exc)) from None

    @property
    def label(self) -> str:
        return f"{self.shard['index']}/{self.shard['count']} ({self.run_dir})"


def _check(shards: list[_Shard]) -> None:
    first = shards[0]
    for other in shards[1:]:
        differ = [f for f in IDENTITY_FIELDS if first.identity.get(f) != other.identity.get(f)]
        if differ:
            details = ", ".join(f"{f}: {first.identity.get(f)!r} vs {other.identity.get(f)!r}" for f in differ)
            raise MergeError(f"{first.run_dir} and {other.run_dir} were made with other settings ({details})")
        if other.shard["selection"] != first.shard["selection"]:
            raise MergeError(
                f"{first.run_dir} and {other.run_dir} sharded different selections of tasks "
                f"({first.shard['selected_tasks']} vs {other.shard['selected_tasks']} tasks): run every shard with the same "
                "-k, -m, --domains and --task-ids"
            )
        if other.shard["count"] != first.shard["count"]:
            raise MergeError(f"{first.run_dir} is shard {first.label}, {other.run_dir} is shard {other.label}: different N")
    count = int(first.shard["count"])
    seen: dict[int, Path] = {}
    for shard in shards:
        index = int(shard.shard["index"])
        if index in seen:
            raise MergeError(f"shard {index}/{count} given twice: {seen[index]} and {shard.run_dir}")
        seen[index] = shard.run_dir
    missing = [f"{i}/{count}" for i in range(1, count + 1) if i not in seen]
    if missing:
        raise MergeError(f"shard(s) {', '.join(missing)} missing: pass the run directory of every shard")
    owner: dict[str, Path] = {}
    for shard in shards:
        for task in shard.shard["tasks"]:
            if task in owner:
                raise MergeError(f"task {task} is in two shards: {owner[task]} and {shard.run_dir}")
            owner[task] = shard.run_dir


def _stopped(shards: list[_Shard]) -> str | None:
    reasons = []
    for shard in shards:
        if shard.summary is None:
            reasons.append(f"shard {shard.label} has no summary.json (it did not finish)")
        elif shard.summary.get("stopped"):
            reasons.append(f"shard {shard.label}: {shard.summary['stopped']}")
    return "; ".join(reasons) or None


def _settings(shards: list[_Shard], summary: RunSummary) -> Any:
    """The run's settings (as pytest-tau resolved them), for JUnit's suite properties."""
    from ._settings import Settings

    stored = next((dict(s.summary.get("settings") or {}) for s in shards if s.summary), {})
    stored.update({k: v for k, v in shards[0].identity.items() if k in IDENTITY_FIELDS})
    fields = set(Settings.model_fields)
    values = {k: v for k, v in stored.items() if k in fields}
    values.update(agent_uses_model=summary.model is not None, user_uses_model=summary.user_model is not None)
    return Settings.model_validate(values)


class _Prefix:
    prefix = None


def _junit(path: Path, family: str, results: Sequence[ItemResult], summary: RunSummary, settings: Any) -> None:
    from ._junit import _add_fields, _earlier_testcase, _restore_outcome, item_fields, suite_properties, suite_title

    suite = ET.Element("testsuite", name=suite_title(summary))
    properties = ET.SubElement(suite, "properties")
    for name, value in suite_properties(summary, settings):
        ET.SubElement(properties, "property", name=name, value=value)
    counts = {"errors": 0, "failures": 0, "skipped": 0}
    for result in sorted(results, key=lambda r: (r.nodeid or r.item)):
        nodeid = result.nodeid or f"tests_domains/{result.domain}/test_{result.domain}.py::test_{result.domain}[{result.item}]"
        element = _earlier_testcase(_Prefix(), nodeid, result).to_xml()
        _restore_outcome(element, result)
        _add_fields(element, item_fields(result), family)
        counts["errors"] += result.status == "error"
        counts["failures"] += result.status == "failed"
        suite.append(element)
    suite.set("errors", str(counts["errors"]))
    suite.set("failures", str(counts["failures"]))
    suite.set("skipped", "0")
    suite.set("tests", str(len(results)))
    suite.set("time", f"{sum(r.duration for r in results):.3f}")
    root = ET.Element("testsuites", name="pytest tests")
    root.append(suite)
    path.parent.mkdir(parents=True, exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)


def merge(
    run_dirs: Sequence[Path],
    out: Path,
    *,
    thresholds: Sequence[str] = (),
    baseline: Path | None = None,
    max_regression: float | None = None,
    allow_partial: bool = False,
    junitxml: Path | None = None,
    junit_family: str | None = None,
) -> tuple[int, RunSummary, list[str]]:
    """Merge shard run directories into `out`; (exit code, summary, report lines)."""
    if not run_dirs:
        raise MergeError("no run directory given")
    shards = [_Shard(Path(d)) for d in run_dirs]
    _check(shards)
    try:
        options = GateOptions(
            thresholds=tuple(parse_threshold(text) for text in thresholds),
            baseline=baseline,
            max_regression=max_regression,
            allow_partial=allow_partial,
        )
    except Exception as exc:  # pytest.UsageError, with the message to show
        raise MergeError(str(exc)) from None
    results: dict[str, ItemResult] = {}
    for shard in shards:
        for result in shard.results:
            results[result.item] = result  # the last line of an item wins, as in a run
    ordered = [results[key] for key in sorted(results)]
    trials = int(shards[0].identity.get("trials") or 1)
    first_summary = next((s.summary for s in shards if s.summary), {}) or {}
    summary = summarize(ordered, trials, dict(first_summary.get("settings") or {}), stopped=_stopped(shards))
    summary.model = first_summary.get("model")
    summary.user_model = first_summary.get("user_model")
    problems = gate_problems(options, trials, known_domains={r.domain for r in ordered})
    if problems:
        raise MergeError("; ".join(problems))
    partial = "; ".join(f"shard {s.label}: {s.summary['partial']}" for s in shards if s.summary and s.summary.get("partial")) or None
    summary.partial = partial
    gate = evaluate_gate(summary, ordered, trials, options, partial)

    out.mkdir(parents=True, exist_ok=True)
    (out / "results.jsonl").write_bytes(b"".join(orjson.dumps(r.model_dump(mode="json")) + b"\n" for r in ordered))
    (out / RUN_INFO).write_bytes(orjson.dumps({"identity": shards[0].identity, "merged_from": [str(s.run_dir) for s in shards]}, option=orjson.OPT_INDENT_2))
    for shard in shards:
        trajectories = shard.run_dir / "trajectories"
        if trajectories.is_dir():
            shutil.copytree(trajectories, out / "trajectories", dirs_exist_ok=True)
    family = junit_family or str(shards[0].shard.get("junit_family") or "xunit2")
    junit_path = junitxml or out / "junit.xml"
    _junit(junit_path, family, ordered, summary, _settings(shards, summary))
    html = write_run_outputs(out, summary, gate, ordered, out / "report.html", [out])

    lines = [f"pytest-tau merge: {len(shards)} shards, {summary.items} items, {summary.errors} errors -> {out}"]
    lines += [f"pass^{k}: {'nan' if v is None else f'{v:.3f}'}" for k, v in summary.pass_hat_k.items()]
    lines += [f"{name} pass^{k}: {'nan' if v is None else f'{v:.3f}'}" for name, d in summary.domains.items() for k, v in d.pass_hat_k.items()]
    if summary.errors or summary.stopped:
        code = EXIT_INCOMPLETE
    elif gate.failed:
        code = EXIT_GATE
    elif summary.failed:
        code = EXIT_FAILED
    else:
        code = 0
    lines += [f"vs baseline: pass^{c.k} {c.delta:+.3f} over {c.tasks} paired tasks, 95% interval [{c.interval[0]:+.3f}, {c.interval[1]:+.3f}]" for c in gate.comparisons]
    lines += detectable_lines(gate, options.regression, trials)
    if code == EXIT_GATE:
        lines += [f"GATE FAILED (exit {EXIT_GATE}): {f}" for f in gate.failures]
    else:
        lines += [f"gate failed too (the exit code is {code}: the run is incomplete, which comes first): {f}" for f in gate.failures]
    if gate.configured and not gate.failed:
        lines.append("gate passed" if code != EXIT_INCOMPLETE else "gate not judged: the merged run is incomplete (exit 6)")
    if partial:
        lines.append(f"PARTIAL: {partial}")
    lines.append(f"html report: {html}")
    if summary.stopped:
        lines.append(f"INCOMPLETE: {summary.stopped}")
    if summary.errors:
        lines.append(f"INCOMPLETE: {summary.errors} item(s) ended in infrastructure errors")
    return code, summary, lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pytest_tau.merge", description="Merge --shard run directories into one run.")
    parser.add_argument("run_dirs", nargs="+", type=Path, metavar="RUN_DIR", help="the run directory of every shard")
    parser.add_argument("--out", required=True, type=Path, metavar="DIR", help="the merged run directory")
    parser.add_argument("--junitxml", type=Path, default=None, help="the merged JUnit file (default: DIR/junit.xml)")
    parser.add_argument("--junit-family", choices=("xunit2", "xunit1", "legacy"), default=None,
                        help="JUnit family (default: the shards' junit_family)")
    parser.add_argument("--min-pass-hat-k", action="append", default=[], metavar="[DOMAIN:]K=V",
                        help="gate: fail (exit 7) when pass^K is below V; repeatable")
    parser.add_argument("--baseline", type=Path, default=None, metavar="RUN_DIR", help="gate: compare with this run directory")
    parser.add_argument("--max-regression", type=float, default=None, metavar="D", help="gate: with --baseline, allowed drop beyond the 95%% interval (default 0)")
    parser.add_argument("--allow-partial", action="store_true", help="gate: judge shards that were partial runs instead of failing them")
    args = parser.parse_args(argv)
    try:
        code, _, lines = merge(
            args.run_dirs, args.out, thresholds=args.min_pass_hat_k, baseline=args.baseline,
            max_regression=args.max_regression, allow_partial=args.allow_partial, junitxml=args.junitxml, junit_family=args.junit_family,
        )
    except MergeError as exc:
        print(f"pytest-tau merge: refused: {exc}", file=sys.stderr)
        return EXIT_USAGE
    print("\n".join(lines))
    return code


if __name__ == "__main__":
    sys.exit(main())
