"""Quarry data platform: the pipeline desk's database (pydantic models, one table per field)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from pytest_tau import Confidential, FreeText, Table, Unordered

Tier = Literal["public", "internal", "confidential", "restricted"]
Role = Literal["analyst", "data_engineer"]
Cell = str | float | None


class User(BaseModel):
    user_id: str
    first_name: str
    last_name: str
    email: str
    employee_number: Confidential[str]
    team: str
    role: Role
    clearance: Tier
    active: bool = True


class Column(BaseModel):
    name: str
    dtype: Literal["string", "float", "integer"]
    nullable: bool


class Dataset(BaseModel):
    dataset_id: str
    name: str
    description: str
    owner_id: str
    team: str
    sensitivity: Tier
    status: Literal["active", "deprecated"]
    created_date: str
    columns: list[Column]
    rows: list[dict[str, Cell]]


class CleaningJob(BaseModel):
    job_id: str
    dataset_id: str
    operation: Literal["drop_nulls", "drop_negatives", "dedupe"]
    column: str | None
    requested_by: str
    run_at: str
    rows_before: int
    rows_removed: int


class Run(BaseModel):
    run_id: str
    started_at: str  # YYYY-MM-DDTHH:MM
    trigger: Literal["scheduled", "manual"]
    status: Literal["succeeded", "failed", "queued"]
    error_code: str | None = None
    rows_written: int | None = None
    requested_by: str | None = None  # the user who asked for a manual run


class Pipeline(BaseModel):
    pipeline_id: str
    name: str
    dataset_id: str
    owner_id: str
    team: str
    schedule_time: str  # HH:MM, daily
    status: Literal["active", "paused"]
    pause_reason: FreeText | None = None
    runs: list[Run]


class Evaluation(BaseModel):
    metric: Literal["auc", "precision", "r2", "mae"]
    value: float


class Model(BaseModel):
    model_id: str
    name: str
    version: int
    task: Literal["classification", "regression"]
    training_dataset_id: str
    owner_id: str
    team: str
    stage: Literal["registered", "staging", "production", "retired"]
    evaluated_on: str
    evaluations: Unordered[Evaluation]
    # Versions the desk trains: what they were fitted on (earlier versions were registered from elsewhere).
    target: str | None = None
    features: list[str] = []
    trained_by: str | None = None


class Chart(BaseModel):
    """A chart the desk specifies for a caller: what it plots, how values are combined, which rows."""

    chart_id: str
    dataset_id: str
    chart_type: Literal["bar", "scatter", "histogram"]
    x: str
    y: str | None = None
    aggregation: Literal["sum", "mean", "none"]
    filter_column: str | None = None
    filter_value: str | None = None
    title: FreeText
    requested_by: str
    created_on: str


class Grant(BaseModel):
    grant_id: str
    user_id: str
    dataset_id: str
    level: Literal["read", "write"]
    granted_on: str
    expires_on: str
    status: Literal["active", "revoked"]
    justification: FreeText


class DataScienceDB(BaseModel):
    users: Table[User]
    datasets: Table[Dataset]
    cleaning_jobs: Table[CleaningJob]
    pipelines: Table[Pipeline]
    models: Table[Model]
    charts: Table[Chart]
    grants: Table[Grant]
