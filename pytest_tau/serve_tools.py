"""``python -m pytest_tau.serve_tools <domain> --task <id>``: one task's tools over MCP, then its verdict.

Serves a fresh environment of the task over MCP streamable HTTP (the endpoint URL and
the ``Authorization`` header every request must carry are printed; point any MCP client
or agent at them), until Ctrl-C, end of input, or
``--seconds``. Then it scores the calls that were made against the task's gold outcome,
with ``--told`` as what the agent told the user, prints the verdict and exits 0 when the
reward is 1, 1 when it is not.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import threading
import time

from ._conversation import Trajectory, Usage
from ._discovery import load_domain
from ._environment import Environment
from ._scoring import judge
from .remote._mcp import EnvironmentSink, ToolServer


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pytest_tau.serve_tools", description=__doc__.split("\n\n")[0])
    parser.add_argument("domain", help="a domain of the project (tests_domains/<domain>/)")
    parser.add_argument("--task", required=True, help="the task id")
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="port (default: any free one)")
    parser.add_argument("--seconds", type=float, default=None, help="stop after this long (default: Ctrl-C or end of input)")
    parser.add_argument("--told", action="append", default=[], help="what the agent told the user (repeatable), for the required outputs")
    args = parser.parse_args(argv)
    try:
        domain = load_domain(args.domain)
    except ModuleNotFoundError:
        parser.error(f"unknown domain: {args.domain}")
    task = next((t for t in domain.tasks if t.id == args.task), None)
    if task is None:
        parser.error(f"{args.domain}: no task {args.task!r}")
    env = Environment(domain)
    started = time.perf_counter()
    with ToolServer(host=args.host, port=args.port) as server:
        endpoint = server.add(domain, EnvironmentSink(env))
        print(f"MCP (streamable HTTP): {endpoint.url}", flush=True)
        # Every request needs it: the URL alone calls nothing (a URL ends up in logs).
        print(f"header: Authorization: Bearer {endpoint.secret}", flush=True)
        print(f"task {domain.name}/{task.id}: {task.user.instructions}", flush=True)
        print("stop with Ctrl-C or end of input (Ctrl-D) to read the verdict", flush=True)
        _wait(args.seconds)
    trajectory = Trajectory(
        messages=[],
        calls=list(env.calls),
        told=list(args.told),
        end_reason="user_stop",
        steps=len(env.calls),
        turns=0,
        duration=time.perf_counter() - started,
        agent_usage=Usage(),
        user_usage=Usage(),
    )
    verdict = judge(domain, task, env, trajectory)
    print(f"{len(env.calls)} tool calls; reward {verdict.reward:g}")
    if verdict.reward < 1:
        print(verdict.explain())
    return 0 if verdict.reward >= 1 else 1


def _wait(seconds: float | None) -> None:
    done = threading.Event()
    if seconds is None:

        def read_all() -> None:
            sys.stdin.read()
            done.set()

        threading.Thread(target=read_all, daemon=True).start()
    with contextlib.suppress(KeyboardInterrupt):
        done.wait(seconds)


if __name__ == "__main__":
    sys.exit(main())
