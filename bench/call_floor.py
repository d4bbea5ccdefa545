"""What litellm itself costs: the floors below which no harness change can go on the litellm path.

    python bench/call_floor.py [--rounds 5] [--calls 100] [--threads 16,32,64] [--latency 0.2]

Three figures, each with the fake model in a separate process (bench/_common.server_process),
so only this process's CPU is counted:

1. **litellm's import**: CPU seconds of `import pytest_tau._llm; import_litellm()` in a fresh
   interpreter (the start-up every process that calls a model pays before its first call),
   `--rounds` interpreters, min and median.
2. **CPU per call by layer**, one retail-sized request (the retail policy and its tool
   schemas, ten history messages, about 20 KB; the answer is one tool call), the layers
   interleaved round by round (the machine is noisy), min and median over `--rounds` of
   `--calls` calls each:
   - `httpx + orjson`: the request's bytes posted with httpx and the answer parsed: the HTTP floor;
   - `openai SDK`: `client.chat.completions.create`, with our request shortcut (`_lean.install`);
   - `litellm (LLM.complete)`: the harness's model call, litellm's `completion` on the lean path.
   The last minus the second is litellm's own share.
3. **One process's ceiling**: N threads each making `--calls // 4` calls of the same request
   through `LLM.complete` against a model answering after `--latency` s: calls/s, CPU per
   call and efficiency (calls/s over N / latency). No pytest, no conversation, no tools run:
   what one process can do at most with litellm as the model layer.

The last line is the figure.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import PYTHON, server_process  # noqa: E402 - after the path set-up above


def serve(latency: float, ready: Any, stop: Any) -> None:
    from pytest_tau.testing import Faults, OpenAIServer, Reply, ToolCallReply

    def answer(request: dict[str, Any]) -> Reply:
        return Reply(tool_calls=[ToolCallReply("get_order_details", {"order_id": "#W2378156"})])

    with OpenAIServer(answer, Faults(latency=latency)) as server:
        ready.put(server.url)
        stop.wait()


def retail_request() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The retail policy as system message, nine history messages, every retail tool schema."""
    from pytest_tau import load_domain
    from pytest_tau._settings import Settings
    from pytest_tau._strategies import StrategyContext

    domain = load_domain("retail", ROOT)
    task = next(t for t in domain.tasks if t.split == "test")
    context = StrategyContext(settings=Settings.resolve({}), domain=domain, task=task, trial=0, seed=0)
    turn = [
        {"role": "user", "content": "Hi, I'd like to return the cutting board from my last order. I'm Yusuf Rossi, zip 19122."},
        {"role": "assistant", "content": "Let me find your account.", "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "find_user_id_by_name_zip",
                                                             "arguments": json.dumps({"first_name": "Yusuf", "last_name": "Rossi", "zip": "19122"})}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": json.dumps({"user_id": "yusuf_rossi_9620", "orders": ["#W2378156", "#W4776164"]})},
    ]
    return [{"role": "system", "content": context.policy}, *turn * 3], context.tool_schemas


def import_cost(rounds: int) -> list[float]:
    code = ("import time; t = time.process_time(); import pytest_tau._llm as m; m.import_litellm(); "
            "print(time.process_time() - t)")
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    return [float(subprocess.run([PYTHON, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                                 check=True).stdout.strip()) for _ in range(rounds)]


def cpu_per_call(call: Any, calls: int) -> float:
    started = time.process_time()
    for _ in range(calls):
        call()
    return (time.process_time() - started) / calls * 1000


def layers(url: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]], rounds: int, calls: int) -> dict[str, list[float]]:
    import httpx
    import openai
    import orjson

    from pytest_tau._llm import LLM, ModelConfig, import_litellm

    import_litellm()  # installs the request shortcut the harness runs with
    body = orjson.dumps({"model": "fake", "messages": messages, "tools": tools, "temperature": 0.0, "seed": 1})
    http = httpx.Client(headers={"content-type": "application/json", "authorization": "Bearer no-key"})
    sdk = openai.OpenAI(base_url=url, api_key="no-key", max_retries=0)
    llm = LLM(ModelConfig(model="openai/fake", api_base=url))
    paths = {
        "httpx + orjson": lambda: orjson.loads(http.post(f"{url}/chat/completions", content=body).content),
        "openai SDK": lambda: sdk.chat.completions.create(model="fake", messages=messages, tools=tools,  # type: ignore[arg-type]
                                                           temperature=0.0, seed=1, timeout=60),
        "litellm (LLM.complete)": lambda: llm.complete(messages, tools),
    }
    for call in paths.values():  # warm-up: connections, litellm's lazy imports, caches
        for _ in range(10):
            call()
    figures: dict[str, list[float]] = {name: [] for name in paths}
    for _ in range(rounds):
        for name, call in paths.items():
            figures[name].append(cpu_per_call(call, calls))
    return figures


def ceiling(url: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]], threads: int, calls: int,
            latency: float) -> tuple[float, float, float]:
    from pytest_tau._llm import LLM, ModelConfig

    def work() -> None:
        llm = LLM(ModelConfig(model="openai/fake", api_base=url))
        for _ in range(calls):
            llm.complete(messages, tools)

    pool = [threading.Thread(target=work) for _ in range(threads)]
    cpu, wall = time.process_time(), time.perf_counter()
    for thread in pool:
        thread.start()
    for thread in pool:
        thread.join()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    rate = threads * calls / wall
    return rate, cpu / (threads * calls) * 1000, rate / (threads / latency)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--threads", default="16,32,64")
    parser.add_argument("--latency", type=float, default=0.2)
    args = parser.parse_args()
    os.environ.pop("OPENAI_API_KEY", None)

    imports = import_cost(args.rounds)
    print(f"litellm import (fresh interpreter, CPU): min {min(imports):.2f} s, median {statistics.median(imports):.2f} s "
          f"over {len(imports)}", flush=True)

    messages, tools = retail_request()
    size = len(json.dumps({"messages": messages, "tools": tools}))
    with server_process(serve, 0.0) as url:
        figures = layers(url, messages, tools, args.rounds, args.calls)
    print(f"CPU per call, {size / 1000:.1f} KB request, {args.rounds} rounds x {args.calls} calls (min / median):")
    for name, values in figures.items():
        print(f"  {name:<24}{min(values):7.2f} /{statistics.median(values):6.2f} ms", flush=True)
    own = statistics.median(figures["litellm (LLM.complete)"]) - statistics.median(figures["openai SDK"])
    print(f"  litellm's own share (median): {own:.2f} ms")

    rows = []
    with server_process(serve, args.latency) as url:
        ceiling(url, messages, tools, 4, 3, args.latency)  # warm-up
        for threads in (int(n) for n in args.threads.split(",")):
            rate, cpu, efficiency = ceiling(url, messages, tools, threads, max(1, args.calls // 4), args.latency)
            rows.append((threads, rate, efficiency))
            print(f"one process, {threads:>3} threads, {args.latency * 1000:.0f} ms model: {rate:6.1f} calls/s, "
                  f"CPU {cpu:5.2f} ms/call, efficiency {efficiency:.2f}", flush=True)
    best = max(rate for _, rate, _ in rows)
    litellm = statistics.median(figures["litellm (LLM.complete)"])
    print(f"floor: litellm import {statistics.median(imports):.2f} s CPU, {litellm:.2f} ms CPU per call through litellm "
          f"(HTTP alone {statistics.median(figures['httpx + orjson']):.2f} ms), one process at most {best:.0f} calls/s "
          f"(efficiency " + ", ".join(f"{e:.2f} at {n}" for n, _, e in rows) + ")")


if __name__ == "__main__":
    main()
