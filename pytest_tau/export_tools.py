"""``python -m pytest_tau.export_tools <domain> --format openai|mcp|cx``: a domain's tools as JSON.

``openai``: function-calling schemas (what ``--agent-strategy http`` sends); ``mcp``: the
``tools/list`` entries of the harness's MCP server (``--agent-strategy a2a``); ``cx``:
Dialogflow CX client-side function ``Tool`` resources to register on the agent before
``--agent-strategy dialogflow-cx`` (each answers ``{"result": <the tool's text>}``).
"""

from __future__ import annotations

import argparse
import json
import sys

from ._discovery import load_domain
from .remote._schemas import FORMATS, export


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pytest_tau.export_tools", description=__doc__.split("\n\n")[0])
    parser.add_argument("domain", help="a domain of the project (tests_domains/<domain>/)")
    parser.add_argument("--format", choices=FORMATS, default="openai", help="schema format (default openai)")
    args = parser.parse_args(argv)
    try:
        domain = load_domain(args.domain)
    except ModuleNotFoundError:
        parser.error(f"unknown domain: {args.domain}")
    json.dump(export(domain, args.format), sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
