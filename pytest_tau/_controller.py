"""The controller's role: collect results as items finish, roll up, report.

Registered only in the process that owns the run (without xdist: the only one; with
xdist: the controller), so results.jsonl has exactly one writer.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
import pytest

from ._gate import EXIT_GATE, GateOptions, detectable_lines
from ._partial import PLUGIN_NAME as PARTIAL_PLUGIN
from ._redact import redact, redact_json
from ._results import ItemResult, ResultsError, RunSummary, UsageRecord, read_results, summarize

FATAL_PREFIX = "cannot use the model: "  # as raised by _llm (not imported: litellm stays lazy)

if TYPE_CHECKING:
    from ._settings import Settings

__all__ = ["EXIT_INCOMPLETE", "TauController", "TauExitStatus"]

# The exit code of a run with items that ended in infrastructure errors: its scores are
# incomplete, which a CI job must tell apart from a model that failed tasks (exit 1).
EXIT_INCOMPLETE = 6


@dataclass(frozen=True)
class Scheduled:
    """An item this session selected to run: enough to write its result if none arrives."""

    item: str
    nodeid: str
    domain: str
    task: str
    trial: int
    seed: int


_TRIAL = re.compile(r"\[(.+)-t(\d+)\]$")


def scheduled_from_nodeid(nodeid: str, domains: list[str], base_seed: int) -> Scheduled | None:
    """An item's identity from its node id (`...[<domain>-<task>-t<trial>]`), as the xdist
    controller knows it: it collects nothing itself. None for a test that is not an item."""
    match = _TRIAL.search(nodeid)
    if match is None:
        return None
    head, trial = match.group(1), int(match.group(2))
    # The longest known domain name that prefixes the id (names and task ids may hold dashes).
    for domain in sorted(domains, key=len, reverse=True):
        if head.startswith(domain + "-") and len(head) > len(domain) + 1:
            from ._settings import item_seed

            task = head[len(domain) + 1 :]
            return Scheduled(f"{domain}-{task}-t{trial}", nodeid, domain, task, trial, item_seed(base_seed, domain, task, trial))
    return None


def _calls(usage: UsageRecord) -> str:
    """Answered calls, and the attempts that got no answer (timed out, refused): a run whose
    calls all timed out says so instead of "0 calls"."""
    failed = f" ({usage.failed_attempts} attempt(s) got no answer)" if usage.failed_attempts else ""
    return f"{usage.calls} calls{failed}"


def _format_k(value: float | None) -> str:
    return "  -  " if value is None else f"{value:.3f}"


class TauController:
    def __init__(
        self, config: pytest.Config, settings: Settings, run_dir: Path, *, announce: bool = True, gate: GateOptions | None = None
    ) -> None:
        self.config = config
        self.announce = announce
        self.settings = settings
        self.run_dir = run_dir
        # --resume: the earlier results count in this run's summary (the last per item wins).
        try:
            self.results: list[ItemResult] = read_results(run_dir / "results.jsonl") if settings.resume else []
        except ResultsError as exc:
            raise pytest.UsageError(f"--resume {run_dir}: {exc}") from None
        self.summary: RunSummary | None = None
        # This session's result per item: the first attempt's (reports of reruns come later).
        self.counted: dict[str, ItemResult] = {}
        self.rerun_items: set[str] = set()
        self.fatal: str | None = None  # why the model cannot be used at all (the run stopped)
        # Every item this session selected, by item id: at the end, each has a result or is an error.
        self.scheduled: dict[str, Scheduled] = {}
        self.unreported: dict[str, ItemResult] = {}  # lost items that no report named (no JUnit testcase yet)
        self.gate_options = gate or GateOptions()
        self.gate: Any = None
        self._results_file: Any = None
        self.html_path: Path | None = None

    # -- header ----------------------------------------------------------------------
    def describe(self) -> str:
        s = self.settings
        agent = s.agent_strategy + (f" ({s.model})" if s.agent_uses_model else "")
        user = s.user_strategy + (f" ({s.user_model})" if s.user_uses_model else "")
        return redact(
            f"pytest-tau: agent {agent}, user {user}, trials {s.trials}, split {s.task_split}, "
            f"seed {s.seed}, max-steps {s.max_steps}, temperature {s.temperature}"
        )

    def pytest_report_header(self, config: pytest.Config) -> list[str]:
        if not self.announce:
            return []
        lines = [self.describe()]
        if not self.settings.agent_uses_model and not self.settings.user_uses_model:
            lines.append("pytest-tau: no --model given: offline self-check (no API key needed)")
        lines.append(f"pytest-tau: run directory {self.run_dir}")
        return lines

    # -- what this session must account for ---------------------------------------------
    @pytest.hookimpl(trylast=True)
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        """Without xdist: the selected items, after every deselection (-k, -m, --resume)."""
        for item in session.items:
            callspec = getattr(item, "callspec", None)
            case = callspec.params.get("tau_case") if callspec is not None else None
            if case is None or not hasattr(case, "item_id"):
                continue
            self.scheduled[case.item_id] = Scheduled(
                case.item_id, item.nodeid, case.domain.name, case.task.id, case.trial, case.seed
            )

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """With xdist: the controller collects nothing; every worker sends the same node ids."""
        if self.scheduled:
            return
        domains = self._domain_names()
        for nodeid in ids:
            scheduled = scheduled_from_nodeid(nodeid, domains, self.settings.seed)
            if scheduled is not None:
                self.scheduled[scheduled.item] = scheduled

    def _domain_names(self) -> list[str]:
        from ._domain import DomainError
        from .tau2 import DOMAINS as TAU2_DOMAINS

        try:
            from ._discovery import domain_names

            names = domain_names(self.config.rootpath)
        except DomainError:
            names = []
        # Domains defined elsewhere (a plugin, a conftest): their names are on their markers.
        for line in self.config.getini("markers"):
            name, _, text = line.partition(":")
            if text.strip().startswith("the tasks of the"):
                names.append(name.strip())
        return sorted({*names, *TAU2_DOMAINS})

    def _lost(self, scheduled: Scheduled, why: str) -> ItemResult:
        return ItemResult(
            item=scheduled.item,
            domain=scheduled.domain,
            task=scheduled.task,
            trial=scheduled.trial,
            seed=scheduled.seed,
            status="error",
            end_reason="error",
            error=redact(why)[:2000],
            nodeid=scheduled.nodeid,
        )

    # -- results as they arrive ------------------------------------------------------
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        data = getattr(report, "tau_result", None)
        if data is None:
            # A failed report that carries no result: a worker that died while running the
            # item (xdist reports it so). The item is an error, never silently left out.
            lost = self._scheduled_by_nodeid(report.nodeid) if report.failed else None
            if lost is not None and lost.item not in self.counted:
                reason = report.longreprtext.strip().splitlines()[-1:] or ["the process running it ended"]
                self._store(self._lost(lost, f"no result: {reason[0]} (lost item; rerun it with --resume)"))
            return
        self._store(ItemResult.model_validate(data))

    def _scheduled_by_nodeid(self, nodeid: str) -> Scheduled | None:
        for scheduled in self.scheduled.values():
            if scheduled.nodeid == nodeid:
                return scheduled
        return scheduled_from_nodeid(nodeid, self._domain_names(), self.settings.seed) if self.scheduled else None

    def _store(self, result: ItemResult) -> None:
        earlier = self.counted.get(result.item)
        if earlier is not None:
            # --reruns: the last attempt is the item's verdict (as the terminal and JUnit show it); each
            # attempt's line keeps its own usage, which the summary adds up (every attempt was paid for),
            # and the earlier attempts keep their trajectories.
            self.rerun_items.add(result.item)
            result = result.model_copy(update={"attempts": earlier.attempts + 1})
        self.counted[result.item] = result
        self.results.append(result)
        if result.error and result.error.startswith(FATAL_PREFIX) and self.fatal is None:
            # A rejected key, an unknown model, an unreachable endpoint: stop every worker now.
            self.fatal = result.error
            dsession = self.config.pluginmanager.get_plugin("dsession")
            if dsession is not None and not dsession.shouldstop:
                dsession.shouldstop = f"pytest-tau: {result.error}"
        if self._results_file is None:
            self.run_dir.mkdir(parents=True, exist_ok=True)
            path = self.run_dir / "results.jsonl"
            if path.is_file():
                data = path.read_bytes()
                if data and not data.endswith(b"\n"):
                    # A killed run left half a line (its item has no result): cut it, so the
                    # file stays all readable lines.
                    os.truncate(path, data.rfind(b"\n") + 1)
            self._results_file = open(path, "ab")  # noqa: SIM115 - open for the run
            from ._runinfo import write_run_info

            write_run_info(self.run_dir, self.settings)
        # Appended and flushed per item: a crash loses nothing already finished.
        self._results_file.write(orjson.dumps(redact_json(result.model_dump(mode="json"))) + b"\n")
        self._results_file.flush()
        self.config.hook.pytest_tau_item_result(config=self.config, result=result)

    # -- roll-up -----------------------------------------------------------------------
    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        stopped = _stopped(session, exitstatus)
        listing = self.config.option.collectonly  # --collect-only: nothing was meant to run
        missing = [] if listing else [s for item, s in sorted(self.scheduled.items()) if item not in self.counted]
        if missing and stopped:
            # Never started: the run stopped before them (-x, --maxfail, Ctrl-C); it is incomplete.
            stopped += f"; {len(missing)} selected item(s) not run"
        elif missing:
            # Selected, not stopped, and still no result: lost between playing and reporting
            # (a worker gone, xdist out of replacements). Errors, so the run is incomplete.
            why = "no result: the process running it ended before reporting (lost item; rerun it with --resume)"
            for scheduled in missing:
                result = self._lost(scheduled, why)
                self.unreported[result.item] = result
                self._store(result)
        if self._results_file is not None:
            self._results_file.close()
        if not self.results and exitstatus != pytest.ExitCode.INTERRUPTED:
            return
        # Ctrl-C before any item finished still leaves its run directory and summary.
        self.run_dir.mkdir(parents=True, exist_ok=True)
        settings = redact_json(self.settings.model_dump(mode="json"))
        self.summary = summarize(self.results, self.settings.trials, settings, stopped=stopped)
        s = self.settings
        self.summary.model = redact(s.model) if s.model and s.agent_uses_model else None
        self.summary.user_model = redact(s.user_model) if s.user_model and s.user_uses_model else None
        from ._gate import evaluate_gate
        from ._reports import write_run_outputs

        finder = self.config.pluginmanager.get_plugin(PARTIAL_PLUGIN)
        partial = finder.reason() if finder is not None else None
        self.summary.partial = partial
        self.gate = evaluate_gate(self.summary, self.results, s.trials, self.gate_options, partial)
        self._junit(self.summary)
        html = self.config.getoption("tau_html", None)
        html_path = self.config.rootpath / html if html else self.run_dir / "report.html"
        self.html_path = write_run_outputs(self.run_dir, self.summary, self.gate, self.results, html_path, [self.run_dir])
        self.config.hook.pytest_tau_run_summary(config=self.config, summary=self.summary)

    def exit_status(self, exitstatus: int) -> int:
        """The run's exit code once its summary is known."""
        if self.fatal is not None:
            return pytest.ExitCode.USAGE_ERROR  # like a missing key at start: fix the setup, not the model
        if self.summary is None:
            return exitstatus
        if self.summary.errors or self.summary.stopped:
            return EXIT_INCOMPLETE if self.summary.errors else exitstatus
        if self.gate is not None and self.gate.failed:
            return EXIT_GATE
        if self.summary.failed and exitstatus in (pytest.ExitCode.OK, pytest.ExitCode.NO_TESTS_COLLECTED):
            return pytest.ExitCode.TESTS_FAILED  # failures of earlier sessions (--resume) still count
        if self.settings.resume and exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            return pytest.ExitCode.OK  # resuming a finished run: nothing left to do
        return exitstatus


    def gate_lines(self, code: int) -> list[tuple[str, dict[str, bool]]]:
        """What the gate says, in words that agree with the exit code `code`."""
        gate = self.gate
        if gate is None or not gate.configured:
            return []
        red, green = {"red": True, "bold": True}, {"green": True}
        lines: list[tuple[str, dict[str, bool]]] = []
        for scope, ks in gate.intervals.items():
            shown = [f"pass^{k} [{iv[0]:.3f}, {iv[1]:.3f}]" for k, iv in ks.items() if iv]
            if shown:
                lines.append((f"95% interval over tasks, {scope}: " + ", ".join(shown), {}))
        for c in gate.comparisons:
            lines.append((f"vs baseline: pass^{c.k} {c.delta:+.3f} over {c.tasks} paired tasks, 95% interval [{c.interval[0]:+.3f}, {c.interval[1]:+.3f}]", {}))
        lines += [(line, {}) for line in detectable_lines(gate, self.gate_options.regression, self.settings.trials)]
        judged = code not in (EXIT_INCOMPLETE, pytest.ExitCode.USAGE_ERROR, pytest.ExitCode.INTERRUPTED) and not (
            self.summary is not None and self.summary.stopped
        )
        for failure in gate.failures:
            if code == EXIT_GATE:
                lines.append((f"GATE FAILED (exit {EXIT_GATE}): {redact(failure)}", red))
            else:
                lines.append((f"gate failed too (the exit code is {code}: the run is incomplete, which comes first): {redact(failure)}", red))
        if not gate.failed:
            if judged:
                lines.append(("gate passed", green))
            else:
                lines.append((f"gate not judged: the run is incomplete (exit {code}); finish it with --resume={self.run_dir}", red))
        return lines

    def _junit(self, summary: RunSummary) -> None:
        from _pytest.junitxml import xml_key

        from ._junit import shape_junit

        xml = self.config.stash.get(xml_key, None)
        if xml is not None:
            # --resume: the items finished in earlier sessions are in the file too.
            earlier: dict[str, ItemResult] = dict(self.unreported)  # lost items: a testcase each
            for result in self.results:
                if result.item not in self.counted:
                    earlier[result.item] = result
            nodeids = {r.item: r.nodeid for r in self.results if r.nodeid}
            shape_junit(xml, self.counted, summary, self.settings, earlier=earlier, nodeids=nodeids)

    def pytest_terminal_summary(self, terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
        summary = self.summary
        if summary is None:
            return
        write = terminalreporter.write_line
        terminalreporter.section("pytest-tau: pass^k")
        write(self.describe())
        ks = list(range(1, summary.trials + 1))
        header = f"{'domain':<16}{'tasks':>6}{'items':>7}{'errors':>7}" + "".join(f"{'pass^' + str(k):>9}" for k in ks)
        write(header)
        for name, domain in summary.domains.items():
            cells = "".join(f"{_format_k(domain.pass_hat_k[k]):>9}" for k in ks)
            write(f"{name:<16}{domain.tasks:>6}{domain.items:>7}{domain.errors:>7}{cells}")
        total_tasks = sum(d.tasks for d in summary.domains.values())
        cells = "".join(f"{_format_k(summary.pass_hat_k[k]):>9}" for k in ks)
        write(f"{'overall':<16}{total_tasks:>6}{summary.items:>7}{summary.errors:>7}{cells}", bold=True)
        a, u = summary.agent_usage, summary.user_usage
        write(
            f"cost ${summary.cost:.4f}: agent {_calls(a)}, {a.prompt_tokens}+{a.completion_tokens} tokens, "
            f"${a.cost:.4f}; user {_calls(u)}, {u.prompt_tokens}+{u.completion_tokens} tokens, ${u.cost:.4f}"
        )
        limited = {reason: summary.end_reasons.get(reason, 0) for reason in ("context_overflow", "max_tokens")}
        if any(limited.values()):
            write(
                f"model limits: {limited['context_overflow']} conversation(s) overflowed the agent model's context window, "
                f"{limited['max_tokens']} were cut at --max-tokens; scored 0 and counted in pass^k",
                yellow=True,
            )
        short = [f"{name}/{task}" for name, d in summary.domains.items() for task in d.short_tasks]
        if short:
            write(
                f"warning: {len(short)} task(s) have fewer scored trials than the {summary.trials} asked "
                f"(errors or selection): {', '.join(short[:10])}{' ...' if len(short) > 10 else ''}",
                yellow=True,
            )
        if self.rerun_items:
            write(
                f"--reruns: {len(self.rerun_items)} item(s) were run again; their last attempt is scored, "
                "the cost counts every attempt, earlier attempts are in trajectories/<item>.attempt<N>.json "
                "(a rerun turns pass^1 into best-of-n: use --trials for repeated measurement)",
                yellow=True,
            )
        code = self.exit_status(exitstatus)
        for line, style in self.gate_lines(code):
            write(line, **style)
        if summary.partial:
            write(f"PARTIAL: {summary.partial}; summary.json says partial", yellow=True)
        if self.fatal is not None:
            write(f"STOPPED: {self.fatal}", red=True, bold=True)
        elif summary.stopped:
            write(f"INCOMPLETE: the run stopped early ({summary.stopped}); summary.json says complete: false", red=True, bold=True)
        if summary.errors and self.fatal is not None:
            write(
                f"INCOMPLETE: {summary.errors} item(s) did not run (exit code {code}: fix the setup above, "
                f"then finish the run with --resume={self.run_dir})",
                red=True,
                bold=True,
            )
        elif summary.errors:
            write(
                f"INCOMPLETE: {summary.errors} item(s) ended in infrastructure errors and are left out of pass^k "
                f"(exit code {EXIT_INCOMPLETE}; rerun them with --resume={self.run_dir})",
                red=True,
                bold=True,
            )
        write(f"results: {self.run_dir / 'results.jsonl'}  summary: {self.run_dir / 'summary.json'}")
        if self.html_path is not None:
            write(f"html report: {self.html_path}")


def _stopped(session: pytest.Session, exitstatus: int) -> str | None:
    """Why the run stopped before every selected item ran (-x, --maxfail, Ctrl-C), or None."""
    if exitstatus == pytest.ExitCode.INTERRUPTED:
        return "interrupted" + (f": {session.shouldstop}" if isinstance(session.shouldstop, str) else "")
    for reason in (session.shouldfail, session.shouldstop):
        if reason:
            return reason if isinstance(reason, str) else "stopped"
    return None


class TauExitStatus:
    """Sets the exit code after every other sessionfinish (syrupy, for one, ORs its own in)."""

    def __init__(self, controller: TauController) -> None:
        self.controller = controller

    @pytest.hookimpl(wrapper=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> Any:
        result = yield
        session.exitstatus = self.controller.exit_status(session.exitstatus)
        return result
