"""Item ids `<domain>-<task>-t<trial>`, -k and -m selection, --task-ids and --task-split."""

from __future__ import annotations


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


def test_task_split_train_selects_nothing_in_toy(tau) -> None:
    result = tau.run("--task-split", "train")
    assert "passed" not in result.stdout.str()
