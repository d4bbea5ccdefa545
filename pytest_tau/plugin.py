"""The pytest plugin (entry point `tau`)."""
