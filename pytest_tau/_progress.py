"""A progress line for long runs: items done/total, running pass rate, cost, retries, ETA.

Where it goes (`--tau-progress`, default `auto`):

- `live` (auto on an interactive terminal: stdout is a TTY, `$CI` unset, not `-q`): one
  line kept just below pytest's own output and redrawn in place (ANSI: erase, line down,
  line up, back to pytest's column) at most every `LIVE_EVERY` seconds, erased at the end.
- `plain` (auto when stdout is not a TTY or `$CI` is set, e.g. a CI log, not `-q`): a plain
  line `pytest-tau progress: ...` at most every `--tau-progress-interval` seconds (60 by
  default: a heartbeat that shows a long job is alive, under 60 log lines an hour; a run
  shorter than the interval prints none).
- `off` (auto under `-q`).

Runs only in the process that owns the run (the xdist controller), which sees every result.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

__all__ = ["Progress", "Tally", "add_options", "progress_mode", "register"]

LIVE_EVERY = 0.5  # seconds between redraws of the live line
PLAIN_EVERY = 60.0


def add_options(group: Any) -> None:
    group.addoption("--tau-progress", dest="tau_progress", default="auto", choices=("auto", "live", "plain", "off"),
                    help="progress line of a run: live (redrawn on an interactive terminal), plain (a line every "
                         "--tau-progress-interval seconds, for CI logs), off; auto: live on a TTY, plain when "
                         "not a TTY or $CI is set, off under -q (default auto)")
    group.addoption("--tau-progress-interval", dest="tau_progress_interval", type=float, default=PLAIN_EVERY, metavar="S",
                    help=f"seconds between plain progress lines (default {PLAIN_EVERY:g}; 0: after every item)")


def progress_mode(asked: str, *, isatty: bool, ci: bool, verbosity: int) -> str:
    """`live`, `plain` or `off`: what `auto` means here (an explicit choice is kept)."""
    if asked != "auto":
        return asked
    if verbosity < 0:
        return "off"
    return "live" if isatty and not ci else "plain"


def _duration(seconds: float) -> str:
    hours, rest = divmod(round(seconds), 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}h{minutes:02d}m" if hours else (f"{minutes}m{secs:02d}s" if minutes else f"{secs}s")


class Tally:
    """The running numbers (pure: fed results, asked for a line)."""

    def __init__(self, total: int | None = None) -> None:
        self.total = total
        self.done = 0
        self.passed = 0
        self.failed = 0
        self.errors = 0
        self.cost = 0.0
        self.retries = 0  # model-call retries and --reruns attempts
        self.seen: set[str] = set()

    def add(self, result: dict[str, Any]) -> None:
        item = str(result.get("item"))
        if item in self.seen:
            self.retries += 1  # a --reruns attempt: the first one counted
            return
        self.seen.add(item)
        self.done += 1
        status = result.get("status")
        self.passed += status == "passed"
        self.failed += status == "failed"
        self.errors += status == "error"
        for part in ("agent_usage", "user_usage"):
            usage = result.get(part) or {}
            self.cost += float(usage.get("cost", 0.0) or 0.0)
            self.retries += int(usage.get("retries", 0) or 0)

    def line(self, elapsed: float) -> str:
        total = f"/{self.total}" if self.total else ""
        scored = self.passed + self.failed
        rate = f"pass {self.passed / scored:.3f}" if scored else "pass -"
        parts = [f"{self.done}{total} items", rate, f"${self.cost:.4f}", f"{self.retries} retries"]
        if self.errors:
            parts.append(f"{self.errors} errors")
        if self.total and self.done:
            left = max(self.total - self.done, 0)
            parts.append(f"ETA {_duration(elapsed / self.done * left)}")
        return "pytest-tau progress: " + ", ".join(parts)


class Progress:
    """The plugin: counts each item's result as its report arrives, writes the line."""

    def __init__(self, config: pytest.Config, mode: str, interval: float) -> None:
        self.config = config
        self.mode = mode
        self.interval = interval
        self.tally = Tally()
        self.start: float | None = None
        self.last = 0.0
        self.drawn = False

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        terminal = self._terminal()
        self.mode = progress_mode(
            self.config.getoption("tau_progress", "auto") or "auto",
            isatty=bool(terminal is not None and terminal.isatty),
            ci=bool(os.environ.get("CI")),
            verbosity=self.config.get_verbosity(),
        )
        if terminal is None:
            self.mode = "off"
        if self.mode == "live":
            self.interval = LIVE_EVERY

    # -- the total ---------------------------------------------------------------
    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if self.tally.total is None and session.items:
            self.tally.total = len(session.items)

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        self.tally.total = len(ids)  # every worker collects the same items

    # -- results -----------------------------------------------------------------
    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        if self.start is None:
            self.start = self.last = time.monotonic()  # the first line comes an interval in

    @pytest.hookimpl(trylast=True)  # after the terminal reporter wrote the item's letter
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        data = getattr(report, "tau_result", None)
        if self.mode == "off" or not isinstance(data, dict):
            return
        self.tally.add(data)
        now = time.monotonic()
        if self.start is None:
            self.start = self.last = now
        if now - self.last < self.interval and self.tally.done != self.tally.total:
            return
        self.last = now
        self._write(self.tally.line(now - self.start))

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        self._erase()

    # -- drawing -----------------------------------------------------------------
    def _terminal(self) -> Any:
        return self.config.pluginmanager.get_plugin("terminalreporter")

    def _write(self, line: str) -> None:
        terminal = self._terminal()
        if terminal is None:
            return
        if self.mode == "plain":
            terminal.ensure_newline()
            if terminal._tw.width_of_current_line > 0:  # xdist writes its letters past ensure_newline's notice
                terminal._tw.line()
            terminal.write_line(line)
            return
        tw = terminal._tw
        column = tw.width_of_current_line
        width = max(tw.fullwidth - 1, 20)
        # Clear pytest's line right of the cursor (the end of a line drawn before), draw the
        # line below it, and go back to where pytest writes next.
        tw.write(f"\x1b[K\n\x1b[2K{line[:width]}\x1b[1A\r" + (f"\x1b[{column}C" if column > 0 else ""), flush=True)
        self.drawn = True

    def _erase(self) -> None:
        if not self.drawn:
            return
        terminal = self._terminal()
        if terminal is not None:
            tw = terminal._tw
            column = tw.width_of_current_line
            tw.write("\x1b[K\n\x1b[2K\x1b[1A\r" + (f"\x1b[{column}C" if column > 0 else ""), flush=True)
        self.drawn = False


def register(config: pytest.Config) -> None:
    """Hook the progress line up in the process that owns the run (the mode is settled at
    session start, when the terminal reporter exists)."""
    interval = config.getoption("tau_progress_interval", PLAIN_EVERY)
    progress = Progress(config, "auto", PLAIN_EVERY if interval is None else float(interval))
    config.pluginmanager.register(progress, "tau-progress")
