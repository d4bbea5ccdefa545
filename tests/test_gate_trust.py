"""A gate a CI job can trust: it never passes a run it could not judge, it reads its options
wherever the README says they can be written, it fails partial runs, and what it prints
agrees with the exit code. In-process runs of the toy project (one xdist run where the
workers are the point)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from pytest_tau._gate import GateOptions, gate_problems, parse_threshold

TOY_PROJECT = Path(__file__).parent / "toy_project"
USAGE = pytest.ExitCode.USAGE_ERROR


@pytest.fixture
def toy(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    for name in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GITHUB_STEP_SUMMARY"):
        monkeypatch.delenv(name, raising=False)
    shutil.copytree(TOY_PROJECT, pytester.path, dirs_exist_ok=True)
    (pytester.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\n")
    return pytester


def run(toy: pytest.Pytester, *args: str, run_dir: str = "run") -> pytest.RunResult:
    return toy.runpytest("-p", "no:cacheprovider", f"--run-dir={run_dir}", *args)


def summary(toy: pytest.Pytester, run_dir: str = "run") -> dict:
    return json.loads((toy.path / run_dir / "summary.json").read_text())


def write_results(folder: Path, lines: list[dict]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "results.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    return folder


def line(domain: str, task: str, status: str, trial: int = 0) -> dict:
    return {"item": f"{domain}-{task}-t{trial}", "domain": domain, "task": task, "trial": trial, "seed": 0,
            "status": status, "end_reason": "error" if status == "error" else "user_stop",
            "reward": None if status == "error" else float(status == "passed")}


# -- refused before anything runs ---------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--max-regression", "0.05"], "*--max-regression 0.05 needs --baseline RUN_DIR*"),
        (["--min-pass-hat-k", "2=0.5"], "*--min-pass-hat-k 2=0.5: pass^2 needs --trials 2 or more (this run has 1)*"),
        (["--min-pass-hat-k", "tooy:1=0.5"], "*--min-pass-hat-k tooy:1=0.5: no domain 'tooy' (did you mean 'toy'?)*"),
        (["--baseline=errored"], "*--baseline errored: all 2 of its items ended in errors, so nothing can be compared*"),
        (["--baseline=nowhere"], "*--baseline nowhere: no results.jsonl there*"),
    ],
    ids=["regression-without-baseline", "k-above-trials", "unknown-domain", "all-error-baseline", "not-a-run"],
)
def test_a_gate_that_cannot_judge_is_a_usage_error(toy, args, expected) -> None:
    write_results(toy.path / "errored", [line("toy", "loan_dune", "error"), line("toy", "refuse_loaned", "error")])
    result = run(toy, *args)
    assert result.ret == USAGE
    result.stderr.fnmatch_lines([expected])
    assert not (toy.path / "run").exists()  # nothing ran


def test_gate_problems_unit() -> None:
    options = GateOptions(thresholds=(parse_threshold("retail:1=0.5"),))
    assert gate_problems(options, 1, ["retail", "airline"], ["airline"]) == [
        "--min-pass-hat-k retail:1=0.5: 'retail' is not among the domains run (airline)"
    ]
    assert gate_problems(GateOptions(max_regression=0.0), 1) != []  # an explicit 0 without a baseline too
    assert gate_problems(GateOptions(), 1) == []


def test_a_baseline_sharing_no_scored_task_fails_the_gate(toy) -> None:
    write_results(toy.path / "elsewhere", [line("other", "a", "passed"), line("other", "b", "passed")])
    result = run(toy, "--agent-strategy", "do-nothing", "--baseline=elsewhere")
    assert result.ret == 7
    result.stdout.fnmatch_lines(["*GATE FAILED (exit 7): nothing to compare with the baseline elsewhere: no task was scored in both runs*"])
    assert "gate passed" not in result.stdout.str()
    assert summary(toy)["gate"]["passed"] is False


# -- every option from the ini file and the YAML run config ------------------------------


def test_gate_options_from_the_ini_file(toy) -> None:
    run(toy, run_dir="good")
    (toy.path / "pytest.ini").write_text(
        "[pytest]\ntestpaths = tests_domains\nmin_pass_hat_k = 1=0.1 toy:1=0.1\nbaseline = good\nmax_regression = 0.05\n"
    )
    result = run(toy, "--agent-strategy", "do-nothing")
    assert result.ret == 7
    result.stdout.fnmatch_lines(["*GATE FAILED (exit 7): pass^1 >= 0.1: it is 0.000*", "*GATE FAILED (exit 7): pass^1 regressed vs *good*"])
    assert "PytestConfigWarning" not in result.stdout.str()


def test_gate_options_from_the_yaml_run_config(toy) -> None:
    run(toy, run_dir="good")
    (toy.path / "run.yaml").write_text(
        "min_pass_hat_k: ['1=0.1']\nbaseline: good\nmax-regression: 0.05\nallow_partial: true\n"
    )
    result = run(toy, "--agent-strategy", "do-nothing", "--tau-config=run.yaml", "-k", "loan_dune")
    assert result.ret == 7
    result.stdout.fnmatch_lines(["*GATE FAILED (exit 7): pass^1 >= 0.1: it is 0.000*", "*GATE FAILED (exit 7): pass^1 regressed*"])
    assert "the run is partial" not in result.stdout.str()  # allow_partial came from the file


def test_a_spaced_path_option_outside_the_project_is_refused(toy, tmp_path_factory) -> None:
    # pytest takes the value of an unknown option for a test path while it looks for the ini
    # file, so the project's ini (and the model set there) would be dropped: refused instead.
    outside = write_results(tmp_path_factory.mktemp("baselines") / "prod", [line("toy", "loan_dune", "passed")])
    config = tmp_path_factory.mktemp("configs") / "run.yaml"
    config.write_text("trials: 1\n")
    (toy.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\nagent_strategy = do-nothing\n")
    for option, value in (("--baseline", outside), ("--tau-config", config)):
        result = run(toy, option, str(value))
        assert result.ret == USAGE, option
        result.stderr.fnmatch_lines([f"*{option} {value}: pytest reads a space-separated path*write {option}={value}*"])


# -- partial runs ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "selection",
    [["-k", "loan_dune"], ["--deselect", "tests_domains/toy/test_toy.py::test_toy[toy-loan_dune-t0]"]],
    ids=["k", "deselect"],
)
def test_a_partial_run_is_marked_and_fails_the_gate(toy, selection) -> None:
    result = run(toy, *selection, "--min-pass-hat-k", "1=0.5")
    assert result.ret == 7
    result.stdout.fnmatch_lines([f"*GATE FAILED (exit 7): the run is partial ({selection[0]} left out * item(s) of the domain(s) it ran (toy)*--allow-partial*"])
    assert summary(toy)["partial"].startswith(selection[0])
    allowed = run(toy, *selection, "--min-pass-hat-k", "1=0.5", "--allow-partial", run_dir="allowed")
    assert allowed.ret == 0 and summary(toy, "allowed")["partial"]
    allowed.stdout.fnmatch_lines(["*gate passed*"])
    ungated = run(toy, *selection, run_dir="ungated")
    assert ungated.ret == 0 and "gate passed" not in ungated.stdout.str()
    ungated.stdout.fnmatch_lines(["*PARTIAL: *"])


def test_whole_domains_resumes_and_shards_are_not_partial(toy) -> None:
    assert run(toy, "-k", "toy", "--min-pass-hat-k", "1=0.5").ret == 0
    assert summary(toy)["partial"] is None
    assert run(toy, "--shard", "1/2", "--min-pass-hat-k", "1=0.5", run_dir="shard").ret == 0
    assert summary(toy, "shard")["partial"] is None


def test_last_failed_and_stepwise_are_partial(toy) -> None:
    # pytest's own view of one item is a failure while the marker file exists (its cache is what --lf/--sw read).
    (toy.path / "conftest.py").write_text(
        "import os\nimport pytest\n\n@pytest.hookimpl(wrapper=True)\ndef pytest_runtest_makereport(item, call):\n"
        "    report = yield\n"
        "    if call.when == 'call' and 'refuse' in item.name and os.path.exists('fail-refuse'):\n"
        "        report.outcome, report.longrepr = 'failed', 'planted'\n"
        "    return report\n"
    )
    for flag in ("--lf", "--sw"):
        (toy.path / "fail-refuse").write_text("")
        toy.runpytest(f"--run-dir=first{flag}", *([flag] if flag == "--sw" else []))
        (toy.path / "fail-refuse").unlink()
        result = toy.runpytest(f"--run-dir=again{flag}", flag, "--min-pass-hat-k", "1=0.1")
        assert result.ret == 7, flag
        assert summary(toy, f"again{flag}")["partial"].startswith(flag), flag


def test_partial_under_xdist_reaches_the_controller(toy) -> None:
    result = toy.runpytest_subprocess("-p", "no:cacheprovider", "--run-dir=run", "-n", "2", "-k", "loan_dune or refuse",
                                      "--min-pass-hat-k", "1=0.5")
    assert result.ret == 7
    assert summary(toy)["partial"].startswith("-k left out 1 item(s)")


# -- what is said agrees with the exit code ---------------------------------------------------


def test_messages_agree_with_the_exit_code(toy, tmp_path, monkeypatch) -> None:
    step = tmp_path / "step.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step))
    plain = run(toy, run_dir="plain")
    assert plain.ret == 0
    assert "gate passed" not in plain.stdout.str().lower()
    assert "Gate" not in step.read_text()  # no gate set: none passed
    (toy.path / "conftest.py").write_text(
        "def pytest_runtest_setup(item):\n    if 'loan_dune' in item.name:\n        raise RuntimeError('the model service fell over')\n"
    )
    step.write_text("")
    failing = run(toy, "--agent-strategy", "do-nothing", "--min-pass-hat-k", "1=0.9")
    assert failing.ret == 6
    out = failing.stdout.str()
    assert "GATE FAILED (exit 7)" not in out and "gate passed" not in out
    failing.stdout.fnmatch_lines(["*gate failed too (the exit code is 6: the run is incomplete, which comes first): pass^1 >= 0.9*"])
    assert "(exit 7)" not in step.read_text() and "exit 6" in step.read_text()
    step.write_text("")
    held = run(toy, "--min-pass-hat-k", "1=0.1", run_dir="held")
    assert held.ret == 6
    held.stdout.fnmatch_lines(["*gate not judged: the run is incomplete (exit 6)*"])
    assert "gate passed" not in held.stdout.str() and "Gate passed" not in step.read_text()
    assert "Gate not judged" in step.read_text()


def test_the_gate_prints_the_smallest_drop_it_could_catch(toy) -> None:
    run(toy, "--trials", "2", run_dir="good")
    result = run(toy, "--trials", "2", "--baseline=good", "--max-regression", "0.05")
    assert result.ret == 0
    result.stdout.fnmatch_lines(["*power: over 3 paired tasks with 2 trial(s), this gate catches a true drop of pass^1 of 0.* or more with power 0.8*"])
    assert 0.05 < summary(toy)["gate"]["detectable_drop"] < 1


# -- the example CI files keep the gate -------------------------------------------------------

CI_EXAMPLES = Path(__file__).parents[1] / "docs" / "ci"


def _commands(text: str) -> list[str]:
    """pytest and merge invocations, continuation lines joined."""
    joined = re.sub(r"\\\s*\n\s*", " ", text)
    lines = [line.strip() for line in joined.splitlines()]
    return [line for line in lines if re.search(r"(pytest |pytest_tau\.merge )", line) and not line.startswith(("#", "//")) and "pip install" not in line]


def _gate_flags(command: str) -> list[str]:
    return sorted(re.findall(r"--(?:min-pass-hat-k|baseline|max-regression|allow-partial)(?:[ =][^\s'\"]+)?", command))


@pytest.mark.parametrize("name", sorted(p.name for p in CI_EXAMPLES.iterdir()))
def test_ci_examples_keep_the_gate_across_resumes_and_shards(name: str) -> None:
    commands = _commands((CI_EXAMPLES / name).read_text())
    judging = [c for c in commands if "--shard" not in c]  # a shard is judged by the merge, never alone
    assert judging, name
    gates = {tuple(_gate_flags(c)) for c in judging}
    assert len(gates) == 1 and next(iter(gates)), f"{name}: every judging command needs the same gate: {judging}"
    assert all(not _gate_flags(c) for c in commands if "--shard" in c), f"{name}: a shard applies no gate of its own"
    if any("--resume" in c for c in commands):
        assert any("--baseline" in c and "--resume" in c for c in commands), f"{name}: the resume drops the baseline"


def test_a_missing_key_with_more_workers_than_cores_is_found_before_any_starts(toy) -> None:
    from pytest_tau.plugin import workers_outnumber_cores

    assert workers_outnumber_cores(16, 2) and not workers_outnumber_cores(2, 2) and not workers_outnumber_cores(None, 2)
    # A machine of one core (the project's conftest is read before the plugin configures); its own process.
    (toy.path / "conftest.py").write_text("import os\n\nos.cpu_count = lambda: 1\n")
    result = toy.runpytest_subprocess("-p", "no:cacheprovider", "--run-dir=run", "-n", "3", "--model", "openai/gpt-4o")
    assert result.ret == USAGE
    result.stderr.fnmatch_lines(["*missing API key for the agent and user model 'openai/gpt-4o'*"])
    assert "gw0" not in result.stdout.str() + result.stderr.str()  # no worker was started to find it
