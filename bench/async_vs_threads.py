"""Threads or asyncio for N conversations in one process: CPU per model call and efficiency.

    python bench/async_vs_threads.py [--conversations 16,32,64] [--calls 10] [--latency 0.2]

The fake model (pytest_tau.testing.OpenAIServer, a fixed answer after `--latency` seconds)
runs in its own process, so its CPU is not counted. In this process, N conversations each
make `--calls` model calls one after the other, with a request the size of a real one (the
retail policy and every retail tool schema, a history that grows by two messages a call):

- threads: N threads, each calling through `pytest_tau._llm.LLM` (litellm's synchronous
  `completion`, the harness's gate, retries and lean path: what `--concurrency N` does);
- asyncio: N tasks on one event loop, each awaiting `litellm.acompletion` with the same
  arguments (no gate, no retry loop: the model layer alone, a lower bound for an asyncio
  harness), litellm's background success logging skipped as in the lean path.

One warm-up round first (imports, connection pools). Figures: this process's CPU
(time.process_time, every thread) per call, and efficiency = calls per second over the
ideal N / latency. The last line is the choice's figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import server_process  # noqa: E402 - after the path set-up above


def serve(latency: float, ready: Any, stop: Any) -> None:
    from pytest_tau.testing import Faults, OpenAIServer, Reply

    with OpenAIServer(lambda request: Reply(content="Sure, one moment."), Faults(latency=latency)) as server:
        ready.put(server.url)
        stop.wait()


def history(system: str, step: int) -> list[dict[str, Any]]:
    messages = [{"role": "system", "content": system}, {"role": "user", "content": "Hi, I need help with my order."}]
    for k in range(step):
        messages += [{"role": "assistant", "content": f"Let me look at that ({k})."}, {"role": "user", "content": "Thanks."}]
    return messages


def run_threads(url: str, system: str, tools: list[dict[str, Any]], n: int, calls: int) -> tuple[float, float, int]:
    from pytest_tau._llm import LLM, ModelConfig

    config = ModelConfig(model="openai/fake", api_base=url, retries=2, backoff=0.05)

    def converse(seed: int) -> None:
        llm = LLM(config, seed=seed)
        for step in range(calls):
            llm.complete(history(system, step), tools)

    threads = [threading.Thread(target=converse, args=(seed,)) for seed in range(n)]
    cpu, wall = time.process_time(), time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.process_time() - cpu, time.perf_counter() - wall, n * calls


def run_asyncio(url: str, system: str, tools: list[dict[str, Any]], n: int, calls: int) -> tuple[float, float, int]:
    from pytest_tau._llm import import_litellm

    litellm = import_litellm()

    async def converse(seed: int) -> None:
        from litellm._internal_context import is_internal_call

        is_internal_call.set(True)  # the same cut as the threads' lean path (this task's context only)
        for step in range(calls):
            response = await litellm.acompletion(model="openai/fake", api_base=url, api_key="no-key", messages=history(system, step),
                                                 tools=tools, temperature=0.0, seed=seed, timeout=120.0, max_retries=0)
            assert response.choices[0].message.content

    async def main() -> None:
        await asyncio.gather(*(converse(seed) for seed in range(n)))

    cpu, wall = time.process_time(), time.perf_counter()
    asyncio.run(main())
    return time.process_time() - cpu, time.perf_counter() - wall, n * calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conversations", default="16,32,64")
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--latency", type=float, default=0.2)
    args = parser.parse_args()
    os.environ.pop("OPENAI_API_KEY", None)
    from pytest_tau import load_domain
    from pytest_tau._agents import AGENT_INSTRUCTIONS

    domain = load_domain("retail", ROOT)
    system, tools = AGENT_INSTRUCTIONS.format(policy=domain.policy), domain.tool_schemas()
    rows: list[tuple[str, int, float, float]] = []
    with server_process(serve, args.latency) as url:
        run_threads(url, system, tools, 4, 2)  # warm-up: imports, pools, first-call caches
        run_asyncio(url, system, tools, 4, 2)
        print(f"{'mode':>8}{'N':>5}{'calls':>7}{'wall s':>8}{'CPU ms/call':>13}{'calls/s':>9}{'ideal':>7}{'effic.':>8}")
        for n in (int(x) for x in args.conversations.split(",")):
            for mode, run in (("threads", run_threads), ("asyncio", run_asyncio)):
                cpu, wall, calls = run(url, system, tools, n, args.calls)
                ideal = n / args.latency
                efficiency = calls / wall / ideal
                rows.append((mode, n, cpu / calls * 1000, efficiency))
                print(f"{mode:>8}{n:>5}{calls:>7}{wall:>8.2f}{cpu / calls * 1000:>13.2f}{calls / wall:>9.1f}{ideal:>7.0f}"
                      f"{efficiency:>8.2f}", flush=True)
    print("threads vs asyncio: " + ", ".join(f"{mode} N={n}: {ms:.2f} ms/call, efficiency {eff:.2f}" for mode, n, ms, eff in rows))


if __name__ == "__main__":
    main()
