"""The HTTP surface of the score service (FastAPI).

No `from __future__ import annotations` here: FastAPI reads the endpoint annotations at
runtime, and some name objects local to `create_app`.
"""


import hmac
import math
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, HTTPException, Path, Query, Request, Response
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from .._mt import label_for, parse_mt_task_id, trajectory_file
from .._redact import redact
from ._runs import QueueFull, Run, RunManager, ServiceConfig

__all__ = ["RunRequest", "create_app"]

JSONL = "application/jsonl"
Name = Annotated[str, StringConstraints(pattern=r"^[a-z0-9_]+$", min_length=1, max_length=64)]
ModelName = Annotated[str, StringConstraints(pattern=r"^[^\s\x00-\x1f]+$", min_length=1, max_length=200)]
TASK_PATTERN = r"^(task-)?[a-z0-9_]+(-t[0-9]{1,4})?$"
RUN_ID_PATTERN = r"^[0-9a-f]{32}$"
MODEL_FREE_AGENTS = ("oracle", "do-nothing")


class RunRequest(BaseModel):
    """A run: the keys of the YAML run config (`--tau-config`), without paths."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    model: ModelName | None = None
    model_provider: Name | None = None
    user_model: ModelName | None = None
    user_model_provider: Name | None = None
    agent_strategy: Literal["tool-calling", "act", "react", "few-shot", "oracle", "do-nothing"] | None = None
    user_strategy: Literal["llm", "react", "verify", "reflection", "scripted"] | None = None
    domains: list[Name] | None = Field(None, max_length=100)
    task_ids: list[Name] | None = Field(None, max_length=10000)
    task_split: Literal["test", "train", "dev"] | None = None
    trials: int | None = Field(None, ge=1, le=1000)
    temperature: float | None = Field(None, ge=0.0, le=2.0)
    max_steps: int | None = Field(None, ge=1, le=1000)
    seed: int | None = Field(None, ge=0, le=2**63 - 1)
    api_base: Annotated[str, StringConstraints(max_length=500)] | None = None
    user_api_base: Annotated[str, StringConstraints(max_length=500)] | None = None
    llm_timeout: float | None = Field(None, gt=0, le=3600)
    llm_retries: int | None = Field(None, ge=0, le=100)
    llm_backoff: float | None = Field(None, ge=0, le=600)


class RunCreated(BaseModel):
    id: str
    status: str


class Message(BaseModel):
    detail: str



def known_query(*names: str) -> Any:
    """A dependency that refuses query keys the endpoint does not know: a misspelled filter
    (`?subest=retail`) would otherwise be ignored and every row returned."""

    def check(request: Request) -> None:
        unknown = sorted(set(request.query_params) - set(names))
        if unknown:
            import difflib

            hints = [f"{key!r}" + (f" (did you mean {close[0]!r}?)" if (close := difflib.get_close_matches(key, names, n=1)) else "")
                     for key in unknown]
            raise HTTPException(422, f"unknown query parameter {', '.join(hints)}; known: {', '.join(names)}")

    return check

def _writable(value: Any) -> Any:
    """A validation error's echo of the request as JSON can hold it: NaN and infinities
    (which Python's JSON reader accepts and JSON cannot write) become their text."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {str(key): _writable(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_writable(item) for item in value]
    return value


def run_label(run: Run) -> str:
    """The `{model}` of a run's MT file names, from its request (built-in strategies only)."""
    model, strategy = run.request.get("model"), run.request.get("agent_strategy")
    if strategy is None:
        strategy = "tool-calling" if model else "oracle"
    return label_for(model if strategy not in MODEL_FREE_AGENTS else None, strategy)


def create_app(config: ServiceConfig, manager: RunManager | None = None) -> FastAPI:
    runs = manager or RunManager(config)
    bearer = HTTPBearer(auto_error=False, description="the service token (TAU_SERVICE_TOKEN)")

    def authorized(credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]) -> None:
        if config.token is None:
            return
        given = credentials.credentials.encode() if credentials is not None else b""
        if not hmac.compare_digest(given, config.token.encode()):
            raise HTTPException(401, "a valid bearer token is required", headers={"WWW-Authenticate": "Bearer"})

    errors: dict[int | str, dict[str, Any]] = {
        401: {"model": Message, "description": "missing or wrong bearer token"},
        404: {"model": Message, "description": "no such run, model, subset or task"},
    }
    app = FastAPI(
        title="pytest-tau score service",
        version="1",
        description="Runs pytest-tau in the background and serves MT-Benchmark scores.",
        dependencies=[],
        # No unguarded pages: the schema and its UI are served below, behind the token, when asked for.
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.runs = runs
    guarded = [Depends(authorized)]

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        """A 422 for any input, NaN and infinities included (the default handler answers 500 to them)."""
        errors = _writable(jsonable_encoder(exc.errors(), custom_encoder={float: lambda v: v}))
        return JSONResponse({"detail": errors}, status_code=422)

    if config.docs:

        @app.get("/openapi.json", dependencies=guarded, include_in_schema=False)
        def openapi() -> JSONResponse:
            return JSONResponse(app.openapi())

        @app.get("/docs", dependencies=guarded, include_in_schema=False)
        def docs() -> HTMLResponse:
            return get_swagger_ui_html(openapi_url="/openapi.json", title="pytest-tau score service")

    @app.get("/health", responses={200: {"model": Message}})
    def health() -> dict[str, str]:
        """Liveness for container health checks (no token needed)."""
        return {"detail": "ok"}

    @app.post("/runs", status_code=202, response_model=RunCreated, dependencies=guarded,
              responses={**errors, 429: {"model": Message, "description": "the queue is full"}})
    def start_run(request: RunRequest, response: Response) -> RunCreated:
        """Queue a run; it starts when a slot is free."""
        for key in ("api_base", "user_api_base"):
            value = getattr(request, key)
            if value is not None and value not in config.api_bases:
                raise HTTPException(422, f"{key}: not allowed by this service (allowed: {', '.join(config.api_bases) or 'none'})")
        if request.user_model is None and request.model is None and request.user_strategy not in (None, "scripted"):
            raise HTTPException(422, "user_strategy: a model user needs model or user_model")
        try:
            run = runs.submit(request.model_dump(exclude_none=True))
        except QueueFull as exc:
            raise HTTPException(429, str(exc), headers={"Retry-After": "30"}) from None
        response.headers["Location"] = f"/runs/{run.id}"
        return RunCreated(id=run.id, status=run.status)

    def find(run_id: str) -> Run:
        run = runs.get(run_id)
        if run is None:
            raise HTTPException(404, f"no run {run_id}")
        return run

    RunId = Annotated[str, Path(pattern=RUN_ID_PATTERN, description="a run id from POST /runs")]

    @app.get("/runs/{run_id}", dependencies=guarded, responses=errors)
    def run_status(run_id: RunId) -> dict[str, Any]:
        """A run's status and progress (items done / collected)."""
        return find(run_id).describe()

    @app.delete("/runs/{run_id}", dependencies=guarded, responses={**errors, 409: {"model": Message}})
    def cancel_run(run_id: RunId) -> dict[str, Any]:
        """Cancel a queued or running run."""
        run = find(run_id)
        if run.status not in ("queued", "running"):
            raise HTTPException(409, f"run {run_id} is already {run.status}")
        runs.cancel(run_id)
        return run.describe()

    @app.get("/scores", dependencies=[*guarded, Depends(known_query("model", "subset", "taskID"))], response_class=Response,
             responses={**errors, 200: {"content": {JSONL: {}}, "description": "one MT-Benchmark scores line per item"}})
    def scores(
        model: Annotated[ModelName | None, Query(description="the agent model (`/` may be given as `-`)")] = None,
        subset: Annotated[Name | None, Query(description="a domain")] = None,
        taskID: Annotated[
            str | None, Query(pattern=TASK_PATTERN, max_length=80, description="task-<id>, <id>, or with -t<n> one trial")
        ] = None,
    ) -> Response:
        """The latest finished run's scores as JSONL, filtered exactly."""
        label = label_for(model, model) if model is not None else None  # the MT file names' form
        found = runs.latest_scores(label)
        if found is None:
            raise HTTPException(404, f"no finished run scored model {redact(model)}" if model else "no finished run yet")
        run, table = found
        if label is None:
            label = sorted(table.models)[0] if table.models else ""
        if label not in table.models:
            raise HTTPException(404, f"run {run.id} has no scores")
        if subset is not None and subset not in table.models[label]:
            raise HTTPException(404, f"no subset {subset} in run {run.id} (subsets: {', '.join(sorted(table.models[label]))})")
        if taskID is None:
            body = table.body(label, subset)
        else:
            task, trial = parse_mt_task_id(taskID)
            rows = table.rows(label, subset, task, trial)
            if not rows:
                raise HTTPException(404, f"no task {taskID} in run {run.id}")
            body = b"".join(row.line for row in rows)
        headers = {"X-Tau-Run": run.id}
        if table.unreadable:  # said with every answer: these scores may be missing items
            shown = ", ".join(table.unreadable[:5]) + (" ..." if len(table.unreadable) > 5 else "")
            headers["X-Tau-Unreadable-Lines"] = f"{len(table.unreadable)}: {shown}"
        return Response(body, media_type=JSONL, headers=headers)

    @app.get("/runs/{run_id}/trajectories/{task}", dependencies=[*guarded, Depends(known_query("subset"))], response_class=Response,
             responses={**errors, 409: {"model": Message}, 200: {"content": {JSONL: {}}, "description": "one message per line"}})
    def trajectory(
        run_id: RunId,
        task: Annotated[str, Path(pattern=TASK_PATTERN, max_length=80, description="task-<id> or task-<id>-t<n>")],
        subset: Annotated[Name | None, Query(description="the domain, when the task id is in several")] = None,
    ) -> Response:
        """One item's MT trajectory (available as soon as the item finished)."""
        run = find(run_id)
        name, trial = parse_mt_task_id(task)
        subsets = [subset] if subset is not None else sorted(p.name for p in run.mt.glob("*") if p.is_dir())
        label = run_label(run)
        found = [path for s in subsets if (path := trajectory_file(run.mt, s, label, name, trial or 0)).is_file()]
        if not found:
            raise HTTPException(404, f"no trajectory for {task} in run {run_id}")
        if len(found) > 1:
            raise HTTPException(409, f"{task} is in several subsets ({', '.join(sorted(p.parent.name for p in found))}): give ?subset=")
        return Response(found[0].read_bytes(), media_type=JSONL)

    return app
