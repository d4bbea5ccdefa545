"""Shared by the bench scripts: run pytest on this project in a subprocess, read its files."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
PYTHON = sys.executable


def run_pytest(args: list[str], tmp: Path, *, probe: bool = True, timeout: float = 600) -> tuple[subprocess.CompletedProcess[str], float]:
    """`pytest <args>` in the project root with the probe plugin (its files in tmp/probe) and
    the run directory tmp/run; returns the process and its wall time. Exits with the
    command and its output tail if pytest failed to run (exit codes 2..5)."""
    env = dict(os.environ)
    env.pop("OPENAI_API_KEY", None)
    cmd = [PYTHON, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--run-dir", str(tmp / "run"), *args]
    if probe:
        env["PYTHONPATH"] = os.pathsep.join([str(BENCH), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
        env["TAU_BENCH_PROBE_DIR"] = str(tmp / "probe")
        cmd[3:3] = ["-p", "_tau_probe"]
    started = time.perf_counter()
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired as exc:
        sys.exit(f"pytest timed out after {timeout:.0f} s: {' '.join(cmd)}\n{(exc.stdout or b'')[-2000:]!r}")
    wall = time.perf_counter() - started
    if proc.returncode not in (0, 1, 6):  # 0 all passed, 1 some failed, 6 incomplete (errors)
        sys.exit(f"pytest failed to run (exit {proc.returncode}): {' '.join(cmd)}\n"
                 f"--- stdout (tail)\n{proc.stdout[-3000:]}\n--- stderr (tail)\n{proc.stderr[-3000:]}")
    return proc, wall


class CpuSplit:
    """CPU seconds of the pytest run (its process and every process it waited for: xdist
    workers) and of this process (the fake model server's threads), read separately, since
    both share the machine's cores. Use as a context manager around `run_pytest`."""

    def __enter__(self) -> CpuSplit:
        import resource

        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        self._children = usage.ru_utime + usage.ru_stime
        self._own = time.process_time()
        return self

    def __exit__(self, *exc: object) -> None:
        import resource

        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.harness = usage.ru_utime + usage.ru_stime - self._children
        self.server = time.process_time() - self._own


def results(tmp: Path) -> list[dict[str, Any]]:
    """The lines of results.jsonl (an unreadable line is reported, not skipped)."""
    path = tmp / "run" / "results.jsonl"
    if not path.is_file():
        sys.exit(f"no results file at {path}")
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def probes(tmp: Path) -> list[dict[str, Any]]:
    """The records the probe plugin wrote, one per process."""
    return [json.loads(p.read_text()) for p in sorted((tmp / "probe").glob("*.json"))]


def summary_line(proc: subprocess.CompletedProcess[str]) -> str:
    """pytest's last line ('== 64 passed in 3.2s ==')."""
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    return lines[-1].strip("= ") if lines else "(no output)"


class Stamped:
    """A server handler wrapper: the wall-clock time (time.time()) of each answered request.
    The server calls the handler only for requests it answers 200 (after any latency)."""

    def __init__(self, handler: Any) -> None:
        import threading

        self.handler = handler
        self.stamps: list[float] = []
        self.lock = threading.Lock()

    def __call__(self, request: dict[str, Any]) -> Any:
        reply = self.handler(request)
        with self.lock:
            self.stamps.append(time.time())
        return reply


@contextmanager
def server_process(serve: Callable[..., None], *args: Any) -> Iterator[str]:
    """`serve(*args, ready, stop)` in its own process, so the fake model's CPU is not the
    harness's: it puts its URL on `ready` and serves until `stop` is set. Yields the URL."""
    ready: Any = multiprocessing.Queue()
    stop = multiprocessing.Event()
    server = multiprocessing.Process(target=serve, args=(*args, ready, stop), daemon=True)
    server.start()
    try:
        yield ready.get(timeout=120)
    finally:
        stop.set()
        server.join(timeout=10)
