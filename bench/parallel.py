"""Parallel efficiency of a model run whose work is waiting on the model, not computing.

    python bench/parallel.py [--workers 1,4,16] [--domain retail] [--tasks 16] [--trials 3]
                             [--latency 0.2]
    python bench/parallel.py --configs n16,c16,c32,c64,n2c16,n2c32 --tasks 32 --trials 4
    python bench/parallel.py --configs c32,c64,n2c32 --clients openai,litellm

Each config runs once per model client (`--clients`, default both): `openai`, the openai SDK that an
OpenAI-compatible server gets, and `litellm`, forced through PYTEST_TAU_MODEL_CLIENT; side by side.

A config is `nW` (-n W, one conversation per worker: today's way), `cN` (one process,
--concurrency N) or `nWcN` (-n W --concurrency N: W x N conversations in flight); `--workers`
is the old spelling of `nW` configs. The ideal is in-flight conversations / latency.

Starts the local OpenAI-compatible server (pytest_tau.testing.OpenAIServer) with
OracleModel(domain) and Faults(latency=0.2 s per request) in this process, and runs the
same workload at each `-n`: the first 16 test-split tasks of one domain x 3 trials = 48
items (only that domain's folder is collected), `--model openai/fake --api-base URL`
(the real model path; the oracle plays agent and user, about 10 model calls per
item), `-p no:cacheprovider`, run directory in a temporary folder. Every item must
pass. About 4-5 minutes on 2 busy cores, most of it at -n 1.

Method. Model calls are counted from server.requests (successful completions). The
server stamps each request as it answers (time.time(), comparable with the workers'
clocks), so the item phase is measured from the first model request to the last reply:
interpreter start, plugin import, collection and the xdist worker start-up before the
first request, and the roll-up after the last reply, are excluded. Then

    throughput = model calls / item-phase seconds
    ideal      = workers / latency        (every worker always waiting on one call)
    efficiency = throughput / ideal       (target >= 0.9 at -n 16)

"bound" is the efficiency a harness that cost nothing would reach on the same items: items
differ in length (6 to 14 model calls here), and the phase ends with the slowest thread, so
with few items per thread the order they start in caps the efficiency (order_bound: each
process's share, the head first, then the longest first, as the prefetcher starts them).

Start-up is excluded before the first request; each process makes its model client at its
first call (the openai client about 0.5 s of CPU, litellm about 5 s). Two further figures
separate the causes: "per-item" is the model wait in each item, calls x latency / sum of results.jsonl `duration` fields (the
conversation's own overhead; 1.0 means the items only wait), and "steady" is the
efficiency between the moment every worker has finished its first item and the moment
the first worker runs out of items (from per-item timestamps written by the probe plugin
bench/_tau_probe.py), shown when that window is at least a second long. "in flight" is
the most requests the server held at once (it keeps up if that reaches -n); "start
spread" is the time between the first and the last worker starting its first item;
"before" and "after" are the seconds from the first process's plugin load to the first
model request, and from the last reply to the end of pytest. "run ms" is the whole
pytest run's CPU (every process: start-up, collection, conversations, roll-up) per model
call, and "server ms" the fake model server's CPU per call; the server runs in this bench
process, pytest in its own processes, so each is read per process (getrusage of the
children, process_time here) though they share the two cores. "CPU ms/call" is the
harness's CPU per call from the end of collection on (bench/_tau_probe.py, every pytest
process summed), "run ms" the whole pytest run's CPU per call.

The machine is shared and small (2 cores): figures are noisy, and 16 workers starting
at once compete for the CPU. The last line is the figure at the largest -n.
"""

from __future__ import annotations

import argparse
import heapq
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import ROOT, CpuSplit, Stamped, probes, results, run_pytest, summary_line

from pytest_tau import load_domain
from pytest_tau.testing import Faults, OpenAIServer, OracleModel


def peak_concurrency(stamps: list[float], latency: float) -> int:
    events = sorted([(t - latency, 1) for t in stamps] + [(t, -1) for t in stamps], key=lambda e: (e[0], e[1]))
    now = peak = 0
    for _, step in events:
        now += step
        peak = max(peak, now)
    return peak


def order_bound(calls: list[int], workers: int, concurrency: int, latency: float) -> float:
    """The efficiency a harness of no cost would reach on these items (calls per item, in
    collection order): each process's share, the head first and then the longest first, on
    `concurrency` threads; the slowest thread ends the phase."""
    from pytest_tau._prefetch import share

    finish = 0.0
    for worker in range(workers):
        mine = [calls[i] for i in share(len(calls), worker, workers)] if workers > 1 else list(calls)
        order = mine[:1] + sorted(mine[1:], reverse=True)
        threads = [0.0] * max(1, concurrency)
        for n in order:
            heapq.heappush(threads, heapq.heappop(threads) + n * latency)
        finish = max([finish, *threads])
    ideal = min(workers * concurrency, len(calls)) / latency
    return sum(calls) / finish / ideal if finish else 0.0


def parse_config(text: str) -> tuple[int, int]:
    """`n16` -> (16, 1), `c32` -> (1, 32), `n2c32` -> (2, 32)."""
    workers, concurrency = 1, 1
    rest = text.strip()
    if rest.startswith("n"):
        digits = rest[1:].split("c")[0]
        workers, rest = int(digits), rest[1 + len(digits):]
    if rest.startswith("c"):
        concurrency = int(rest[1:])
    return workers, concurrency


def run(config: str, domain: Any, task_ids: list[str], trials: int, latency: float, client: str) -> dict[str, Any]:
    workers, concurrency = parse_config(config)
    os.environ["PYTEST_TAU_MODEL_CLIENT"] = client  # run_pytest passes the environment on
    stamped = Stamped(OracleModel([domain]))
    with tempfile.TemporaryDirectory(prefix="tau-bench-") as name, OpenAIServer(stamped, Faults(latency=latency)) as server:
        tmp = Path(name)
        xdist = ["-n", str(workers)] if workers > 1 else ["-p", "no:xdist"]
        xdist += ["--concurrency", str(concurrency)]
        args = [*xdist, "--model", "openai/fake", "--api-base", server.url, "--llm-backoff", "0.05",
                "--task-ids", ",".join(task_ids), "--trials", str(trials), f"tests_domains/{domain.name}"]
        with CpuSplit() as cpu:
            proc, wall = run_pytest(args, tmp)
        lines = results(tmp)
        expected = len(task_ids) * trials
        bad = [r["item"] for r in lines if r["status"] != "passed"]
        if proc.returncode != 0 or len(lines) != expected or bad:
            sys.exit(f"{config}: expected {expected} passed items, got {len(lines)} results, not passed: {bad[:5]}\n"
                     f"{summary_line(proc)}\n{proc.stdout[-2000:]}")
        calls = len(server.requests)
        stamps = sorted(stamped.stamps)
        wall_end = time.time()
        probes_all = probes(tmp)
        procs = [p for p in probes_all if p["items"]]
    phase = stamps[-1] - (stamps[0] - latency)
    throughput = calls / phase
    ideal = min(workers * concurrency, expected) / latency
    busy = calls * latency / sum(r["duration"] for r in lines)
    # steady state: every worker past its first item, none out of items yet
    first_done = max(min(end for _, _, end in p["items"]) for p in procs)
    last_start = min(max(start for _, start, _ in p["items"]) for p in procs)
    steady = None
    if last_start - first_done >= 1.0:
        inside = sum(1 for t in stamps if first_done <= t <= last_start)
        steady = inside / (last_start - first_done) / ideal
    firsts = sorted(min(start for _, start, _ in p["items"]) for p in procs)
    first_item = min(min(end for _, _, end in p["items"]) for p in procs) - min(p["started"] for p in probes_all)
    rss = sum(p["maxrss_kib"] for p in probes_all) / 1024
    by_item = {r["item"]: r["agent_usage"]["calls"] + r["user_usage"]["calls"] for r in lines}
    in_order = [by_item[f"{domain.name}-{task}-t{trial}"] for task in task_ids for trial in range(trials)]
    return {
        "config": f"{config} {client}", "first_item": first_item, "rss": rss,
        "spread": firsts[-1] - firsts[0], "before": stamps[0] - latency - min(p["started"] for p in probes_all),
        "after": wall_end - stamps[-1],
        "workers": workers, "items": len(lines), "calls": calls, "wall": wall, "phase": phase,
        "throughput": throughput, "ideal": ideal, "efficiency": throughput / ideal, "busy": busy,
        "bound": order_bound(in_order, workers, concurrency, latency),
        "steady": steady, "peak": peak_concurrency(stamps, latency), "processes": len(procs),
        "harness_ms": sum(p.get("cpu_items", 0.0) for p in probes_all) / calls * 1000,
        "run_ms": cpu.harness / calls * 1000, "server_ms": cpu.server / calls * 1000,
    }


def print_row(row: dict[str, Any]) -> None:
    steady = "-" if row["steady"] is None else f"{row['steady']:.2f}"
    print(f"{row['config']:>14}{row['calls']:>7}{row['wall']:>8.1f}{row['phase']:>9.1f}{row['throughput']:>9.1f}"
          f"{row['ideal']:>7.0f}{row['efficiency']:>8.2f}{row['bound']:>7.2f}{row['busy']:>10.2f}{steady:>8}{row['peak']:>11}"
          f"{row['spread']:>14.1f}{row['before']:>8.1f}{row['after']:>7.1f}{row['first_item']:>11.1f}{row['rss']:>9.0f}"
          f"{row['harness_ms']:>12.2f}{row['run_ms']:>8.1f}{row['server_ms']:>10.2f}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--workers", default="1,4,16", help="comma-separated -n values (1 = no xdist)")
    parser.add_argument("--configs", default="", help="comma-separated nW, cN, nWcN (overrides --workers)")
    parser.add_argument("--domain", default="retail")
    parser.add_argument("--tasks", type=int, default=16)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--clients", default="openai,litellm", help="comma-separated model clients: openai, litellm")
    args = parser.parse_args()
    domain = load_domain(args.domain, ROOT)
    task_ids = [t.id for t in domain.tasks if t.split == "test"][: args.tasks]
    print(f"workload: {args.domain}, {len(task_ids)} tasks x {args.trials} trials = {len(task_ids) * args.trials} items, "
          f"model latency {args.latency * 1000:.0f} ms per call")
    configs = args.configs.split(",") if args.configs else [f"n{w}" for w in args.workers.split(",")]
    print(f"{'config':>14}{'calls':>7}{'wall s':>8}{'phase s':>9}{'calls/s':>9}{'ideal':>7}{'effic.':>8}{'bound':>7}"
          f"{'per-item':>10}{'steady':>8}{'in flight':>11}{'start spread':>14}{'before':>8}{'after':>7}{'1st item s':>11}{'RSS MiB':>9}"
          f"{'CPU ms/call':>12}{'run ms':>8}{'server ms':>10}")
    rows = []
    for config in configs:
        for client in args.clients.split(","):
            rows.append(run(config, domain, task_ids, args.trials, args.latency, client))
            print_row(rows[-1])
    last = rows[-1]
    print(f"parallel efficiency at {last['config']}: {last['efficiency']:.2f} "
          f"({last['throughput']:.1f} of an ideal {last['ideal']:.0f} model calls/s at {args.latency * 1000:.0f} ms latency; "
          f"per-item {last['busy']:.2f}); " + ", ".join(f"{r['config']}: {r['efficiency']:.2f}" for r in rows[:-1]))


if __name__ == "__main__":
    main()
