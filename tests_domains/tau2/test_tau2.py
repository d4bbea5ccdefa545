"""τ²-bench's airline, retail and telecom tasks (the `tau2` extra), collected only when a run names
them: `pytest -m tau2_retail`, `pytest --domains tau2_telecom`, `pytest tests_domains/tau2`."""

from pytest_tau.tau2 import test_tau2_airline, test_tau2_retail, test_tau2_telecom

__all__ = ["test_tau2_airline", "test_tau2_retail", "test_tau2_telecom"]
