"""The controller's role: collect results as items finish, roll up, report.

Registered only in the process that owns the run (without xdist: the only one; with
xdist: the controller), so results.jsonl has exactly one writer.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
import pytest

from ._redact import redact, redact_json
from ._results import ItemResult, RunSummary, read_results, summarize

if TYPE_CHECKING:
    from ._settings import Settings

__all__ = ["TauController", "TauExitStatus", "EXIT_INCOMPLETE"]

# The exit code of a run with items that ended in infrastructure errors: its scores are
# incomplete, which a CI job must tell apart from a model that failed tasks (exit 1).
EXIT_INCOMPLETE = 6


def _format_k(value: float | None) -> str:
    return "  -  " if value is None else f"{value:.3f}"


class TauController:
    def __init__(self, config: pytest.Config, settings: Settings, run_dir: Path, *, announce: bool = True) -> None:
        self.config = config
        self.announce = announce
        self.settings = settings
        self.run_dir = run_dir
        # --resume: the earlier results count in this run's summary (the last per item wins).
        self.results: list[ItemResult] = read_results(run_dir / "results.jsonl") if settings.resume else []
        self.summary: RunSummary | None = None
        self._results_file: Any = None

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

    # -- results as they arrive ------------------------------------------------------
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        data = getattr(report, "tau_result", None)
        if data is None or report.outcome == "rerun":
            return
        result = ItemResult.model_validate(data)
        self.results.append(result)
        if self._results_file is None:
            self.run_dir.mkdir(parents=True, exist_ok=True)
            path = self.run_dir / "results.jsonl"
            self._results_file = open(path, "ab")  # noqa: SIM115 - open for the run
            if path.stat().st_size and not path.read_bytes().endswith(b"\n"):
                self._results_file.write(b"\n")  # a killed run may have left half a line
        # Appended and flushed per item: a crash loses nothing already finished.
        self._results_file.write(orjson.dumps(redact_json(result.model_dump(mode="json"))) + b"\n")
        self._results_file.flush()
        self.config.hook.pytest_tau_item_result(config=self.config, result=result)

    # -- roll-up -----------------------------------------------------------------------
    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> None:
        if self._results_file is not None:
            self._results_file.close()
        if not self.results:
            return
        settings = redact_json(self.settings.model_dump(mode="json"))
        self.summary = summarize(self.results, self.settings.trials, settings)
        (self.run_dir / "summary.json").write_bytes(
            orjson.dumps(self.summary.model_dump(mode="json"), option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS)
        )
        self._junit(self.summary)
        self.config.hook.pytest_tau_run_summary(config=self.config, summary=self.summary)

    def exit_status(self, exitstatus: int) -> int:
        """The run's exit code once its summary is known."""
        if self.summary is None:
            return exitstatus
        if self.summary.errors:
            return EXIT_INCOMPLETE
        if self.settings.resume and exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
            return pytest.ExitCode.OK  # resuming a finished run: nothing left to do
        return exitstatus


    def _junit(self, summary: RunSummary) -> None:
        from _pytest.junitxml import xml_key

        xml = self.config.stash.get(xml_key, None)
        if xml is None:
            return
        # Reruns leave one <testcase> per attempt, which CI reads as passes: keep the last.
        # (Finalized reporters keep only their XML element, so key on its attributes.)
        def key(reporter: Any) -> tuple[str, str]:
            element = reporter.to_xml()
            return element.get("classname", ""), element.get("name", "")

        last = {key(reporter): reporter for reporter in xml.node_reporters_ordered}
        xml.node_reporters_ordered[:] = [r for r in xml.node_reporters_ordered if last[key(r)] is r]
        for name, value in _suite_properties(summary):
            xml.add_global_property(name, value)

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
            f"cost ${summary.cost:.4f}: agent {a.calls} calls, {a.prompt_tokens}+{a.completion_tokens} tokens, "
            f"${a.cost:.4f}; user {u.calls} calls, {u.prompt_tokens}+{u.completion_tokens} tokens, ${u.cost:.4f}"
        )
        short = [f"{name}/{task}" for name, d in summary.domains.items() for task in d.short_tasks]
        if short:
            write(
                f"warning: {len(short)} task(s) have fewer scored trials than the {summary.trials} asked "
                f"(errors or selection): {', '.join(short[:10])}{' ...' if len(short) > 10 else ''}",
                yellow=True,
            )
        if summary.errors:
            write(
                f"INCOMPLETE: {summary.errors} item(s) ended in infrastructure errors and are left out of pass^k "
                f"(exit code {EXIT_INCOMPLETE}; rerun them with --resume {self.run_dir})",
                red=True,
                bold=True,
            )
        write(f"results: {self.run_dir / 'results.jsonl'}  summary: {self.run_dir / 'summary.json'}")


def _suite_properties(summary: RunSummary) -> list[tuple[str, str]]:
    props = [
        ("tau.items", str(summary.items)),
        ("tau.passed", str(summary.passed)),
        ("tau.failed", str(summary.failed)),
        ("tau.errors", str(summary.errors)),
        ("tau.complete", str(summary.complete).lower()),
        ("tau.cost", f"{summary.cost:.6f}"),
    ]
    for k, value in summary.pass_hat_k.items():
        props.append((f"tau.pass^{k}", _format_k(value).strip()))
    for name, domain in summary.domains.items():
        for k, value in domain.pass_hat_k.items():
            props.append((f"tau.{name}.pass^{k}", _format_k(value).strip()))
    return props


class TauExitStatus:
    """Sets the exit code after every other sessionfinish (syrupy, for one, ORs its own in)."""

    def __init__(self, controller: TauController) -> None:
        self.controller = controller

    @pytest.hookimpl(wrapper=True)
    def pytest_sessionfinish(self, session: pytest.Session, exitstatus: int) -> Any:
        result = yield
        session.exitstatus = self.controller.exit_status(session.exitstatus)
        return result
