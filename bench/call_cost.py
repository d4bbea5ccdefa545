"""Harness CPU per model call: what this process spends around each litellm call.

    python bench/call_cost.py [--domain retail] [--tasks 16] [--profile 25]

Starts the local OpenAI-compatible server (pytest_tau.testing.OpenAIServer with
OracleModel, no latency) in a separate process, so its CPU is not counted, then plays
the first test-split tasks of one domain in this process with the real model path: the
tool-calling agent (the domain's policy and every tool schema in each request) and the
LLM user, both through `pytest_tau._llm.LLM` and litellm's `completion`. One warm-up item
first (imports, first connection). The figure is this process's CPU time
(time.process_time, every thread) over the conversations divided by the model calls:
request building, litellm, the HTTP client, response parsing, usage and cost, plus the
conversation and environment work (about 0.3 ms per item, bench/harness_cost.py).

`--profile N` prints cProfile's N most expensive functions (cumulative) of the timed part.
The last line is the figure.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from _common import server_process  # noqa: E402 - after the path set-up above


def serve(domain_name: str, ready: Any, stop: Any) -> None:
    from pytest_tau import load_domain
    from pytest_tau.testing import OpenAIServer, OracleModel

    with OpenAIServer(OracleModel([load_domain(domain_name, ROOT)])) as server:
        ready.put(server.url)
        stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--domain", default="retail")
    parser.add_argument("--tasks", type=int, default=16)
    parser.add_argument("--profile", type=int, default=0)
    parser.add_argument("--sort", default="cumulative", help="cProfile order for --profile (cumulative, tottime)")
    args = parser.parse_args()
    os.environ.pop("OPENAI_API_KEY", None)
    with server_process(serve, args.domain) as url:
        from pytest_tau import Environment, load_domain
        from pytest_tau._builtin_strategies import BuiltinStrategies
        from pytest_tau._conversation import run_conversation
        from pytest_tau._settings import Settings, item_seed
        from pytest_tau._strategies import StrategyContext

        domain = load_domain(args.domain, ROOT)
        settings = Settings.resolve({"model": "openai/fake", "api_base": url}, model_agents=("tool-calling",), model_users=("llm",))
        tasks = [t for t in domain.tasks if t.split == "test"][: args.tasks + 1]
        strategies = BuiltinStrategies()

        def play(task: Any) -> int:
            context = StrategyContext(settings=settings, domain=domain, task=task, trial=0,
                                      seed=item_seed(0, domain.name, task.id, 0))
            agent = strategies.pytest_tau_make_agent(None, "tool-calling", context)  # type: ignore[arg-type]
            user = strategies.pytest_tau_make_user(None, "llm", context)  # type: ignore[arg-type]
            assert agent is not None and user is not None
            trajectory = run_conversation(Environment(domain), agent, user, max_steps=30)
            assert trajectory.error is None, trajectory.error
            return trajectory.agent_usage.calls + trajectory.user_usage.calls

        play(tasks[0])  # warm-up: imports, connection, first-call caches
        profiler = None
        if args.profile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
        cpu, wall, own = time.process_time(), time.perf_counter(), time.thread_time()
        calls = sum(play(task) for task in tasks[1:])
        cpu, wall, own = time.process_time() - cpu, time.perf_counter() - wall, time.thread_time() - own
        if profiler is not None:
            import pstats

            profiler.disable()
            pstats.Stats(profiler).sort_stats(args.sort).print_stats(args.profile)
    print(f"{len(tasks) - 1} items, {calls} model calls, wall {wall:.2f} s, CPU {cpu:.2f} s "
          f"(calling thread {own / calls * 1000:.2f} ms per call, other threads {(cpu - own) / calls * 1000:.2f} ms: "
          f"litellm's background logging)")
    print(f"harness CPU per model call: {cpu / calls * 1000:.2f} ms ({args.domain}, tool-calling agent + llm user, litellm path)")


if __name__ == "__main__":
    main()
