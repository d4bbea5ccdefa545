"""Quarry data platform: the pipeline desk's tools (datasets, cleaning, pipelines, models, access)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from pytest_tau import Domain, FreeText, ToolError
from pytest_tau.invariants import not_after_now
from tests_domains.data_science.schema import (
    Chart,
    CleaningJob,
    DataScienceDB,
    Dataset,
    Evaluation,
    Grant,
    Model,
    Pipeline,
    Run,
    User,
)

DOMAIN = Domain("data_science", DataScienceDB, now=datetime(2026, 3, 18, 10, 0))

DatasetId = Annotated[str, Field(description="the dataset id, e.g. 'DS2041'")]
PipelineId = Annotated[str, Field(description="the pipeline id, e.g. 'PL3041'")]
ColumnName = Annotated[str, Field(description="a column name of the dataset's schema")]
Operation = Literal["drop_nulls", "drop_negatives", "dedupe"]


class DatasetSummary(BaseModel):
    dataset_id: str
    name: str
    description: str
    owner_id: str
    team: str
    sensitivity: str
    status: str
    created_date: str
    columns: list[dict[str, Any]]
    row_count: int


class ColumnStats(BaseModel):
    dataset_id: str
    column: str
    row_count: int
    non_null_count: int
    null_count: int
    mean: float | None
    minimum: float | None
    maximum: float | None
    total: float | None


class Regression(BaseModel):
    dataset_id: str
    x_column: str
    y_column: str
    rows_used: int
    slope: float
    intercept: float
    r_squared: float


class CleaningPreview(BaseModel):
    dataset_id: str
    operation: str
    column: str | None
    rows_before: int
    rows_removed: int
    rows_after: int
    removed_percent: float


class GrantSummary(BaseModel):
    grant_id: str
    user_id: str
    dataset_id: str
    dataset_name: str
    level: str
    granted_on: str
    expires_on: str
    status: str


def _summary(ds: Dataset) -> DatasetSummary:
    return DatasetSummary(
        dataset_id=ds.dataset_id, name=ds.name, description=ds.description, owner_id=ds.owner_id, team=ds.team,
        sensitivity=ds.sensitivity, status=ds.status, created_date=ds.created_date,
        columns=[c.model_dump() for c in ds.columns], row_count=len(ds.rows),
    )


def _named(ds: Dataset, column: str) -> str:
    """A column as the schema spells it ('Cost_USD' and ' cost_usd' name cost_usd)."""
    wanted = column.strip().casefold()
    return next((c.name for c in ds.columns if c.name.casefold() == wanted), column)


def _column(ds: Dataset, column: str, numeric: bool = False) -> None:
    for c in ds.columns:
        if c.name == column:
            if numeric and c.dtype == "string":
                raise ToolError(f"column '{column}' of {ds.dataset_id} is not numeric")
            return
    raise ToolError(f"dataset {ds.dataset_id} has no column '{column}'")


def _numbers(ds: Dataset, column: str) -> list[float]:
    return [float(v) for r in ds.rows if isinstance((v := r.get(column)), (int, float))]


def _kept(ds: Dataset, operation: str, column: str | None) -> list[dict[str, Any]]:
    if operation == "dedupe":
        seen: set[tuple[Any, ...]] = set()
        kept = []
        for r in ds.rows:
            sig = tuple(sorted(r.items(), key=lambda kv: kv[0]))
            if sig not in seen:
                seen.add(sig)
                kept.append(r)
        return kept
    if column is None:
        raise ToolError(f"{operation} needs a column")
    _column(ds, column, numeric=operation == "drop_negatives")
    if operation == "drop_nulls":
        return [r for r in ds.rows if r.get(column) is not None]
    return [r for r in ds.rows if not (isinstance(v := r.get(column), (int, float)) and v < 0)]


# ---- people -----------------------------------------------------------------------------------


@DOMAIN.tool(authenticates=True)
def find_user(
    db: DataScienceDB,
    email: Annotated[str, Field(description="the caller's work email")],
    employee_number: Annotated[str, Field(description="the caller's employee number, e.g. 'E48213'")],
) -> User:
    """Verify a caller: find the platform user with this work email and employee number."""
    for user in db.users.find(email=email):
        if user.employee_number.strip().upper() == employee_number.strip().upper():
            return user
    raise ToolError("no user with that email and employee number")


@DOMAIN.tool
def get_user(db: DataScienceDB, user_id: Annotated[str, Field(description="the user id, e.g. 'U1042'")]) -> User:
    """Get a platform user (name, team, role, clearance) by id, e.g. a dataset's owner."""
    return db.users.require(user_id)


# ---- datasets and statistics -----------------------------------------------------------------


@DOMAIN.tool
def find_dataset(db: DataScienceDB, name: Annotated[str, Field(description="the dataset's name, e.g. 'emea_orders_2025'")]) -> DatasetSummary:
    """Find a dataset by its name: schema, owner, team, sensitivity tier and row count (not the rows)."""
    found = db.datasets.find(name=name)
    if not found:
        raise ToolError("no dataset with that name")
    return _summary(found[0])


@DOMAIN.tool
def search_datasets(
    db: DataScienceDB, keyword: Annotated[str, Field(description="part of a dataset name, e.g. 'orders' or 'apac'")]
) -> list[DatasetSummary]:
    """Search datasets whose name contains the keyword (at most 25 results)."""
    key = keyword.strip().lower()
    if not key:
        raise ToolError("give a keyword")
    return [_summary(d) for d in db.datasets.values() if key in d.name.lower()][:25]


@DOMAIN.tool
def column_statistics(db: DataScienceDB, dataset_id: DatasetId, column: ColumnName) -> ColumnStats:
    """Compute statistics of one column over the dataset's stored rows: counts, mean, min, max, total.
    Nulls are left out of the mean, min, max and total."""
    ds = db.datasets.require(dataset_id)
    _column(ds, column)
    values = _numbers(ds, column) if any(c.name == column and c.dtype != "string" for c in ds.columns) else []
    non_null = sum(1 for r in ds.rows if r.get(column) is not None)
    return ColumnStats(
        dataset_id=dataset_id, column=column, row_count=len(ds.rows), non_null_count=non_null,
        null_count=len(ds.rows) - non_null,
        mean=round(sum(values) / len(values), 2) if values else None,
        minimum=min(values) if values else None, maximum=max(values) if values else None,
        total=round(sum(values), 2) if values else None,
    )


@DOMAIN.tool
def count_rows(
    db: DataScienceDB, dataset_id: DatasetId, column: ColumnName,
    value: Annotated[str, Field(description="the value to count, e.g. 'mobile'")],
) -> dict[str, Any]:
    """Count the stored rows whose column equals the value (text compared case-insensitively)."""
    ds = db.datasets.require(dataset_id)
    _column(ds, column)
    want = value.strip().lower()
    n = sum(1 for r in ds.rows if r.get(column) is not None and str(r.get(column)).strip().lower() == want)
    return {"dataset_id": dataset_id, "column": column, "value": value, "matching_rows": n, "row_count": len(ds.rows)}


@DOMAIN.tool
def linear_regression(
    db: DataScienceDB, dataset_id: DatasetId,
    x_column: Annotated[str, Field(description="the explanatory (x) column")],
    y_column: Annotated[str, Field(description="the response (y) column")],
) -> Regression:
    """Fit y = slope * x + intercept by least squares over the rows where both columns are numbers."""
    ds = db.datasets.require(dataset_id)
    _column(ds, x_column, numeric=True)
    _column(ds, y_column, numeric=True)
    pairs = [(float(xv), float(yv)) for r in ds.rows
             if isinstance(xv := r.get(x_column), (int, float)) and isinstance(yv := r.get(y_column), (int, float))]
    n = len(pairs)
    if n < 3:
        raise ToolError("fewer than 3 rows with both columns filled")
    mx = sum(p[0] for p in pairs) / n
    my = sum(p[1] for p in pairs) / n
    sxx = sum((p[0] - mx) ** 2 for p in pairs)
    if sxx == 0:
        raise ToolError("the x column does not vary")
    sxy = sum((p[0] - mx) * (p[1] - my) for p in pairs)
    slope = sxy / sxx
    intercept = my - slope * mx
    ss_tot = sum((p[1] - my) ** 2 for p in pairs)
    ss_res = sum((p[1] - (intercept + slope * p[0])) ** 2 for p in pairs)
    r2 = 1 - ss_res / ss_tot if ss_tot else 1.0
    return Regression(dataset_id=dataset_id, x_column=x_column, y_column=y_column, rows_used=n,
                      slope=round(slope, 2), intercept=round(intercept, 2), r_squared=round(r2, 2))


# ---- cleaning ---------------------------------------------------------------------------------


@DOMAIN.tool
def preview_cleaning(
    db: DataScienceDB, dataset_id: DatasetId, operation: Operation,
    column: Annotated[str | None, Field(description="the column checked (drop_nulls, drop_negatives); none for dedupe")] = None,
) -> CleaningPreview:
    """Preview a cleaning job without changing anything: how many stored rows it would remove."""
    ds = db.datasets.require(dataset_id)
    kept = _kept(ds, operation, None if operation == "dedupe" else column)
    before = len(ds.rows)
    removed = before - len(kept)
    return CleaningPreview(dataset_id=dataset_id, operation=operation, column=None if operation == "dedupe" else column,
                           rows_before=before, rows_removed=removed, rows_after=len(kept),
                           removed_percent=round(100 * removed / before, 1) if before else 0.0)


@DOMAIN.tool(write=True)
def run_cleaning(
    db: DataScienceDB, dataset_id: DatasetId, operation: Operation,
    requested_by: Annotated[str, Field(description="the user id of the caller")],
    column: Annotated[str | None, Field(description="the column checked (drop_nulls, drop_negatives); none for dedupe")] = None,
) -> CleaningJob:
    """Run a cleaning job: removes the matching stored rows from the dataset and records the job."""
    ds = db.datasets.require(dataset_id)
    db.users.require(requested_by)
    col = None if operation == "dedupe" else column
    kept = _kept(ds, operation, col)
    removed = len(ds.rows) - len(kept)
    if removed == 0:
        raise ToolError("the job would remove no rows")
    key = db.cleaning_jobs.new_key("CJ", dataset_id, operation, col or "")
    job = CleaningJob(job_id=key, dataset_id=dataset_id, operation=operation, column=col, requested_by=requested_by,
                      run_at=DOMAIN.now.strftime("%Y-%m-%dT%H:%M"), rows_before=len(ds.rows), rows_removed=removed)
    ds.rows = kept
    db.datasets[dataset_id] = ds
    db.cleaning_jobs[key] = job
    return job


# ---- pipelines --------------------------------------------------------------------------------


@DOMAIN.tool
def find_pipeline(db: DataScienceDB, name: Annotated[str, Field(description="the pipeline's name, e.g. 'refresh_emea_orders_2025'")]) -> Pipeline:
    """Find a pipeline by name: schedule, status, owner and run history (oldest first)."""
    found = db.pipelines.find(name=name)
    if not found:
        raise ToolError("no pipeline with that name")
    return found[0]


@DOMAIN.tool
def list_pipelines_for_dataset(db: DataScienceDB, dataset_id: DatasetId) -> list[Pipeline]:
    """List the pipelines that write a dataset."""
    db.datasets.require(dataset_id)
    return list(db.pipelines.where(dataset_id=dataset_id))


@DOMAIN.tool(write=True)
def trigger_rerun(
    db: DataScienceDB, pipeline_id: PipelineId,
    requested_by: Annotated[str, Field(description="the user id of the caller")],
) -> Run:
    """Queue a manual run of a pipeline now."""
    pl = db.pipelines.require(pipeline_id)
    user = db.users.require(requested_by)
    if any(r.status == "queued" for r in pl.runs):
        raise ToolError("a run of this pipeline is already queued")
    run = Run(run_id=db.pipelines.new_key("RQ", pipeline_id), started_at=DOMAIN.now.strftime("%Y-%m-%dT%H:%M"),
              trigger="manual", status="queued", requested_by=user.user_id)
    pl.runs.append(run)
    db.pipelines[pipeline_id] = pl
    return run


@DOMAIN.tool(write=True)
def pause_pipeline(
    db: DataScienceDB, pipeline_id: PipelineId,
    reason: Annotated[FreeText, Field(description="why the pipeline is paused, in the caller's words")],
) -> Pipeline:
    """Pause a pipeline's schedule."""
    pl = db.pipelines.require(pipeline_id)
    if pl.status == "paused":
        raise ToolError("the pipeline is already paused")
    pl.status, pl.pause_reason = "paused", reason
    db.pipelines[pipeline_id] = pl
    return pl


@DOMAIN.tool(write=True)
def resume_pipeline(db: DataScienceDB, pipeline_id: PipelineId) -> Pipeline:
    """Resume a paused pipeline's schedule."""
    pl = db.pipelines.require(pipeline_id)
    if pl.status == "active":
        raise ToolError("the pipeline is already active")
    pl.status, pl.pause_reason = "active", None
    db.pipelines[pipeline_id] = pl
    return pl


@DOMAIN.tool(write=True)
def reschedule_pipeline(
    db: DataScienceDB, pipeline_id: PipelineId,
    schedule_time: Annotated[str, Field(description="the new daily start time, 24-hour HH:MM")],
) -> Pipeline:
    """Change a pipeline's daily start time."""
    pl = db.pipelines.require(pipeline_id)
    try:
        t = datetime.strptime(schedule_time.strip(), "%H:%M")
    except ValueError:
        raise ToolError("schedule_time must be HH:MM (24-hour)") from None
    pl.schedule_time = t.strftime("%H:%M")
    db.pipelines[pipeline_id] = pl
    return pl


# ---- models -----------------------------------------------------------------------------------


@DOMAIN.tool
def find_model_versions(db: DataScienceDB, name: Annotated[str, Field(description="the model's name, e.g. 'emea_churn_cla'")]) -> list[Model]:
    """List every registered version of a model by name, with stage and evaluation metrics."""
    found = sorted(db.models.find(name=name), key=lambda m: m.version)
    if not found:
        raise ToolError("no model with that name")
    return found


@DOMAIN.tool(write=True)
def set_model_stage(
    db: DataScienceDB, model_id: Annotated[str, Field(description="the model version's id, e.g. 'M4123'")],
    stage: Literal["registered", "staging", "production", "retired"],
) -> Model:
    """Move one model version to a stage."""
    m = db.models.require(model_id)
    if m.stage == stage:
        raise ToolError(f"the model version is already in {stage}")
    m.stage = stage
    db.models[model_id] = m
    return m


# ---- access -----------------------------------------------------------------------------------


@DOMAIN.tool
def list_user_grants(db: DataScienceDB, user_id: Annotated[str, Field(description="the user id")]) -> list[GrantSummary]:
    """List a user's dataset access grants (active and revoked)."""
    db.users.require(user_id)
    out = []
    for g in db.grants.where(user_id=user_id):
        ds = db.datasets.require(g.dataset_id)
        out.append(GrantSummary(grant_id=g.grant_id, user_id=g.user_id, dataset_id=g.dataset_id, dataset_name=ds.name,
                                level=g.level, granted_on=g.granted_on, expires_on=g.expires_on, status=g.status))
    return sorted(out, key=lambda g: g.grant_id)


@DOMAIN.tool(write=True)
def grant_access(
    db: DataScienceDB, user_id: Annotated[str, Field(description="the user who gets access")],
    dataset_id: DatasetId, level: Literal["read", "write"],
    days: Annotated[int, Field(description="how many days from today the grant lasts")],
    justification: Annotated[FreeText, Field(description="why access is needed, in the caller's words")],
) -> Grant:
    """Grant a user access to a dataset for a number of days from today."""
    db.users.require(user_id)
    db.datasets.require(dataset_id)
    if days < 1 or days > 3650:
        raise ToolError("days must be between 1 and 3650")
    key = db.grants.new_key("G", user_id, dataset_id, level)
    grant = Grant(grant_id=key, user_id=user_id, dataset_id=dataset_id, level=level, granted_on=DOMAIN.today.isoformat(),
                  expires_on=(DOMAIN.today + timedelta(days=days)).isoformat(), status="active", justification=justification)
    db.grants[key] = grant
    return grant


@DOMAIN.tool(write=True)
def revoke_access(db: DataScienceDB, grant_id: Annotated[str, Field(description="the grant id, e.g. 'G5120'")]) -> Grant:
    """Revoke an access grant."""
    g = db.grants.require(grant_id)
    if g.status == "revoked":
        raise ToolError("the grant is already revoked")
    g.status = "revoked"
    db.grants[grant_id] = g
    return g


# -- data invariants: the clock, and pipelines that write the data their dataset holds -------------
DOMAIN.invariants(
    not_after_now("datasets", "created_date"),
    not_after_now("pipelines", "runs[].started_at"),
    not_after_now("cleaning_jobs", "run_at"),
)


@DOMAIN.invariant
def _runs_write_the_dataset(db: DataScienceDB, now: datetime) -> Any:
    """a pipeline's latest successful run wrote as many rows as its dataset holds, earlier ones no more"""
    for key, pipeline in db.pipelines.items():
        rows = len(db.datasets[pipeline.dataset_id].rows)
        written = [run.rows_written for run in pipeline.runs if run.status == "succeeded"]
        if written and written[-1] != rows:
            yield f"pipelines[{key!r}]: latest successful run wrote {written[-1]} rows, the dataset holds {rows}"
        if any(count is None or not 0 < count <= rows for count in written):
            yield f"pipelines[{key!r}]: successful runs wrote {written}, the dataset holds {rows}"


# ---- analyses, charts and models ----------------------------------------------------------------

# Amounts that add up across rows (a group's figure is their total); every other numeric column is a
# measurement (a group's figure is its mean). Policy 10.1.
ADDITIVE = frozenset({"order_value", "spend_usd", "cost_usd", "energy_kwh", "clicks", "conversions", "items"})
UserId = Annotated[str, Field(description="the caller's user id, from find_user")]


@DOMAIN.tool
def aggregate(
    db: DataScienceDB, dataset_id: DatasetId,
    column: Annotated[str, Field(description="the numeric column to combine")],
    by: Annotated[str, Field(description="the text column to group rows by, e.g. 'carrier'")],
    function: Annotated[Literal["sum", "mean", "count"], Field(description="how each group's values are combined")],
) -> dict[str, Any]:
    """Group the stored rows by a text column and combine a numeric column in each group (nulls left out), sorted
    by group name. Changes nothing."""
    ds = db.datasets.require(dataset_id)
    column, by = _named(ds, column), _named(ds, by)
    _column(ds, column, numeric=True)
    _column(ds, by)
    groups: dict[str, list[float]] = {}
    for r in ds.rows:
        key, value = r.get(by), r.get(column)
        if key is not None and isinstance(value, (int, float)):
            groups.setdefault(str(key), []).append(float(value))
    result = {}
    for key, values in sorted(groups.items()):
        figure = {"sum": sum(values), "mean": sum(values) / len(values), "count": float(len(values))}[function]
        result[key] = round(figure, 2)
    return {"dataset_id": ds.dataset_id, "column": column, "by": by, "function": function, "groups": result}


@DOMAIN.tool(write=True)
def create_chart(
    db: DataScienceDB, dataset_id: DatasetId,
    chart_type: Annotated[Literal["bar", "scatter", "histogram"], Field(description="the kind of chart")],
    x: Annotated[str, Field(description="the column on the x axis")],
    aggregation: Annotated[Literal["sum", "mean", "none"], Field(description="how the y values of one x are combined ('none' for scatter and histogram)")],
    title: Annotated[FreeText, Field(description="the chart's title")],
    requested_by: UserId,
    y: Annotated[str | None, Field(description="the column on the y axis (none for a histogram)")] = None,
    filter_column: Annotated[str | None, Field(description="a text column to keep only some rows by")] = None,
    filter_value: Annotated[str | None, Field(description="the value of filter_column the kept rows have")] = None,
) -> Chart:
    """Save a chart specification on a dataset for the caller's dashboards."""
    ds = db.datasets.require(dataset_id)
    db.users.require(requested_by)
    x, y = _named(ds, x), None if y is None else _named(ds, y)
    filter_column = None if filter_column is None else _named(ds, filter_column)
    _column(ds, x)
    if y is not None:
        _column(ds, y, numeric=True)
    if (filter_column is None) != (filter_value is None):
        raise ToolError("give both filter_column and filter_value, or neither")
    if filter_column is not None:
        _column(ds, filter_column)
    value = filter_value.strip().lower() if filter_value is not None else None
    key = db.charts.new_key("CH-", ds.dataset_id, chart_type, x, y or "", aggregation, filter_column or "", value or "")
    chart = Chart(chart_id=key, dataset_id=ds.dataset_id, chart_type=chart_type, x=x, y=y, aggregation=aggregation,
                  filter_column=filter_column, filter_value=value, title=title, requested_by=requested_by.strip(),
                  created_on=DOMAIN.today.isoformat())
    db.charts[key] = chart
    return chart


def _fit(rows: list[tuple[list[float], float]]) -> list[float]:
    """Least squares: coefficients [intercept, b1, ...] by the normal equations (Gauss-Jordan)."""
    k = len(rows[0][0]) + 1
    a = [[0.0] * (k + 1) for _ in range(k)]
    for xs, y in rows:
        v = [1.0, *xs]
        for i in range(k):
            for j in range(k):
                a[i][j] += v[i] * v[j]
            a[i][k] += v[i] * y
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-12:
            raise ToolError("the features do not vary enough to fit")
        a[col], a[pivot] = a[pivot], a[col]
        for r in range(k):
            if r != col:
                factor = a[r][col] / a[col][col]
                a[r] = [x - factor * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][k] / a[i][i] for i in range(k)]


@DOMAIN.tool(write=True)
def train_model(
    db: DataScienceDB,
    name: Annotated[str, Field(description="the model's name, e.g. 'emea_demand_reg' (a regression model)")],
    dataset_id: DatasetId,
    target: Annotated[str, Field(description="the numeric column to predict")],
    features: Annotated[list[str], Field(description="one or two numeric columns to predict it from")],
    requested_by: UserId,
) -> Model:
    """Train a new version of a regression model: a linear fit of the target on the features over the dataset's
    stored rows where all are filled in, every fifth such row held out; the version is registered with its r2 and
    mean absolute error on the held-out rows."""
    versions = sorted((m for m in db.models.values() if m.name.casefold() == name.strip().casefold()), key=lambda m: m.version)
    if not versions:
        raise ToolError(f"no model named {name!r}")
    if versions[-1].task != "regression":
        raise ToolError(f"{name} is a classification model; the desk trains regression models only")
    ds = db.datasets.require(dataset_id)
    db.users.require(requested_by)
    cols = [_named(ds, c) for c in features]
    target = _named(ds, target)
    if not 1 <= len(cols) <= 2 or len(set(cols)) != len(cols) or target in cols:
        raise ToolError("give one or two feature columns, other than the target")
    for col in [target, *cols]:
        _column(ds, col, numeric=True)
    rows: list[tuple[list[float], float]] = []
    for r in ds.rows:
        values = [r.get(c) for c in [target, *cols]]
        if all(isinstance(v, (int, float)) for v in values):
            numbers = [float(v) for v in values if isinstance(v, (int, float))]
            rows.append((numbers[1:], numbers[0]))
    held = rows[4::5]
    train = [row for i, row in enumerate(rows) if i % 5 != 4]
    if len(train) < 10 or len(held) < 3:
        raise ToolError("too few complete rows to train and evaluate")
    coef = _fit(train)
    predicted = [coef[0] + sum(b * x for b, x in zip(coef[1:], xs, strict=True)) for xs, _ in held]
    actual = [y for _, y in held]
    mean = sum(actual) / len(actual)
    ss_tot = sum((y - mean) ** 2 for y in actual)
    ss_res = sum((y - p) ** 2 for y, p in zip(actual, predicted, strict=True))
    latest = versions[-1]
    # The next id after the latest version's: a family's ids leave room for its next versions.
    model = Model(model_id=f"M{int(latest.model_id[1:]) + 1}",
                  name=latest.name, version=latest.version + 1, task="regression", training_dataset_id=ds.dataset_id,
                  owner_id=latest.owner_id, team=latest.team, stage="registered", evaluated_on=DOMAIN.today.isoformat(),
                  evaluations=[Evaluation(metric="r2", value=round(1 - ss_res / ss_tot if ss_tot else 1.0, 2)),
                               Evaluation(metric="mae", value=round(sum(abs(y - p) for y, p in zip(actual, predicted, strict=True)) / len(held), 2))],
                  target=target, features=cols, trained_by=requested_by.strip())
    db.models[model.model_id] = model
    return model


# Policy 4.3: a cleaning job is previewed (the rows it removes told) before it runs.
DOMAIN.order("preview_cleaning", "run_cleaning")
