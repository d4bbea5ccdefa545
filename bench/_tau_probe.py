"""A pytest plugin for the benchmarks: what each process saw, written to a folder.

    PYTHONPATH=bench TAU_BENCH_PROBE_DIR=/tmp/probe pytest -p _tau_probe ...

Every process (the xdist controller and each worker, or the single process without
xdist) writes `<worker>.json` at session finish: its peak RSS (`ru_maxrss`, KiB on
Linux), whether litellm was imported, and per item run in it the wall-clock start and
end of the runtest protocol (time.time(), comparable across processes), the
session start, and the process's CPU seconds (every thread) from the end of collection
to session finish: the items' share, without start-up and imports. Nothing is written if TAU_BENCH_PROBE_DIR is unset.
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

import pytest

_ITEMS: list[tuple[str, float, float]] = []
_STARTED = time.time()
_CPU_AT_COLLECTED: list[float] = []


def pytest_collection_finish(session: pytest.Session) -> None:
    _CPU_AT_COLLECTED.append(time.process_time())


def _worker() -> str:
    return os.environ.get("PYTEST_XDIST_WORKER", "controller")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: Any) -> Any:
    started = time.time()
    try:
        return (yield)
    finally:
        _ITEMS.append((item.name, started, time.time()))


def pytest_sessionfinish(session: pytest.Session) -> None:
    folder = os.environ.get("TAU_BENCH_PROBE_DIR")
    if not folder:
        return
    worker = _worker()
    record = {
        "worker": worker,
        "pid": os.getpid(),
        "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "litellm": "litellm" in sys.modules,
        "started": _STARTED,
        "items": _ITEMS,
        "cpu_items": time.process_time() - _CPU_AT_COLLECTED[0] if _CPU_AT_COLLECTED else 0.0,
    }
    Path(folder).mkdir(parents=True, exist_ok=True)
    (Path(folder) / f"{worker}.json").write_text(json.dumps(record))
