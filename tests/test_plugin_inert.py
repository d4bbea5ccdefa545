"""The plugin is inert in a pytest run that asks nothing of it."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("xdist", [[], ["-n", "2"]], ids=["no-xdist", "xdist"])
def test_plain_project_sees_nothing_of_the_plugin(pytester: pytest.Pytester, xdist: list[str]) -> None:
    pytester.makepyfile(test_plain="def test_one():\n    assert 1 + 1 == 2\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *xdist)
    result.assert_outcomes(passed=1)
    assert "pytest-tau" not in result.stdout.str()
    assert not (pytester.path / ".tau").exists()
    assert "litellm" not in result.stdout.str()


def test_offline_runs_never_import_a_model_client(tau) -> None:
    (tau.path / "conftest.py").write_text(
        "import os, sys\n"
        "def pytest_sessionfinish(session):\n"
        "    name = os.environ.get('PYTEST_XDIST_WORKER', 'main')\n"
        "    open(f'imported-{name}.txt', 'w').write(str('litellm' in sys.modules or 'openai' in sys.modules))\n"
    )
    tau.run(in_subprocess=True).assert_outcomes(passed=3)
    flags = [p.read_text() for p in tau.path.glob("imported-*.txt")]
    assert flags and set(flags) == {"False"}
