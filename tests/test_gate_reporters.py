"""One story in every reporter: the JUnit of a run, a resumed run and a merge of shards say
the same words per item; what GitHub reporters read (the suite name, each failure's message)
carries pass^k and the reward; errors say they are not failures; --reruns scores the last
attempt and keeps the others; MT file names are portable; `-p no:tau` is not a crash."""

from __future__ import annotations

import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from pytest_tau import merge
from pytest_tau._mt import label_for

TOY_PROJECT = Path(__file__).parent / "toy_project"


@pytest.fixture
def toy(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    for name in ("OPENAI_API_KEY", "GITHUB_STEP_SUMMARY"):
        monkeypatch.delenv(name, raising=False)
    shutil.copytree(TOY_PROJECT, pytester.path, dirs_exist_ok=True)
    (pytester.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\n")
    return pytester


def cases(path: Path) -> dict[str, tuple[str, str | None, str | None]]:
    """testcase name -> (outcome tag, message, text)."""
    found = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        outcome = next((child for child in case if child.tag in ("failure", "error", "skipped")), None)
        found[case.get("name", "")] = (
            outcome.tag if outcome is not None else "passed",
            outcome.get("message") if outcome is not None else None,
            (outcome.text or "").strip() if outcome is not None else None,
        )
    return found


def suite(path: Path) -> ET.Element:
    found = ET.parse(path).getroot().find("testsuite")
    assert found is not None
    return found


def test_run_resume_and_merge_write_the_same_failures(toy) -> None:
    args = ("-p", "no:cacheprovider", "--agent-strategy", "do-nothing", "--trials", "2")
    toy.runpytest(*args, "--run-dir=single", "--junitxml=single.xml")
    single = cases(toy.path / "single.xml")
    assert {tag for tag, _, _ in single.values()} == {"failure"} and len(single) == 6
    message = single["test_toy[toy-loan_dune-t0]"][1]
    assert message is not None and message.startswith("reward 0 (end: user_stop): final DB state differs from gold in 1 record(s); books['B1'].holder")
    title = suite(toy.path / "single.xml").get("name", "")
    assert title.startswith("pytest-tau offline self-check: pass^1 0.000, pass^2 0.000 over 3 tasks")

    for index in (1, 2):
        toy.runpytest(*args, "--shard", f"{index}/2", f"--run-dir=shard{index}")
    assert merge.main(["shard1", "shard2", "--out", "merged", "--junitxml", "merged.xml"]) == 1
    assert cases(toy.path / "merged.xml") == single
    assert suite(toy.path / "merged.xml").get("name") == title

    # an interrupted run finished with --resume: the items of the first session are written alike
    (toy.path / "conftest.py").write_text(
        "import os\n\ndef pytest_runtest_setup(item):\n"
        "    if 'refuse' in item.name and not os.path.exists('healed'):\n"
        "        raise RuntimeError('the model service fell over')\n"
    )
    first = toy.runpytest(*args, "--run-dir=resumed", "--junitxml=first.xml")
    assert first.ret == 6
    errors = {name: value for name, value in cases(toy.path / "first.xml").items() if value[0] == "error"}
    assert len(errors) == 2
    assert all(message and message.startswith("infrastructure error, not scored") for _, message, _ in errors.values())
    assert "errors (incomplete)" in suite(toy.path / "first.xml").get("name", "")
    (toy.path / "healed").write_text("")
    toy.runpytest(*args, "--resume=resumed", "--junitxml=resumed.xml")
    assert cases(toy.path / "resumed.xml") == single


def test_reruns_score_the_last_attempt_and_keep_the_others(toy) -> None:
    result = toy.runpytest("-p", "no:cacheprovider", "--run-dir=run", "--agent-strategy", "do-nothing", "-k", "loan_dune",
                           "--reruns", "1", "--junitxml=junit.xml")
    result.stdout.fnmatch_lines(["*1 failed, 2 deselected*1 rerun*"])
    lines = (toy.path / "run" / "results.jsonl").read_text().splitlines()
    assert '"attempts":2' in lines[-1]
    assert (toy.path / "run" / "trajectories" / "toy-loan_dune-t0.attempt1.json").is_file()
    assert (toy.path / "run" / "trajectories" / "toy-loan_dune-t0.json").is_file()
    junit = cases(toy.path / "junit.xml")
    assert [tag for tag, _, _ in junit.values()] == ["failure"]
    assert suite(toy.path / "junit.xml").get("failures") == "1"
    result.stdout.fnmatch_lines(["*--reruns: 1 item(s) were run again; their last attempt is scored, the cost counts every attempt*"])


@pytest.mark.parametrize(
    ("model", "label"),
    [
        ("bedrock/anthropic.claude-3-5-sonnet-20240620-v1:0", "bedrock-anthropic.claude-3-5-sonnet-20240620-v1-0"),
        ("ollama/llama3:8b", "ollama-llama3-8b"),
        ("openai/x?api_key=sk-abcdefghijklmnopqrstu", "openai-x-api_key="),
        ('a<b>c|d"e*f', "a-b-c-d-e-f"),
    ],
)
def test_mt_file_names_are_portable(model: str, label: str) -> None:
    assert label_for(model, "tool-calling") == label
    assert len(label_for("m" * 400, "x")) <= 120


def test_plugin_disabled_is_not_an_internal_error(toy) -> None:
    result = toy.runpytest("-p", "no:tau", "-p", "no:cacheprovider")
    assert result.ret not in (pytest.ExitCode.INTERNAL_ERROR, pytest.ExitCode.USAGE_ERROR)
    assert "INTERNALERROR" not in result.stdout.str() + result.stderr.str()
