"""Peak memory (RSS) of each xdist worker, in an oracle run and in a model run.

    python bench/memory.py [--workers 2] [--tasks-per-domain 4]

Both runs load the probe plugin bench/_tau_probe.py (`-p _tau_probe`, bench/ on
PYTHONPATH), which in every process (the xdist controller and each worker) reads
resource.getrusage(RUSAGE_SELF).ru_maxrss at session finish, the peak resident set of
that process over its whole life, and writes it to a file.

- oracle: the offline self-check, every task of every domain (`pytest -n 2`), no model,
  litellm never imported;
- model: the local OpenAI-compatible server (pytest_tau.testing.OpenAIServer) with
  OracleModel(all domains) playing agent and user, `--model openai/fake --api-base URL`,
  which imports litellm in every process; the first 4 test-split tasks of every domain
  (every domain's DB is loaded and validated at collection anyway).

With `--concurrency 32` it also measures the whole run's RSS (the sum of every process's
peak) of a model run with 32 conversations in flight, two ways, next to today's `-n 16`:
`--concurrency 32` in one process and `-n 2 --concurrency 16`.

Prints MiB per process for each mode. The last line gives the largest worker of each
(and the whole-run totals when `--concurrency` is given).
Memory figures do not depend much on the load of the machine, times do (not reported).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import ROOT, probes, results, run_pytest, summary_line

from pytest_tau import discover_domains
from pytest_tau.testing import OpenAIServer, OracleModel


def measure(mode: str, args: list[str], expected: int, *, need_workers: bool = True) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="tau-bench-") as name:
        tmp = Path(name)
        proc, wall = run_pytest(args, tmp)
        lines = results(tmp)
        records = probes(tmp)
    passed = sum(r["status"] == "passed" for r in lines)
    if passed != expected:
        sys.exit(f"{mode}: expected {expected} passed items, got {passed} of {len(lines)}\n{summary_line(proc)}\n{proc.stdout[-2000:]}")
    workers = [r for r in records if r["worker"] != "controller"] if need_workers else records
    if not workers:
        sys.exit(f"{mode}: no worker wrote its figures (is xdist running?)")
    print(f"{mode}: {summary_line(proc)} (wall {wall:.1f} s)")
    for r in records:
        print(f"  {r['worker']:<11} {r['maxrss_kib'] / 1024:7.1f} MiB  items {len(r['items']):>4}  litellm imported: {r['litellm']}")
    return workers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--tasks-per-domain", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=0, help="also measure whole-run RSS at this many conversations")
    args = parser.parse_args()
    domains = discover_domains(ROOT)
    tests = {name: [t.id for t in d.tasks if t.split == "test"] for name, d in domains.items()}
    xdist = ["-n", str(args.workers)]
    oracle = measure("oracle run", xdist, sum(len(ids) for ids in tests.values()))
    picked = {name: ids[: args.tasks_per_domain] for name, ids in tests.items()}
    task_ids = sorted({i for ids in picked.values() for i in ids})
    expected = sum(len([t for t in tests[name] if t in task_ids]) for name in tests)
    totals: list[str] = []
    with OpenAIServer(OracleModel(domains.values())) as server:
        model_args = ["--model", "openai/fake", "--api-base", server.url, "--task-ids", ",".join(task_ids)]
        model = measure("model run", [*xdist, *model_args], expected)
        if args.concurrency:
            n = args.concurrency
            for label, extra in ((f"-n {n // 2} (today)", ["-n", str(n // 2)]),
                                 (f"--concurrency {n}", ["-p", "no:xdist", "--concurrency", str(n)]),
                                 (f"-n 2 --concurrency {n // 2}", ["-n", "2", "--concurrency", str(n // 2)])):
                records = measure(f"model run {label}", [*extra, *model_args], expected, need_workers=False)
                totals.append(f"{label}: {sum(r['maxrss_kib'] for r in records) / 1024:.0f} MiB in {len(records)} processes")

    def per_worker(records: list[dict[str, Any]]) -> str:
        return "/".join(f"{r['maxrss_kib'] / 1024:.0f}" for r in records)

    print(f"peak RSS per worker (-n {args.workers}): oracle run {max(r['maxrss_kib'] for r in oracle) / 1024:.0f} MiB "
          f"({per_worker(oracle)}), model run with litellm {max(r['maxrss_kib'] for r in model) / 1024:.0f} MiB ({per_worker(model)})")
    if totals:
        print(f"whole-run RSS, {len(domains)} domains, model run: " + "; ".join(totals))


if __name__ == "__main__":
    main()
