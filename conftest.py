"""Project-wide pytest set-up: syrupy snapshots live in the top-level snapshots/ folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.amber import AmberSnapshotExtension

SNAPSHOTS = Path(__file__).parent / "snapshots"


class TauSnapshotExtension(AmberSnapshotExtension):
    """Amber snapshots, one file per test module, in snapshots/ (reviewed as diffs)."""

    @classmethod
    def dirname(cls, *, test_location: object) -> str:
        return str(SNAPSHOTS)


@pytest.fixture
def snapshot(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(TauSnapshotExtension)
