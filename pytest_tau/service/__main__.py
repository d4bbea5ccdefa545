"""`python -m pytest_tau.service`: serve the score service with uvicorn."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from ._runs import ServiceConfig

__all__ = ["main", "read_token"]


def read_token(token_file: str | None) -> str | None:
    """The bearer token: TAU_SERVICE_TOKEN, else the file named by --token-file or TAU_SERVICE_TOKEN_FILE."""
    token = os.environ.get("TAU_SERVICE_TOKEN", "").strip()
    if token:
        return token
    path = token_file or os.environ.get("TAU_SERVICE_TOKEN_FILE")
    if path:
        return Path(path).read_text(encoding="utf-8").strip() or None
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m pytest_tau.service", description=__doc__)
    parser.add_argument("--host", default=os.environ.get("TAU_SERVICE_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("TAU_SERVICE_PORT", "8000")))
    parser.add_argument("--project", default=os.environ.get("TAU_SERVICE_PROJECT", "."), help="folder with tests_domains/ and fixtures/")
    parser.add_argument("--runs", default=os.environ.get("TAU_SERVICE_RUNS", ".tau/service-runs"), help="where runs are kept")
    parser.add_argument("--token-file", default=None, help="file holding the bearer token (or TAU_SERVICE_TOKEN_FILE)")
    parser.add_argument("--no-auth", action="store_true", help="serve without a token (only on a trusted loopback)")
    parser.add_argument("--max-queue", type=int, default=8, help="runs that may wait (beyond it: 429)")
    parser.add_argument("--concurrent-runs", type=int, default=1)
    parser.add_argument("--workers", type=int, default=int(os.environ.get("TAU_SERVICE_WORKERS", "0")), help="xdist workers per run (-n)")
    parser.add_argument("--docs", action="store_true", help="serve /docs and /openapi.json (behind the token)")
    parser.add_argument("--allow-api-base", action="append", default=[], help="an api_base a run request may name (repeatable)")
    args = parser.parse_args(argv)
    try:
        token = read_token(args.token_file)
    except OSError as exc:
        print(f"pytest-tau service: cannot read the token file: {exc}", file=sys.stderr)
        return 2
    if token is None and not args.no_auth:
        print("pytest-tau service: set TAU_SERVICE_TOKEN (or TAU_SERVICE_TOKEN_FILE / --token-file), or pass --no-auth", file=sys.stderr)
        return 2
    project = Path(args.project).resolve()
    if not (project / "tests_domains").is_dir():
        print(f"pytest-tau service: {project} has no tests_domains/ folder (give --project)", file=sys.stderr)
        return 2
    import uvicorn

    from ._app import create_app

    config = ServiceConfig(
        project=project, runs=Path(args.runs).resolve(), token=None if args.no_auth else token,
        max_queue=args.max_queue, concurrent_runs=args.concurrent_runs, workers=args.workers,
        api_bases=tuple(args.allow_api_base), docs=args.docs,
    )
    app = create_app(config)
    try:
        uvicorn.run(app, host=args.host, port=args.port, log_level="info")
    finally:
        app.state.runs.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
