"""Item ids `<domain>-<task>-t<trial>`, -k and -m selection, --task-ids and --task-split."""

from __future__ import annotations

import pytest


def test_item_ids_and_k_selection(tau) -> None:
    result = tau.run("--trials", "2", "-k", "toy and t1", "--collect-only", "-q")
    result.stdout.fnmatch_lines(
        [
            "tests_domains/toy/test_toy.py::test_toy[[]toy-fines_then_loan-t1[]]",
            "tests_domains/toy/test_toy.py::test_toy[[]toy-loan_dune-t1[]]",
            "tests_domains/toy/test_toy.py::test_toy[[]toy-refuse_loaned-t1[]]",
        ]
    )
    assert "-t0]" not in result.stdout.str()


def test_domain_marker(tau) -> None:
    result = tau.run("-m", "toy", "--strict-markers")
    result.assert_outcomes(passed=3)
    result = tau.run("-m", "not toy")
    assert "passed" not in result.stdout.str()


def test_task_ids(tau) -> None:
    result = tau.run("--task-ids", "loan_dune,refuse_loaned", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*toy-loan_dune-t0*"])
    assert "fines_then_loan" not in result.stdout.str()


def test_task_split_with_no_tasks_is_refused(tau) -> None:
    result = tau.run("--task-split", "dev")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--task-split dev: no domain has a task in this split (domains: toy)*"])


def test_unknown_task_ids_are_refused(tau) -> None:
    result = tau.run("--task-ids", "nonexistent")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--task-ids: no domain has a task 'nonexistent'*"])


def test_a_typo_among_good_task_ids_is_named(tau) -> None:
    result = tau.run("--task-ids", "loan_dune,loan_dnue")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*no domain has a task 'loan_dnue' (did you mean 'loan_dune'?)*"])
    assert "passed" not in result.stdout.str()


def test_an_empty_selection_is_not_green(tau) -> None:
    result = tau.run("-k", "no_such_thing")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    assert "skipped" not in result.stdout.str()


def test_k_domain_name_is_exact(tau) -> None:
    # "toy" is the domain; a task id containing another domain's name must not be picked by it.
    result = tau.run("-k", "dune", "--collect-only", "-q")
    result.stdout.fnmatch_lines(["*toy-loan_dune-t0*"])
    result = tau.run("-k", "loan", "--collect-only", "-q")  # a plain word still matches task ids
    assert "loan_dune" in result.stdout.str() and "fines_then_loan" in result.stdout.str()


def test_k_trial_is_exact(tau) -> None:
    result = tau.run("--trials", "12", "-k", "toy and t1", "--collect-only", "-q")
    ids = [line for line in result.stdout.str().splitlines() if "::" in line]
    assert len(ids) == 3 and all(line.endswith("-t1]") for line in ids), ids
    result = tau.run("--trials", "12", "-k", "toy and not t1", "--collect-only", "-q")
    assert sum("::" in line for line in result.stdout.str().splitlines()) == 33


def test_k_other_domain_word_in_task_id(tau) -> None:
    # A second domain "loan" makes "loan" a domain word: -k loan then selects that domain only.
    import shutil

    shutil.copytree(tau.path / "tests_domains" / "toy", tau.path / "tests_domains" / "loan")
    shutil.copytree(tau.path / "fixtures" / "toy", tau.path / "fixtures" / "loan")
    for path in (tau.path / "tests_domains" / "loan").glob("*.py"):
        text = path.read_text().replace('"toy"', '"loan"').replace("tests_domains.toy", "tests_domains.loan")
        path.write_text(text.replace("test_toy", "test_loan").replace('"fixtures" / "toy"', '"fixtures" / "loan"'))
    (tau.path / "tests_domains" / "loan" / "test_toy.py").rename(tau.path / "tests_domains" / "loan" / "test_loan.py")
    result = tau.run("-k", "loan", "--collect-only", "-q")
    ids = [line for line in result.stdout.str().splitlines() if "::" in line]
    assert ids and all("[loan-" in line for line in ids), result.stdout.str()


def test_space_separated_path_outside_the_project_is_refused(tau, tmp_path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    result = tau.pytester.runpytest_subprocess("-p", "no:cacheprovider", *tau.xdist, "--run-dir", str(outside))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([f"*--run-dir {outside}: *write --run-dir={outside}*"])
