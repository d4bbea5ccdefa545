"""Size and load time of the HTML report of a large run (default 10,000 items).

    python bench/html_report.py [--items 10000] [--messages 16] [--keep DIR]

Builds a synthetic run directory (results.jsonl and one trajectory file per item, shaped as
`write_trajectory` writes them: a conversation of --messages messages with tool calls and
tool results of a few hundred bytes, and records that differ from gold for failed items),
then times:

- render: `write_report` (reads every trajectory file, redacts, renders, writes) and the
  process's peak RSS;
- the file's size;
- load in headless Chromium (`--dump-dom`): the page's own figure, `performance.now()` when
  its script has drawn the table (navigation start to first usable table: HTML parse of the
  whole file included), for the plain page, a filtered and searched view, and an opened
  item; and the wall time of the browser process (start-up included), once dumping the DOM
  (slow: the whole DOM, every item's JSON, goes through a pipe) and once taking a screenshot.

Chromium: Debian's `chromium` (apt-get install -y chromium); without it the browser figures
are skipped. Times depend on the machine's load; run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pytest_tau._html import write_report
from pytest_tau._results import ItemResult, UsageRecord, summarize

DOMAINS = ["retail", "airline", "telecom", "banking", "insurance", "healthcare", "travel", "library", "finance", "logistics"]
END_REASONS = ["user_stop", "user_stop", "user_stop", "transfer", "max_steps"]


def _trajectory(rng: random.Random, item: str, messages: int, failed: bool) -> dict[str, object]:
    convo: list[dict[str, object]] = []
    calls = []
    for turn in range(messages // 4):
        order = f"#W{rng.randrange(10**6):06d}"
        args = {"order_id": order, "item_ids": [f"{rng.randrange(10**9)}" for _ in range(2)]}
        record = {"order_id": order, "status": rng.choice(["pending", "delivered"]), "items": [
            {"item_id": f"{rng.randrange(10**9)}", "name": "T-Shirt", "price": round(rng.uniform(5, 500), 2),
             "options": {"color": "blue", "size": "M"}} for _ in range(3)]}
        result = orjson.dumps(record).decode()
        convo.append({"role": "user", "content": f"Hi, I'd like to change order {order}; turn {turn} of {item}. " * 2})
        convo.append({"role": "assistant", "content": "Let me look that up for you.", "tool_calls": [
            {"id": f"call_{turn}", "type": "function", "function": {"name": "get_order_details", "arguments": orjson.dumps(args).decode()}}]})
        convo.append({"role": "tool", "tool_call_id": f"call_{turn}", "name": "get_order_details", "content": result})
        convo.append({"role": "assistant", "content": f"Your order {order} is {record['status']}. Would you like me to proceed with the exchange?"})
        calls.append({"name": "get_order_details", "arguments": args, "result": result, "error": False})
    gold = []
    if failed:
        gold = [{"table": "orders", "key": "#W000001", "expected": {"order_id": "#W000001", "status": "exchanged", "items": []},
                 "actual": {"order_id": "#W000001", "status": "pending", "items": []}}]
    return {"messages": convo, "tool_calls": calls, "final_diff": {"orders": {"#W000001": {"status": "pending"}}}, "gold_differences": gold}


def build(run_dir: Path, items: int, messages: int) -> list[ItemResult]:
    rng = random.Random(0)
    trials = 5
    folder = run_dir / "trajectories"
    folder.mkdir(parents=True)
    results = []
    for index in range(items):
        domain = DOMAINS[index % len(DOMAINS)]
        task, trial = f"t{index // (len(DOMAINS) * trials)}", (index // len(DOMAINS)) % trials
        roll = rng.random()
        status = "passed" if roll < 0.7 else "failed" if roll < 0.97 else "error"
        result = ItemResult(
            item=f"{domain}-{task}-t{trial}", domain=domain, task=task, trial=trial, seed=index, status=status,  # type: ignore[arg-type]
            reward=None if status == "error" else float(status == "passed"),
            end_reason="error" if status == "error" else rng.choice(END_REASONS), steps=rng.randrange(2, 30), turns=rng.randrange(1, 10),
            duration=rng.uniform(1, 60), agent_usage=UsageRecord(calls=8, prompt_tokens=9000, completion_tokens=400, cost=0.03),
            failure="final DB state differs from gold in 1 record(s): orders['#W000001'] status" if status == "failed" else None,
            error="model call failed past its retries: 429 rate limited" if status == "error" else None,
        )
        results.append(result)
        (folder / f"{result.item}.json").write_bytes(orjson.dumps({"result": result.model_dump(mode="json"),
                                                                   **_trajectory(rng, result.item, messages, status == "failed")}))
    (run_dir / "results.jsonl").write_bytes(b"".join(orjson.dumps(r.model_dump(mode="json")) + b"\n" for r in results))
    return results


def chromium() -> str | None:
    return next((found for name in ("chromium", "chromium-browser", "google-chrome") if (found := shutil.which(name))), None)


def load(browser: str, page: Path, fragment: str, profile: Path) -> tuple[float, int | None, str]:
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", f"--user-data-dir={profile}",
           "--window-size=1280,1600", "--dump-dom", page.as_uri() + fragment]
    if "item=" in fragment:  # the page inflates an opened item's conversation asynchronously: wait for it
        cmd.insert(-2, "--virtual-time-budget=10000")
    started = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    wall = time.perf_counter() - started
    ready = re.search(r'id="tau-ready"[^>]*data-ms="(\d+)"', proc.stdout)
    count = re.search(r'id="count">([^<]*)<', proc.stdout)
    return wall, int(ready.group(1)) if ready else None, count.group(1) if count else "(no table)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--items", type=int, default=10_000)
    parser.add_argument("--messages", type=int, default=16, help="messages per conversation (default 16)")
    parser.add_argument("--keep", type=Path, default=None, help="build the run here and keep it (default: a temporary folder)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="tau-bench-html-") as name:
        tmp = args.keep or Path(name)
        run_dir = tmp / "run"
        results = build(run_dir, args.items, args.messages)
        trajectory_bytes = sum(p.stat().st_size for p in (run_dir / "trajectories").iterdir())
        summary = summarize(results, 5, {"agent_strategy": "tool-calling", "user_strategy": "llm", "seed": 0})
        started = time.perf_counter()
        page = write_report(run_dir / "report.html", summary, results, [run_dir])
        render = time.perf_counter() - started
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        size = page.stat().st_size
        print(f"items: {args.items}, {args.messages} messages each; trajectory files: {trajectory_bytes / 2**20:.1f} MiB")
        print(f"render (read trajectories, redact, write): {render:.2f} s, peak RSS {peak:.0f} MiB")
        print(f"report.html: {size / 2**20:.1f} MiB ({size / args.items / 1024:.1f} KiB per item)")
        browser = chromium()
        if browser is None:
            print("chromium: not found (apt-get install -y chromium); no load times")
            return
        first = results[len(results) // 2].item
        for label, fragment in (
            ("first load", ""),
            ("load again (warm disk cache)", ""),
            ("filtered + searched", "#domain=retail&status=failed&q=t1"),
            ("an item opened", f"#item={first}"),
        ):
            wall, ready, count = load(browser, page, fragment, tmp / "profile")
            shown = f"{ready} ms" if ready is not None else "did not finish"
            print(f"chromium {label}: table ready {shown} after navigation start; process wall {wall:.2f} s; {count}")
        # --dump-dom serializes the whole DOM (every item's JSON) into a pipe, which a person
        # opening the file never waits for: a screenshot is the closer wall time.
        shot = tmp / "shot.png"
        cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", f"--user-data-dir={tmp / 'profile'}",
               "--window-size=1280,1600", f"--screenshot={shot}", page.as_uri()]
        started = time.perf_counter()
        subprocess.run(cmd, capture_output=True, timeout=600)
        print(f"chromium start, load, draw and screenshot: process wall {time.perf_counter() - started:.2f} s"
              f" ({'png written' if shot.is_file() else 'no png'})")


if __name__ == "__main__":
    main()
