"""Strategies from plugins: the example conftest.py of docs/writing-a-strategy.md, run as written."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from tests.conftest import TauRunner

DOC = Path(__file__).parents[1] / "docs" / "writing-a-strategy.md"
MARKER = "<!-- example conftest.py: tests/test_option_strategy_plugins.py runs the next python block -->"


def example_conftest() -> str:
    """The python block right after the marker in the doc: the very text a reader copies."""
    text = DOC.read_text()
    assert MARKER in text, f"{DOC.name} lost its example marker"
    match = re.match(r"\s*```python\n(.*?)\n```", text.split(MARKER, 1)[1], re.DOTALL)
    assert match, f"{DOC.name}: no python block after the example marker"
    return match.group(1) + "\n"


@pytest.fixture
def project(tau: TauRunner) -> TauRunner:
    (tau.path / "conftest.py").write_text(example_conftest())
    return tau


def results(tau: TauRunner) -> dict[str, dict[str, object]]:
    lines = (tau.run_dir / "results.jsonl").read_text().splitlines()
    return {row["item"]: row for row in map(json.loads, lines)}


def test_listed_with_the_built_ins(project: TauRunner) -> None:
    result = project.run("--tau-strategies")
    assert result.ret == 0
    result.stdout.fnmatch_lines([
        "--agent-strategy:",
        "  tool-calling *[[]model[]]",
        "*",
        "  do-nothing *",
        "  step-by-step *the gold calls, one per step, stopping at a tool error",
        "--user-strategy:",
        "*",
        "  scripted *",
        "  one-liner *the first scripted line, then stop",
    ])
    assert "collected" not in result.stdout.str()  # listed, nothing run
    helped = project.run("-h")
    assert helped.ret == 0
    helped.stdout.fnmatch_lines(["*--agent-strategy=*", "*any other a plugin*", "*--tau-strategies*"])
    helped.stdout.fnmatch_lines(["pytest-tau strategies*", "--agent-strategy:", "*", "  step-by-step *", "*", "  one-liner *"])


def test_agent_strategy_from_conftest_scores(project: TauRunner) -> None:
    result = project.run("--agent-strategy", "step-by-step")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*pytest-tau: agent step-by-step, user scripted,*"])
    rows = results(project)
    assert {row["end_reason"] for row in rows.values()} == {"user_stop", "transfer"}
    assert rows["toy-fines_then_loan-t0"]["steps"] == 4  # three calls, one step each, then the answer


def test_user_strategy_from_conftest_in_ini(project: TauRunner) -> None:
    (project.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\nuser_strategy = one-liner\n")
    result = project.run("--agent-strategy", "step-by-step")
    result.assert_outcomes(passed=3)
    result.stdout.fnmatch_lines(["*pytest-tau: agent step-by-step, user one-liner,*"])
    assert all(row["turns"] <= 2 for row in results(project).values())


def test_plugin_user_with_a_do_nothing_agent_scores_zero(project: TauRunner) -> None:
    result = project.run("--agent-strategy", "do-nothing", "--user-strategy", "one-liner")
    result.assert_outcomes(failed=3)
    result.stdout.fnmatch_lines(["toy * 0.000"])


def test_unknown_name_lists_the_plugin_strategies(project: TauRunner) -> None:
    result = project.run("--user-strategy", "telepathy")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([
        "*--user-strategy: unknown user strategy 'telepathy'; known: llm, react, verify, reflection, human, scripted, one-liner *"
    ])


def test_declared_but_never_built_is_an_item_error(project: TauRunner) -> None:
    with (project.path / "conftest.py").open("a") as conftest:
        conftest.write(
            "\n\ndef pytest_tau_declare_strategies(config):\n"
            "    return [StrategyInfo('agent', 'vapour', 'declared, never built')]\n"
        )
    result = project.run("--agent-strategy", "vapour")
    result.assert_outcomes(errors=3)
    result.stdout.fnmatch_lines(["*--agent-strategy vapour: declared, but no plugin's pytest_tau_make_agent built it*"])
