"""Collection time: `pytest --collect-only -q` over every domain (tests_domains).

    python bench/collection.py [--runs 3] [--trials 4] [--items 10000] [--no-bytecode] [-- pytest args]

Runs collect-only in a subprocess (`-p no:cacheprovider`, run directory in a temporary
folder) twice: at `--trials 4`, and at the smallest `--trials` that gives at least
`--items` items (10,000 by default). For each it prints the items collected, the median
wall time of the whole process (interpreter start, plugin import, domain import, DB and
task loading, parametrization, printing the ids) and the median of pytest's own
"collected in X s" figure (from its session start to the end of collection), over
`--runs` runs, after one warm-up run. Target: < 2 s.

Bytecode: by default the runs write and reuse compiled bytecode (and pytest's rewritten
test modules) in a temporary PYTHONPYCACHEPREFIX, as an ordinary install does after its
first run; `--no-bytecode` keeps PYTHONDONTWRITEBYTECODE=1 (every module compiled from
source on every run, as in a sandbox that sets it). Extra pytest arguments go after `--`
(e.g. `-- -p no:hypothesispytest` to leave out hypothesis's plugin, present with `[dev]`).

The last line is the overall figure:
`collection: N items in X s wall (pytest Y s) at --trials 4; M items in X s wall (pytest Y s)`.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYTHON = sys.executable
COLLECTED = re.compile(r"(\d+) tests? collected in ([\d.]+)s")


def environment(tmp: Path, bytecode: bool) -> dict[str, str]:
    env = dict(os.environ)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(tmp / "pycache")
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def collect(trials: int, tmp: Path, env: dict[str, str], extra: list[str]) -> tuple[int, float, float]:
    """One collect-only run: (items, wall seconds, pytest's reported seconds)."""
    cmd = [PYTHON, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "--trials", str(trials), "--run-dir", str(tmp / "run"), *extra]
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env)
    wall = time.perf_counter() - started
    match = COLLECTED.search(proc.stdout.splitlines()[-1] if proc.stdout.strip() else "")
    if proc.returncode != 0 or match is None:
        sys.exit(f"collect-only failed (exit {proc.returncode}): {' '.join(cmd)}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    return int(match.group(1)), wall, float(match.group(2))


def measure(trials: int, runs: int, tmp: Path, env: dict[str, str], extra: list[str]) -> tuple[int, float, float]:
    results = [collect(trials, tmp, env, extra) for _ in range(runs)]
    items = {r[0] for r in results}
    if len(items) != 1:
        sys.exit(f"item count changed between runs: {sorted(items)}")
    wall = statistics.median(r[1] for r in results)
    own = statistics.median(r[2] for r in results)
    print(f"--trials {trials:<4} {items.pop():>7} items   wall {wall:6.2f} s   pytest {own:6.2f} s"
          f"   (runs: {', '.join(f'{r[1]:.2f}' for r in results)})")
    return results[0][0], wall, own


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--no-bytecode", action="store_true", help="PYTHONDONTWRITEBYTECODE=1: compile every module on every run")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments, after --")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tau-bench-") as name:
        tmp = Path(name)
        env = environment(tmp, not args.no_bytecode)
        items, _, _ = collect(1, tmp, env, args.pytest_args)  # warm-up: bytecode cache, file cache
        big_trials = math.ceil(args.items / items)
        mode = "no bytecode cache" if args.no_bytecode else "bytecode cache warm"
        print(f"{items} tasks in the test split at --trials 1; {big_trials} trials give >= {args.items} items; {mode}")
        small = measure(args.trials, args.runs, tmp, env, args.pytest_args)
        big = measure(big_trials, args.runs, tmp, env, args.pytest_args)
    print(f"collection: {small[0]} items in {small[1]:.2f} s wall (pytest {small[2]:.2f} s) at --trials {args.trials}; "
          f"{big[0]} items in {big[1]:.2f} s wall (pytest {big[2]:.2f} s); median of {args.runs}, {mode}")


if __name__ == "__main__":
    main()
