"""--tau-config run.yaml: the ini option names as keys; command line > YAML > ini; errors name file, key, problem."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_tau._gate import GATE_KEYS
from pytest_tau._runconfig import RunConfigError, config_keys, load_run_config
from pytest_tau._settings import OPTIONS


def write(tau, text: str, ini: str = "") -> Path:
    (tau.path / "pytest.ini").write_text("[pytest]\ntestpaths = tests_domains\n" + ini)
    path = tau.path / "conf" / "run.yaml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text)
    return path


def test_yaml_sets_the_run(tau) -> None:
    path = write(tau, "trials: 2\nseed: 7\ntask-ids: [loan_dune, fines_then_loan]\ndomains: [toy]\nmt_out: mt\n")
    result = tau.run("--tau-config", str(path))
    result.assert_outcomes(passed=4)
    result.stdout.fnmatch_lines(["*trials 2, split test, seed 7*"])
    assert (tau.path / "conf" / "mt" / "toy" / "oracle_scores.jsonl").is_file()  # relative to the YAML file


def test_command_line_over_yaml_over_ini(tau) -> None:
    path = write(tau, "trials: 2\n", ini="trials = 3\nseed = 5\n")
    result = tau.run("--tau-config", str(path))
    result.assert_outcomes(passed=6)  # YAML's 2 over the ini's 3
    result.stdout.fnmatch_lines(["*trials 2, split test, seed 5*"])  # the ini still counts where YAML is silent
    tau.run("--tau-config", str(path), "--trials", "1").assert_outcomes(passed=3)


def test_ini_names_the_config(tau) -> None:
    write(tau, "agent_strategy: do-nothing\n", ini="tau_config = conf/run.yaml\n")
    tau.run("--task-ids", "loan_dune").assert_outcomes(failed=1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("trials: 0\n", "*run.yaml: key 'trials': Input should be greater than or equal to 1 (got 0)*"),
        ("task_split: later\n", "*run.yaml: key 'task_split': Input should be 'test', 'train' or 'dev' (got 'later')*"),
        ("trails: 2\n", "*run.yaml: key 'trails': unknown key; did you mean 'trials'?*"),
        ("- trials\n", "*run.yaml: the top level must be a mapping*"),
        ("trials: [\n", "*run.yaml: not valid YAML*"),
        ("domains: [nowhere]\n", "*--domains: unknown domain(s) nowhere (known: toy)*"),
    ],
    ids=["bound", "choice", "unknown-key", "not-a-mapping", "bad-yaml", "unknown-domain"],
)
def test_errors_name_file_key_problem(tau, text: str, expected: str) -> None:
    result = tau.run("--tau-config", str(write(tau, text)))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([expected])


def test_keys_are_the_ini_options(tmp_path: Path) -> None:
    assert {o.ini for o in OPTIONS} | {"domains", "mt_out"} | set(GATE_KEYS) == set(config_keys())
    path = tmp_path / "run.yaml"
    path.write_text("task_ids: b, a\ntemperature: 0.5\nrecord: tapes\n")
    values = load_run_config(path)
    assert values["task_ids"] == ("a", "b")
    assert values["record"] == tmp_path / "tapes"
    path.write_text("temperature: 9\nllm_retries: many\n")
    with pytest.raises(RunConfigError) as info:
        load_run_config(path)
    assert "key 'temperature'" in str(info.value) and "key 'llm_retries'" in str(info.value)
