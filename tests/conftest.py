"""Engine tests: plugin behaviour through pytester (with and without xdist), units, domains."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpcore  # noqa: F401 - see below
import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.amber import AmberSnapshotExtension

from pytest_tau import Domain
from pytest_tau.testing import OpenAIServer, OracleModel, Reply

pytest_plugins = ["pytester"]

# httpx imports httpcore lazily and keeps a map from httpcore's exception classes to its own at
# first use. An in-process pytester run drops the modules it imported when it ends: had httpcore
# first come in during one, the next run's fresh httpcore raised exceptions that map caught no
# longer (a dropped connection escaped as httpcore.RemoteProtocolError). Imported here, it stays.

SNAPSHOTS = Path(__file__).parents[1] / "snapshots"


class TauSnapshotExtension(AmberSnapshotExtension):
    """Amber snapshots, one file per test module, in the top-level snapshots/ (reviewed as diffs)."""

    @classmethod
    def dirname(cls, *, test_location: object) -> str:
        return str(SNAPSHOTS)


@pytest.fixture
def snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(TauSnapshotExtension)

# The toy project is copied into temporary folders and run there, never collected here.
collect_ignore = ["toy_project"]

# Plugins of this test suite that the runs it starts never use: schemathesis's pytest plugin
# imports hypothesis, GraphQL and ASGI support (about 40% of a toy run's start-up CPU, paid
# again by each xdist worker). pytester clears PYTEST_ADDOPTS; the `pytester` fixture below
# sets it back to this for its runs, in process and in subprocesses alike.
CHILD_ADDOPTS = "-p no:schemathesis -p no:syrupy"


# Options of a run that calls a model: such a run imports a model client, which an in-process run
# cannot do twice (litellm fails to import a second time once pytester has dropped it).
MODEL_OPTIONS = ("--model", "--user-model", "--record", "--replay", "--tau-config")


@pytest.fixture
def pytester(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("PYTEST_ADDOPTS", CHILD_ADDOPTS)
    # The toy project's package is also named `tests_domains`: a run in this process must import
    # the toy's, not the project's that an earlier test of this worker imported (put back after).
    for name in [n for n in sys.modules if n == "tests_domains" or n.startswith("tests_domains.")]:
        monkeypatch.delitem(sys.modules, name)
    return pytester

TOY_PROJECT = Path(__file__).parent / "toy_project"


class TauRunner:
    """Runs pytest over a copy of the toy project, with or without xdist."""

    def __init__(self, pytester: pytest.Pytester, xdist: list[str]) -> None:
        self.pytester = pytester
        self.xdist = xdist
        self.path = pytester.path
        shutil.copytree(TOY_PROJECT, pytester.path, dirs_exist_ok=True)
        (pytester.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\n")

    @property
    def run_dir(self) -> Path:
        return self.path / "run"

    def start_fresh(self) -> None:
        """A run directory holds one run: a later run without --resume starts in an empty
        one, the earlier one set aside as run.1, run.2, ..."""
        if (self.run_dir / "results.jsonl").exists():
            number = 1
            while (self.path / f"run.{number}").exists():
                number += 1
            self.run_dir.rename(self.path / f"run.{number}")

    def run(self, *args: str, in_subprocess: bool = False) -> pytest.RunResult:
        """pytest over the toy project: in this process when it calls no model (with xdist its
        workers are processes anyway; a fresh interpreter would only add its start-up and
        imports), else in a subprocess. `in_subprocess=True` where the run's own process is the
        point (what it imports)."""
        if "--resume" not in args:
            self.start_fresh()
        calls_a_model = any(arg.split("=", 1)[0] in MODEL_OPTIONS for arg in args)
        args = ("-p", "no:cacheprovider", "--run-dir", str(self.run_dir), *self.xdist, *args)
        if in_subprocess or calls_a_model:
            return self.pytester.runpytest_subprocess(*args)
        return self.pytester.runpytest_inprocess(*args)


@pytest.fixture(params=[[], ["-n", "2"]], ids=["no-xdist", "xdist"])
def tau(request: pytest.FixtureRequest, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> TauRunner:
    """The toy project in a temporary folder; every integration test runs in both modes."""
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    return TauRunner(pytester, request.param)


@pytest.fixture(scope="session")
def toy_domain() -> Domain:
    """The toy domain, imported by path (the project's own `tests_domains` owns that name)."""
    path = TOY_PROJECT / "tests_domains" / "toy" / "domain.py"
    spec = importlib.util.spec_from_file_location("tau_toy_domain", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.DOMAIN


def flaky_oracle(domain: Domain) -> Callable[[dict[str, Any]], Reply]:
    """The oracle model, except that the agent gives up on items whose seed is divisible by 3:
    deterministic per item, so runs in any order (xdist, resumed) score the same."""
    oracle = OracleModel([domain])

    def handler(request: dict[str, Any]) -> Reply:
        if request.get("tools") and request.get("seed", 0) % 3 == 0:
            return Reply(content="Sorry, I cannot do that.")
        return oracle(request)

    return handler


@dataclass(frozen=True)
class ReferenceRun:
    """An uninterrupted run's outcome: what a killed-and-resumed, rate-limited or concurrent run
    of the same items must reproduce."""

    returncode: int
    results: list[dict[str, Any]]  # results.jsonl, line by line
    summary: dict[str, Any]


@pytest.fixture(scope="session")
def flaky_reference(tmp_path_factory: pytest.TempPathFactory, toy_domain: Domain) -> ReferenceRun:
    """The toy project with --trials 4 (12 items) against the flaky oracle over litellm, run once
    per session without xdist and shared: the flaky oracle scores each item the same in any
    process and any order, so one reference serves the runs of both modes."""
    path = tmp_path_factory.mktemp("flaky-reference")
    shutil.copytree(TOY_PROJECT, path, dirs_exist_ok=True)
    (path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\n")
    env = {k: v for k, v in os.environ.items() if k not in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY")}
    env.update(PYTEST_ADDOPTS=CHILD_ADDOPTS, HOME=str(path), PY_COLORS="0")
    with OpenAIServer(flaky_oracle(toy_domain)) as server:
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--trials", "4", "--model", "openai/fake",
             "--api-base", server.url, "--run-dir", str(path / "run")],
            cwd=path, env=env, capture_output=True, text=True, timeout=300,
        )
    assert (path / "run" / "summary.json").exists(), run.stdout[-3000:] + run.stderr[-3000:]
    results = [json.loads(line) for line in (path / "run" / "results.jsonl").read_text().splitlines() if line.strip()]
    return ReferenceRun(run.returncode, results, json.loads((path / "run" / "summary.json").read_text()))
