"""The project's root conftest: the pytest-tau plugin registers itself through its `pytest11`
entry point, so a benchmark run needs nothing here. Project-wide fixtures would go here."""
