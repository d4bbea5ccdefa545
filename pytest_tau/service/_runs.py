"""Runs: plain pytest processes with the plugin, started from a bounded queue.

Each run lives in `<runs>/<id>/`: `run.json` (its request and status), `run.yaml` (the
`--tau-config` it runs with), `pytest.log`, `run/` (results.jsonl, summary.json,
trajectories) and `mt/` (the MT-Benchmark files the scores come from).
"""

from __future__ import annotations

import collections
import contextlib
import datetime as dt
import os
import re
import signal
import subprocess
import sys
import threading
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import orjson

from .._redact import redact, redact_json
from ._scores import RunScores, load_run_scores

__all__ = ["QueueFull", "Run", "RunManager", "ServiceConfig", "Status"]

Status = Literal["queued", "running", "finished", "failed", "cancelled"]
FINISHED_CODES = {0: False, 1: False, 6: True}  # exit code -> incomplete (items in infrastructure errors)
_TOTAL = re.compile(rb"collected (\d+) items?|\[(\d+) items?\]")
# Variables of the service itself that its runs have no business seeing.
_SERVICE_VARIABLES = ("TAU_SERVICE_TOKEN", "TAU_SERVICE_TOKEN_FILE")


class QueueFull(Exception):
    pass


@dataclass(frozen=True)
class ServiceConfig:
    project: Path  # the folder with tests_domains/ and fixtures/
    runs: Path  # where runs are kept
    token: str | None  # None: no authentication (only when asked for explicitly)
    max_queue: int = 8
    concurrent_runs: int = 1
    docs: bool = False  # serve /docs and /openapi.json (behind the token); off by default
    workers: int = 0  # xdist workers per run (-n)
    api_bases: tuple[str, ...] = ()  # api_base values a request may use
    start_runs: bool = True  # False: runs stay queued (tests of the HTTP surface)


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


@dataclass
class Run:
    id: str
    request: dict[str, Any]
    folder: Path
    status: Status = "queued"
    created: str = field(default_factory=_now)
    started: str | None = None
    finished: str | None = None
    exit_code: int | None = None
    incomplete: bool = False
    error: str | None = None
    process: subprocess.Popen[bytes] | None = None
    cancel_requested: bool = False

    @property
    def results(self) -> Path:
        return self.folder / "run" / "results.jsonl"

    @property
    def mt(self) -> Path:
        return self.folder / "mt"

    def progress(self) -> dict[str, int | None]:
        done = 0
        if self.results.is_file():
            done = self.results.read_bytes().count(b"\n")
        total = None
        log = self.folder / "pytest.log"
        if log.is_file():
            with open(log, "rb") as handle:
                match = _TOTAL.search(handle.read(65536))
            if match:
                total = int(match.group(1) or match.group(2))
        return {"done": done, "total": total}

    def describe(self) -> dict[str, Any]:
        document = {
            "id": self.id,
            "status": self.status,
            "created": self.created,
            "started": self.started,
            "finished": self.finished,
            "exit_code": self.exit_code,
            "incomplete": self.incomplete,
            "progress": self.progress(),
            "request": self.request,
            "error": self.error,
        }
        described: dict[str, Any] = redact_json(document)
        return described

    def save(self) -> None:
        document = {key: value for key, value in self.describe().items() if key != "progress"}
        temporary = self.folder / "run.json.tmp"
        temporary.write_bytes(orjson.dumps(document, option=orjson.OPT_INDENT_2))
        os.replace(temporary, self.folder / "run.json")


class RunManager:
    def __init__(self, config: ServiceConfig) -> None:
        self.config = config
        self.runs: dict[str, Run] = {}
        self.pending: collections.deque[str] = collections.deque()
        self.lock = threading.Condition()
        self.closed = False
        self._scores: dict[str, RunScores] = {}
        config.runs.mkdir(parents=True, exist_ok=True)
        self._load()
        self.threads = [threading.Thread(target=self._work, name=f"tau-run-{i}", daemon=True) for i in range(config.concurrent_runs)]
        if config.start_runs:
            for thread in self.threads:
                thread.start()

    def _load(self) -> None:
        """Runs of an earlier life of the service: finished ones keep serving scores."""
        for path in sorted(self.config.runs.glob("*/run.json")):
            try:
                data = orjson.loads(path.read_bytes())
                run = Run(
                    id=data["id"], request=data["request"], folder=path.parent, status=data["status"],
                    created=data["created"], started=data.get("started"), finished=data.get("finished"),
                    exit_code=data.get("exit_code"), incomplete=data.get("incomplete", False), error=data.get("error"),
                )
            except (orjson.JSONDecodeError, KeyError, TypeError):
                continue
            if run.status in ("queued", "running"):
                run.status, run.error = "failed", "interrupted: the service stopped before the run finished"
                run.save()
            self.runs[run.id] = run

    # -- API -----------------------------------------------------------------------------
    def submit(self, request: dict[str, Any]) -> Run:
        with self.lock:
            if len(self.pending) >= self.config.max_queue:
                raise QueueFull(f"{len(self.pending)} runs are waiting (the queue holds {self.config.max_queue})")
            run_id = uuid.uuid4().hex
            folder = self.config.runs / run_id
            folder.mkdir(parents=True)
            run = Run(id=run_id, request=request, folder=folder)
            import yaml

            (folder / "run.yaml").write_text(yaml.safe_dump(request, sort_keys=True), encoding="utf-8")
            run.save()
            self.runs[run_id] = run
            self.pending.append(run_id)
            self.lock.notify()
            return run

    def get(self, run_id: str) -> Run | None:
        return self.runs.get(run_id)

    def cancel(self, run_id: str) -> Run | None:
        with self.lock:
            run = self.runs.get(run_id)
            if run is None:
                return None
            if run.status == "queued":
                self.pending.remove(run_id)
                run.status, run.finished = "cancelled", _now()
                run.save()
            elif run.status == "running":
                run.cancel_requested = True
                if run.process is not None:
                    _stop(run.process)
            return run

    def latest_scores(self, model: str | None) -> tuple[Run, RunScores] | None:
        """The latest finished run (that scored `model`, when given) and its scores."""
        with self.lock:
            finished = sorted((r for r in self.runs.values() if r.status == "finished"), key=lambda r: r.finished or "", reverse=True)
        for run in finished:
            scores = self.scores(run)
            if model is None or model in scores.models:
                return run, scores
        return None

    def scores(self, run: Run) -> RunScores:
        """A finished run's scores, read once (a finished run's files do not change)."""
        scores = self._scores.get(run.id)
        if scores is None:
            scores = load_run_scores(run.mt)
            if run.status == "finished":
                self._scores[run.id] = scores
        return scores

    def close(self) -> None:
        with self.lock:
            self.closed = True
            self.lock.notify_all()
            running = [r for r in self.runs.values() if r.status == "running" and r.process is not None]
        for run in running:
            run.cancel_requested = True
            assert run.process is not None
            _stop(run.process)

    # -- the queue's workers ----------------------------------------------------------------
    def _work(self) -> None:
        while True:
            with self.lock:
                while not self.pending and not self.closed:
                    self.lock.wait()
                if self.closed:
                    return
                run = self.runs[self.pending.popleft()]
                run.status, run.started = "running", _now()
                run.save()
                command = self._command(run)
                environment = {k: v for k, v in os.environ.items() if k not in _SERVICE_VARIABLES}
                log = open(run.folder / "pytest.log", "wb")  # noqa: SIM115 - the child writes it
                try:
                    run.process = subprocess.Popen(
                        command, cwd=self.config.project, stdout=log, stderr=subprocess.STDOUT,
                        stdin=subprocess.DEVNULL, env=environment, start_new_session=True,
                    )
                except OSError as exc:
                    log.close()
                    run.status, run.finished, run.error = "failed", _now(), redact(f"cannot start pytest: {exc}")
                    run.save()
                    continue
            code = run.process.wait()
            log.close()
            with self.lock:
                run.exit_code, run.finished, run.process = code, _now(), None
                if run.cancel_requested:
                    run.status = "cancelled"
                elif code in FINISHED_CODES:
                    run.status, run.incomplete = "finished", FINISHED_CODES[code]
                else:
                    run.status, run.error = "failed", _log_tail(run.folder / "pytest.log")
                run.save()

    def _command(self, run: Run) -> list[str]:
        return [
            sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--rootdir", str(self.config.project),
            "-n", str(self.config.workers), f"--tau-config={run.folder / 'run.yaml'}",  # one word: pytest would read a spaced path as a test path
            "--run-dir", str(run.folder / "run"), f"--mt-out={run.mt}", "tests_domains",
        ]


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a run's pytest and its xdist workers (its own process group), hard after 10 s."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return

    def kill_later() -> None:
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)

    threading.Thread(target=kill_later, daemon=True).start()


def _log_tail(path: Path, lines: int = 20) -> str:
    try:
        text = path.read_bytes()[-8192:].decode("utf-8", "replace")
    except OSError:
        return "no log"
    return redact("\n".join(text.strip().splitlines()[-lines:]))
