"""pytest --markers lists a marker per domain."""

from __future__ import annotations


def test_markers_lists_the_domains(tau) -> None:
    result = tau.run("--markers")
    result.stdout.fnmatch_lines(["@pytest.mark.toy: the tasks of the toy domain"])
