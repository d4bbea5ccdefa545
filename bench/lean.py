"""Lean workers: memory per MB of DB, the whole run's RSS over every domain, the first item.

    python bench/lean.py [--tasks-per-domain 4] [--concurrency 16] [--workers 2] [--skip-db]

1. DB form: in a fresh interpreter each, every domain's db.json validated as before this
   change (`model_validate`, records as pydantic built them) and as the engine holds it now
   (`Domain.initial_db`: validated, then `compact`); the RSS it adds, per MB of db.json.
2. Whole run: `-n 2 --concurrency 16` (32 conversations in flight) with the loopback fake
   model (pytest_tau.testing.OpenAIServer + OracleModel playing agent and user), the first
   test tasks of each domain, over the first third of the domains and all of them (`--domains`). Every
   process's peak RSS comes from the probe plugin (bench/_tau_probe.py); the run's RSS is
   their sum. A line through the two runs gives MiB per added domain and the
   extrapolation. "1st item": from launching pytest to the first item that finished
   (probe stamps, wall clock).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import PYTHON, ROOT, probes, results, run_pytest, summary_line

from pytest_tau import discover_domains
from pytest_tau.testing import OpenAIServer, OracleModel

_DB_PROBE = """
import gc, json, sys, orjson
from pathlib import Path
from pytest_tau import discover_domains

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024

domains = discover_domains(Path(sys.argv[2]))
for domain in domains.values():
    domain.tasks  # noqa: B018 - not part of the DB
gc.collect()
before, size, keep = rss(), 0, []
for domain in domains.values():
    size += domain.db_path.stat().st_size
    if sys.argv[1] == "before":
        keep.append(domain.db_model.model_validate(orjson.loads(domain.db_path.read_bytes())))
    else:
        keep.append(domain.initial_db)
gc.collect()
print(json.dumps({"mib": rss() - before, "mb": size / 1e6, "domains": len(domains)}))
"""


def db_form() -> None:
    figures = {}
    for mode in ("before", "compact"):
        out = subprocess.run([PYTHON, "-c", _DB_PROBE, mode, str(ROOT)], cwd=ROOT, capture_output=True, text=True, check=True)
        figures[mode] = json.loads(out.stdout)
        f = figures[mode]
        print(f"DB form {mode:<8}: {f['domains']} domains, {f['mb']:.1f} MB of db.json -> {f['mib']:.0f} MiB RSS, "
              f"{f['mib'] / f['mb']:.2f} MiB per MB")
    ratio = figures["compact"]["mib"] / figures["before"]["mib"]
    print(f"DB form: compact holds {ratio:.2f}x the memory of pydantic's plain records")


def whole_run(names: list[str], tests: dict[str, list[str]], server_url: str, args: argparse.Namespace) -> dict[str, Any]:
    task_ids = sorted({i for name in names for i in tests[name][: args.tasks_per_domain]})
    expected = sum(len([t for t in tests[name] if t in task_ids]) for name in names)
    cmd = ["-n", str(args.workers), "--concurrency", str(args.concurrency), "--domains", ",".join(names),
           "--model", "openai/fake", "--api-base", server_url, "--task-ids", ",".join(task_ids)]
    with tempfile.TemporaryDirectory(prefix="tau-bench-") as name:
        tmp = Path(name)
        launched = time.time()
        proc, wall = run_pytest(cmd, tmp)
        lines = results(tmp)
        records = probes(tmp)
    passed = sum(r["status"] == "passed" for r in lines)
    if passed != expected:
        errors = "\n".join(f"  {r['item']}: {r.get('error') or r['status']}" for r in lines if r["status"] != "passed")
        sys.exit(f"{len(names)} domains: expected {expected} passed items, got {passed} of {len(lines)}\n{summary_line(proc)}\n{errors}")
    ends = [end for r in records for _, _, end in r["items"]]
    total = sum(r["maxrss_kib"] for r in records) / 1024
    first = min(ends) - launched if ends else float("nan")
    print(f"{len(names):>2} domains, {expected} items: {summary_line(proc)} (wall {wall:.1f} s); run RSS {total:.0f} MiB; 1st item {first:.1f} s")
    for r in records:
        print(f"     {r['worker']:<11} {r['maxrss_kib'] / 1024:7.1f} MiB  items {len(r['items']):>4}  litellm imported: {r['litellm']}")
    return {"domains": len(names), "mib": total, "first": first}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tasks-per-domain", type=int, default=4)
    parser.add_argument("--concurrency", type=int, default=16, help="conversations per process")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--skip-db", action="store_true", help="only the whole-run figures")
    args = parser.parse_args()
    if not args.skip_db:
        db_form()
    domains = discover_domains(ROOT)
    names = sorted(domains)  # OracleModel plays dual-control customers too (their own tools)
    tests = {name: [t.id for t in d.tasks if t.split == "test"] for name, d in domains.items()}
    steps = sorted({max(1, len(names) // 3), len(names)})
    with OpenAIServer(OracleModel(domains.values())) as server:
        runs = [whole_run(names[:n], tests, server.url, args) for n in steps]
    xs = [r["domains"] for r in runs]
    ys = [r["mib"] for r in runs]
    mean_x, mean_y = sum(xs) / len(xs), sum(ys) / len(ys)
    var = sum((x - mean_x) ** 2 for x in xs)
    slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / var if var else 0.0
    base = mean_y - slope * mean_x
    in_flight = args.workers * args.concurrency
    print(f"whole run, -n {args.workers} --concurrency {args.concurrency} ({in_flight} in flight): "
          + ", ".join(f"{r['domains']} domains {r['mib']:.0f} MiB (1st item {r['first']:.1f} s)" for r in runs))
    print(f"fit: {base:.0f} MiB + {slope:.1f} MiB per domain -> 27 domains {base + 27 * slope:.0f} MiB, "
          f"54 domains {base + 54 * slope:.0f} MiB (targets: <= 1536 MiB over all domains, < 2048 MiB for 27)")


if __name__ == "__main__":
    main()
