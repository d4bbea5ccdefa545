"""What each model client costs, and the floor below it (the openai SDK path beside litellm's).

    python bench/call_floor.py [--rounds 5] [--calls 100] [--threads 16,32,64] [--latency 0.2]
                               [--clients openai,litellm]

Three figures, each with the fake model in a separate process (bench/_common.server_process),
so only this process's CPU is counted:

1. **Import**: CPU seconds of `import pytest_tau._llm` and making the model's client in a fresh
   interpreter (what every process that calls a model pays before its first call), for each
   client, `--rounds` interpreters, min and median.
2. **CPU per call by layer**, one retail-sized request (the retail policy and its tool
   schemas, ten history messages, about 20 KB; the answer is one tool call), the layers
   interleaved round by round (the machine is noisy), min and median over `--rounds` of
   `--calls` calls each:
   - `httpx + orjson`: the request's bytes posted with httpx and the answer parsed: the HTTP floor;
   - `openai SDK create`: the SDK's typed `client.chat.completions.create` (for comparison);
   - `LLM.complete, openai`: the harness's model call through the openai client;
   - `LLM.complete, litellm`: the harness's model call through litellm (`completion`, lean path).
3. **One process's ceiling**: N threads each making `--calls // 4` calls of the same request
   through `LLM.complete` against a model answering after `--latency` s: calls/s, CPU per
   call and efficiency (calls/s over N / latency), for each client. No pytest, no
   conversation, no tools run: what one process can do at most with that client.

The last lines are the figures, one per client.
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
from functools import partial
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


def import_cost(rounds: int, client: str) -> list[float]:
    code = ("import time; t = time.process_time(); import pytest_tau._llm as m; "
            "m.client_for(m.ModelConfig(model='openai/fake', api_base='http://127.0.0.1:9/v1')); "
            "print(time.process_time() - t)")
    env = {k: v for k, v in os.environ.items() if k != "OPENAI_API_KEY"}
    env["PYTEST_TAU_MODEL_CLIENT"] = client
    return [float(subprocess.run([PYTHON, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                                 check=True).stdout.strip()) for _ in range(rounds)]


def model(url: str, client: str) -> Any:
    """An `LLM` of the fake model through `client` (the process's client of it made now)."""
    from pytest_tau._llm import LLM, ModelConfig, client_for
    from pytest_tau._model_client import CLIENT_VARIABLE

    os.environ[CLIENT_VARIABLE] = client
    config = ModelConfig(model="openai/fake", api_base=url)
    client_for(config)
    return LLM(config)


def cpu_per_call(call: Any, calls: int) -> float:
    started = time.process_time()
    for _ in range(calls):
        call()
    return (time.process_time() - started) / calls * 1000


def layers(url: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]], rounds: int, calls: int,
           clients: list[str]) -> dict[str, list[float]]:
    import httpx
    import openai
    import orjson

    body = orjson.dumps({"model": "fake", "messages": messages, "tools": tools, "temperature": 0.0, "seed": 1})
    http = httpx.Client(headers={"content-type": "application/json", "authorization": "Bearer no-key"})
    sdk = openai.OpenAI(base_url=url, api_key="no-key", max_retries=0)
    paths = {
        "httpx + orjson": lambda: orjson.loads(http.post(f"{url}/chat/completions", content=body).content),
        "openai SDK create": lambda: sdk.chat.completions.create(model="fake", messages=messages, tools=tools,  # type: ignore[arg-type]
                                                                  temperature=0.0, seed=1, timeout=60),
    }
    for client in clients:
        paths[f"LLM.complete, {client}"] = partial(through, client, model(url, client), messages, tools)
    for call in paths.values():  # warm-up: connections, lazy imports, caches
        for _ in range(10):
            call()
    figures: dict[str, list[float]] = {name: [] for name in paths}
    for _ in range(rounds):
        for name, call in paths.items():
            figures[name].append(cpu_per_call(call, calls))
    return figures


def through(client: str, llm: Any, messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> Any:
    os.environ["PYTEST_TAU_MODEL_CLIENT"] = client  # the client is looked up per call (the variable forces it)
    return llm.complete(messages, tools)


def ceiling(url: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]], threads: int, calls: int,
            latency: float, client: str) -> tuple[float, float, float]:
    models = [model(url, client) for _ in range(threads)]

    def work(llm: Any) -> None:
        for _ in range(calls):
            llm.complete(messages, tools)

    pool = [threading.Thread(target=work, args=(llm,)) for llm in models]
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
    parser.add_argument("--clients", default="openai,litellm")
    args = parser.parse_args()
    os.environ.pop("OPENAI_API_KEY", None)
    clients = args.clients.split(",")

    imports = {client: import_cost(args.rounds, client) for client in clients}
    for client, values in imports.items():
        print(f"import + client, {client} (fresh interpreter, CPU): min {min(values):.2f} s, "
              f"median {statistics.median(values):.2f} s over {len(values)}", flush=True)

    messages, tools = retail_request()
    size = len(json.dumps({"messages": messages, "tools": tools}))
    with server_process(serve, 0.0) as url:
        figures = layers(url, messages, tools, args.rounds, args.calls, clients)
    print(f"CPU per call, {size / 1000:.1f} KB request, {args.rounds} rounds x {args.calls} calls (min / median):")
    for name, values in figures.items():
        print(f"  {name:<24}{min(values):7.2f} /{statistics.median(values):6.2f} ms", flush=True)

    rows: dict[str, list[tuple[int, float, float]]] = {client: [] for client in clients}
    with server_process(serve, args.latency) as url:
        for client in clients:
            ceiling(url, messages, tools, 4, 3, args.latency, client)  # warm-up
        for threads in (int(n) for n in args.threads.split(",")):
            for client in clients:  # side by side, interleaved
                rate, cpu, efficiency = ceiling(url, messages, tools, threads, max(1, args.calls // 4), args.latency, client)
                rows[client].append((threads, rate, efficiency))
                print(f"one process, {client:<8}{threads:>3} threads, {args.latency * 1000:.0f} ms model: {rate:6.1f} calls/s, "
                      f"CPU {cpu:5.2f} ms/call, efficiency {efficiency:.2f}", flush=True)
    for client in clients:
        best = max(rate for _, rate, _ in rows[client])
        per_call = statistics.median(figures[f"LLM.complete, {client}"])
        print(f"floor, {client}: import {statistics.median(imports[client]):.2f} s CPU, {per_call:.2f} ms CPU per call "
              f"(HTTP alone {statistics.median(figures['httpx + orjson']):.2f} ms), one process at most {best:.0f} calls/s "
              f"(efficiency " + ", ".join(f"{e:.2f} at {n}" for n, _, e in rows[client]) + ")")


if __name__ == "__main__":
    main()
