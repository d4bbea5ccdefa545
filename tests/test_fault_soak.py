"""Fault soak: a run over a real domain through a faulty model service scores exactly like a clean one.

The deterministic OracleModel plays agent and user through the real model path, two workers
with eight conversations each in flight; the faulty run meets 10% 429s, 7% 5xx, 3% responses
slower than the timeout and 2% dropped connections (rates high enough that every kind shows
in one domain's test tasks; at 20% 429s the paced process spent two minutes waiting). Same
rewards, same pass^k, no item lost, no infrastructure error scored. A
clean run of the oracle passes every item (the domain checks prove it in-process, item by
item), so that is the outcome the faulty run is held to, without a clean run to show it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import CHILD_ADDOPTS
from pytest_tau import discover_domains
from pytest_tau.testing import Faults, OpenAIServer, OracleModel

ROOT = Path(__file__).parents[1]
SOAK_DOMAINS = ("retail",)


def run(server: OpenAIServer, run_dir: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    selection = " or ".join(SOAK_DOMAINS)
    command = [
        sys.executable, "-m", "pytest", "tests_domains", "-p", "no:cacheprovider", "-q", "-m", selection,
        "--model", "openai/oracle", "--api-base", server.url, "--run-dir", str(run_dir),
        "--llm-timeout", "0.5", "--llm-backoff", "0.01", "--llm-retries", "12", *extra,
    ]
    env = {**os.environ, "PYTEST_ADDOPTS": CHILD_ADDOPTS}
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=1200, env=env)


def outcomes(run_dir: Path) -> dict[str, tuple[str, float | None]]:
    results = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
    return {r["item"]: (r["status"], r["reward"]) for r in results}


def test_faulty_service_scores_like_a_clean_one(tmp_path: Path) -> None:
    domains = discover_domains(ROOT)
    model = OracleModel([domains[name] for name in SOAK_DOMAINS])
    clean_outcomes = {f"{name}-{task.id}-t0": ("passed", 1.0) for name in SOAK_DOMAINS for task in domains[name].tasks if task.split == "test"}

    faults = Faults(p429=0.10, p500=0.04, p503=0.03, ptimeout=0.03, pdrop=0.02, hang=1.5, seed=7)
    with OpenAIServer(model, faults) as faulty:
        faulty_run = run(faulty, tmp_path / "faulty", "-n", "2", "--concurrency", "8")
    assert faulty_run.returncode == 0, faulty_run.stdout[-3000:]

    assert faulty.fault_log["429"] > 0 and faulty.fault_log["timeout"] > 0 and faulty.fault_log["drop"] > 0
    assert faulty.fault_log["500"] > 0 and faulty.fault_log["503"] > 0
    assert outcomes(tmp_path / "faulty") == clean_outcomes
    faulty_summary = json.loads((tmp_path / "faulty" / "summary.json").read_text())
    assert faulty_summary["pass_hat_k"] == {"1": 1.0}
    assert faulty_summary["errors"] == 0 and faulty_summary["items"] == len(clean_outcomes)
