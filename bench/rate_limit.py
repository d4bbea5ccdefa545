"""Throughput under a provider's rate limit, and items lost to it.

    python bench/rate_limit.py [--rps 20] [--retry-after 0.05] [--workers 16] [--domain retail] [--tasks 32] [--trials 3]
    python bench/rate_limit.py --workers 1 --concurrency 32   # 32 conversations of one process share the limit

Starts the local OpenAI-compatible server (pytest_tau.testing.OpenAIServer) with
OracleModel(domain) and Faults(rate_limit_rps=R, retry_after=...): a token bucket of R
requests per second (bursts of one second's worth); a request without a token gets 429
with Retry-After. It then runs `-n 16 --llm-backoff 0.05` (a small first retry delay, so
the workers keep the limit saturated) over the first 32 test-split tasks of one domain x
3 trials = 96 items (only that domain's folder is collected), about 10 model calls each,
so about 50 s at R = 20; the retry budget is the default (--llm-retries 8).

Useful throughput is the successful completions (server.requests) per second over the
item phase, from the first answered request to the last one (server clock: start-up and
roll-up are excluded), as a fraction of R (target >= 0.9; the bucket starts full, so up
to R extra completions can come in the first second). Lost items are the results.jsonl
lines with status `error` plus the items with no line at all (target 0).
Also printed: the rate over the middle 80% of completions (no ramp-up while workers
start, no tail while the last items back off), and the 429s the server sent and their ratio to successes. An item can fail
only if its model calls give up: the oracle plays every part correctly.

The machine is shared and small (2 cores): figures are noisy. The last line is the figure.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import ROOT, CpuSplit, Stamped, results, run_pytest, summary_line

from pytest_tau import load_domain
from pytest_tau.testing import Faults, OpenAIServer, OracleModel


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rps", type=float, default=20.0)
    parser.add_argument("--retry-after", type=float, default=0.05)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--backoff", type=float, default=0.05, help="--llm-backoff")
    parser.add_argument("--domain", default="retail")
    parser.add_argument("--tasks", type=int, default=32)
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--concurrency", type=int, default=1, help="--concurrency of each process (1: today's way)")
    args = parser.parse_args()
    domain = load_domain(args.domain, ROOT)
    task_ids = [t.id for t in domain.tasks if t.split == "test"][: args.tasks]
    expected = {f"{args.domain}-{t}-t{k}" for t in task_ids for k in range(args.trials)}
    print(f"workload: {args.domain}, {len(task_ids)} tasks x {args.trials} trials = {len(expected)} items, -n {args.workers}, "
          f"limit {args.rps:g} requests/s (Retry-After {args.retry_after:g} s), --llm-backoff {args.backoff:g}")
    stamped = Stamped(OracleModel([domain]))
    faults = Faults(rate_limit_rps=args.rps, retry_after=args.retry_after)
    with tempfile.TemporaryDirectory(prefix="tau-bench-") as name, OpenAIServer(stamped, faults) as server:
        tmp = Path(name)
        processes = ["-n", str(args.workers)] if args.workers > 1 else ["-p", "no:xdist"]
        cmd = [*processes, "--concurrency", str(args.concurrency), "--model", "openai/fake", "--api-base", server.url, "--llm-backoff", str(args.backoff),
               "--task-ids", ",".join(task_ids), "--trials", str(args.trials), f"tests_domains/{args.domain}"]
        with CpuSplit() as cpu:
            proc, wall = run_pytest(cmd, tmp)
        lines = results(tmp)
        served, limited = len(server.requests), server.fault_log["rate_limited"]
        stamps = sorted(stamped.stamps)
    errors = [r for r in lines if r["status"] == "error"]
    failed = [r for r in lines if r["status"] == "failed"]
    missing = expected - {r["item"] for r in lines}
    phase = stamps[-1] - stamps[0]
    throughput = (served - 1) / phase  # completions after the first, over the time they took
    print(f"pytest: {summary_line(proc)}; wall {wall:.1f} s, item phase {phase:.1f} s")
    print(f"completions {served}, 429s {limited} ({limited / max(served, 1):.2f} per completion); CPU per completion: "
          f"pytest {cpu.harness / max(served, 1) * 1000:.1f} ms, fake server {cpu.server / max(served, 1) * 1000:.1f} ms")
    lo, hi = len(stamps) // 10, len(stamps) * 9 // 10  # middle 80% of completions: no ramp-up, no tail
    middle = (hi - lo) / (stamps[hi] - stamps[lo])
    print(f"useful throughput {throughput:.2f} completions/s = {throughput / args.rps:.3f} of the limit "
          f"(middle 80% of completions: {middle:.2f}/s = {middle / args.rps:.3f})")
    print(f"items: {len(lines)} results of {len(expected)}; errors {len(errors)}, missing {len(missing)}, failed {len(failed)}")
    for r in errors[:3]:
        print(f"  error {r['item']}: {(r.get('error') or '')[:200]}")
    if proc.returncode not in (0, 6):
        print(f"note: pytest exit {proc.returncode}\n{proc.stdout[-1500:]}")
    print(f"rate limit: {throughput / args.rps:.2f} of {args.rps:g} requests/s as useful throughput at -n {args.workers}, "
          f"{len(errors) + len(missing)} of {len(expected)} items lost ({len(errors)} errors, {len(missing)} missing)"
          + (f", --concurrency {args.concurrency}" if args.concurrency > 1 else ""))


if __name__ == "__main__":
    main()
