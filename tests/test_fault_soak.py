"""Fault soak: a run over real domains through a faulty model service scores exactly like a clean one.

The deterministic OracleModel plays agent and user through the real litellm path; the
faulty run meets 20% 429s, 5% 5xx, 2% responses slower than the timeout and 1% dropped
connections. Same rewards, same pass^k, no item lost, no infrastructure error scored.
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
SOAK_DOMAINS = ("airline", "retail")


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
    expected_items = sum(1 for name in SOAK_DOMAINS for t in domains[name].tasks if t.split == "test")

    with OpenAIServer(model) as clean:
        clean_run = run(clean, tmp_path / "clean")
    assert clean_run.returncode == 0, clean_run.stdout[-3000:]

    faults = Faults(p429=0.20, p500=0.03, p503=0.02, ptimeout=0.02, pdrop=0.01, hang=1.5, seed=7)
    with OpenAIServer(model, faults) as faulty:
        faulty_run = run(faulty, tmp_path / "faulty", "-n", "2")
    assert faulty_run.returncode == 0, faulty_run.stdout[-3000:]

    assert faulty.fault_log["429"] > 0 and faulty.fault_log["timeout"] > 0 and faulty.fault_log["drop"] > 0
    clean_outcomes, faulty_outcomes = outcomes(tmp_path / "clean"), outcomes(tmp_path / "faulty")
    assert len(clean_outcomes) == expected_items
    assert faulty_outcomes == clean_outcomes
    clean_summary = json.loads((tmp_path / "clean" / "summary.json").read_text())
    faulty_summary = json.loads((tmp_path / "faulty" / "summary.json").read_text())
    assert faulty_summary["pass_hat_k"] == clean_summary["pass_hat_k"] == {"1": 1.0}
    assert faulty_summary["errors"] == 0 and faulty_summary["items"] == expected_items
