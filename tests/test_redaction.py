"""Secrets in model strings never reach the terminal or JUnit, even in an erroring item's traceback."""

from __future__ import annotations

from pytest_tau.testing import Faults, OpenAIServer, OracleModel

CANARY = "sk-canary0123456789abcdef"


def test_erroring_item_traceback_is_redacted(tau, toy_domain) -> None:
    with OpenAIServer(OracleModel([toy_domain]), Faults(p503=1.0)) as server:
        result = tau.run("--model", f"openai/x?api_key={CANARY}", "--api-base", server.url, "--llm-retries", "0",
                         "--junitxml", "junit.xml", "--tb=long", "--showlocals", "-rE")
    assert result.ret != 0
    written = result.stdout.str() + result.stderr.str() + (tau.path / "junit.xml").read_text()
    written += "".join(p.read_text() for p in tau.run_dir.rglob("*") if p.is_file())
    assert "error" in written
    assert CANARY not in written


def test_settings_repr_redacts() -> None:
    from pytest_tau._settings import Settings

    settings = Settings.resolve({"model": f"openai/x?api_key={CANARY}", "api_base": f"http://u:{CANARY}@h/v1"})
    assert CANARY not in repr(settings) and CANARY not in str(settings)
    assert "api_key=***" in repr(settings)
