"""The score service: `python -m pytest_tau.service` (needs the `service` extra: FastAPI, uvicorn).

POST /runs queues a benchmark run (a plain pytest process with the plugin); GET /runs/{id}
follows it, DELETE cancels it; GET /scores serves the latest finished run's MT-Benchmark
scores with exact filters; GET /runs/{id}/trajectories/{task} one trajectory. Every
endpoint but /health needs the bearer token (TAU_SERVICE_TOKEN or TAU_SERVICE_TOKEN_FILE).
"""

from __future__ import annotations

from ._app import RunRequest, create_app
from ._runs import RunManager, ServiceConfig

__all__ = ["RunManager", "RunRequest", "ServiceConfig", "create_app"]
