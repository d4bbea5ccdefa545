"""GET /scores latency of the score service on a 10,000-item run.

Runs the offline benchmark (every domain, --trials 25: 10,075 items) once with --mt-out
into a service runs folder, registers it as a finished run, starts the service
(`python -m pytest_tau.service`, uvicorn on 127.0.0.1) and times GET /scores from one
client: the whole run (~10,000 lines), one subset, one task (exact filter). The first
request of each kind (which reads the run's files) is reported apart.

    python bench/service_scores.py              # the real 10,000-item run (a few minutes)
    python bench/service_scores.py --reuse DIR  # time again over a runs folder made before
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from _common import ROOT, run_pytest

TOKEN = "bench-token-0123456789abcdef"
RUN_ID = "0" * 32


def make_run(runs: Path, trials: int) -> int:
    folder = runs / RUN_ID
    folder.mkdir(parents=True, exist_ok=True)
    proc, wall = run_pytest(["-n", "2", "--trials", str(trials), f"--mt-out={folder / 'mt'}"], folder, probe=False, timeout=3600)
    items = sum(1 for path in (folder / "mt").glob("*/*_scores.jsonl") for _ in path.open("rb"))
    stamp = "2030-01-01T00:00:00"
    (folder / "run.json").write_text(json.dumps({
        "id": RUN_ID, "request": {"trials": trials}, "status": "finished", "created": stamp, "started": stamp,
        "finished": stamp, "exit_code": proc.returncode, "incomplete": False, "error": None,
    }))
    print(f"run: {items} items in {wall:.0f} s")
    return items


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--reuse", type=Path, help="a runs folder from an earlier invocation")
    parser.add_argument("--trials", type=int, default=25)
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args()
    runs = args.reuse or Path(tempfile.mkdtemp(prefix="tau-service-bench-"))
    if args.reuse is None:
        make_run(runs, args.trials)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {**os.environ, "TAU_SERVICE_TOKEN": TOKEN}
    log = open(runs / "service.log", "wb")  # noqa: SIM115
    server = subprocess.Popen(
        [sys.executable, "-m", "pytest_tau.service", "--host", "127.0.0.1", "--port", str(port), "--project", str(ROOT), "--runs", str(runs)],
        env=env, stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=60) as http:
            for _ in range(300):
                try:
                    if http.get("/health").status_code == 200:
                        break
                except httpx.TransportError:
                    time.sleep(0.1)
            first_line = json.loads(http.get("/scores", params={"model": "oracle", "subset": "retail"}).text.splitlines()[0])
            task = first_line["task-id"]
            kinds = {
                "whole run": {"model": "oracle"},
                "one subset (retail)": {"model": "oracle", "subset": "retail"},
                f"one task ({task})": {"model": "oracle", "subset": "retail", "taskID": task[len("task-"):]},
            }
            for name, params in kinds.items():
                started = time.perf_counter()
                response = http.get("/scores", params=params)
                first = (time.perf_counter() - started) * 1000
                assert response.status_code == 200, response.text
                lines = len(response.text.splitlines())
                times = []
                for _ in range(args.requests):
                    started = time.perf_counter()
                    http.get("/scores", params=params).raise_for_status()
                    times.append((time.perf_counter() - started) * 1000)
                times.sort()
                p95 = times[int(0.95 * (len(times) - 1))]
                print(f"GET /scores {name}: {lines} lines, {len(response.content) / 1e6:.1f} MB; "
                      f"median {statistics.median(times):.1f} ms, p95 {p95:.1f} ms (first {first:.1f} ms)")
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()


if __name__ == "__main__":
    main()
